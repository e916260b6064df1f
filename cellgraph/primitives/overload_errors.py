"""MindSpore's wording for a Tensor method call that none of the method's overloads takes: the
valid callings (method_overloads.py, recorded from MindSpore) and, for each one the call could
fit by its number of positional arguments, the keyword it does not know:

    x.max(a=1)   ->   Failed calling max with "max(a=int)".
                      The valid calling should be:
                      "Tensor.max()"
                      "Tensor.max(dim=<int>, keepdim=<bool>)"
                          match failed because incorrect keyword name: a
                      ...
"""
from __future__ import annotations


def overload_message(name: str, callings, args: tuple, kwargs: dict) -> str:
    fits = []
    for calling in callings:
        positional, keywords = _parameters(calling)
        unknown = next((k for k in kwargs if k not in positional + keywords), None)
        fits.append((calling, len(args) <= len(positional), unknown, positional + keywords))
    by_count = [f for f in fits if f[1]]
    if len(by_count) == 1 and by_count[0][2] is not None and len(callings) > 1:
        return f"match failed because incorrect keyword name: {by_count[0][2]}"
    described = ", ".join([_type_name(a) for a in args] +
                          [f"{k}={_type_name(v)}" for k, v in kwargs.items()])
    lines = [f'Failed calling {name} with "{name}({described})".',
             "The valid calling should be:"]
    for calling, fits_count, unknown, names in fits:
        lines.append(f'"{calling}"')
        if fits_count and unknown is not None and names:
            lines.append(f"\tmatch failed because incorrect keyword name: {unknown}")
    return "\n".join(lines)


def _parameters(calling: str) -> tuple[list, list]:
    """The positional-or-keyword and keyword-only parameter names of a recorded calling."""
    inner = calling[calling.index("(") + 1:calling.rindex(")")]
    positional, keywords, depth, current = [], [], 0, ""
    target = positional
    for char in inner + ",":
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
        if char == "," and depth == 0:
            item = current.strip()
            current = ""
            if item == "*":
                target = keywords
            elif item:
                target.append(item.split("=", 1)[0])
            continue
        current += char
    return positional, keywords


def _type_name(value) -> str:
    """A value's type as MindSpore's overload errors write it."""
    if hasattr(value, "aval") and hasattr(value, "shape"):  # a Tensor or a graph value
        return "Tensor"
    if value is None:
        return "None"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_type_name(v) for v in value)
        return f"{type(value).__name__}<{inner}>"
    return {str: "string"}.get(type(value), type(value).__name__)
