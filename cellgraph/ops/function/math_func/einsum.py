"""Einstein summation (ops.einsum, ops.Einsum): the equation's ellipses named, repeated letters
reduced to diagonals, then the operands contracted pairwise through batched matmuls."""
from __future__ import annotations

import string

import numpy as np

from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, ShapeError


def _parse(equation: str, count: int) -> tuple[list[str], str]:
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) != count:
        raise ArgumentValueError(f"einsum: the equation names {len(terms)} operands, got {count}")
    if "." in equation:
        raise ArgumentValueError(f"einsum: a '.' outside an ellipsis ('...') in {equation!r}")
    if len(set(output)) != len(output):
        raise ArgumentValueError(f"einsum: a letter repeated in the output ({output!r})")
    if any(c not in inputs for c in output):
        raise ArgumentValueError(f"einsum: the output {output!r} names a letter no operand has")
    if not arrow:  # implicit output: the letters used once, in alphabetical order
        letters = "".join(terms)
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return terms, output


def _diagonals(x, term: str):
    """x with each letter repeated in `term` reduced to its diagonal: returns (value, term with
    every letter once)."""
    shape = abstract_of(x).shape
    if len(term) != len(shape):
        raise ShapeError(f"einsum: the term {term!r} names {len(term)} axes, but its operand "
                         f"has shape {tuple(shape)}")
    while len(set(term)) != len(term):
        c = next(c for c in term if term.count(c) > 1)
        first, second = term.index(c), term.index(c, term.index(c) + 1)
        if shape[first] != shape[second]:
            raise ShapeError(f"einsum: letter {c!r} repeated in {term!r} has sizes "
                             f"{shape[first]} and {shape[second]}")
        eye_shape = [1] * len(shape)
        eye_shape[first] = eye_shape[second] = shape[first]
        eye = np.broadcast_to(np.eye(shape[first], dtype=bool).reshape(eye_shape), shape)
        x = F.reduce_sum(M.select(np.ascontiguousarray(eye), x, F.zeros_like(x)), (second,))
        term = term[:second] + term[second + 1:]
        shape = abstract_of(x).shape
    return x, term


def _reduce_to(x, term: str, keep: str):
    """Sum away the letters of `term` not in `keep`; returns (value, remaining term)."""
    drop = tuple(i for i, c in enumerate(term) if c not in keep)
    if drop:
        x = F.reduce_sum(x, drop)
    return x, "".join(c for c in term if c in keep)


def _permute(x, term: str, order: str):
    return x if term == order else F.transpose(x, tuple(term.index(c) for c in order))


def _contract(a, ta: str, b, tb: str, keep: str):
    """a (ta) times b (tb), summing the shared letters not in `keep`."""
    a, ta = _reduce_to(a, ta, tb + keep)
    b, tb = _reduce_to(b, tb, ta + keep)
    size = dict(zip(ta, abstract_of(a).shape)) | dict(zip(tb, abstract_of(b).shape))
    for c in set(ta) & set(tb):
        sa, sb = abstract_of(a).shape[ta.index(c)], abstract_of(b).shape[tb.index(c)]
        if sa != sb:
            raise ShapeError(f"einsum: letter {c!r} has size {sa} in one operand and {sb} in "
                             f"the other")
    batch = "".join(c for c in ta if c in tb and c in keep)
    summed = "".join(c for c in ta if c in tb and c not in keep)
    left = "".join(c for c in ta if c not in tb)
    right = "".join(c for c in tb if c not in ta)

    def prod(letters):
        return int(np.prod([size[c] for c in letters])) if letters else 1

    a3 = F.reshape(_permute(a, ta, batch + left + summed), (prod(batch), prod(left), prod(summed)))
    b3 = F.reshape(_permute(b, tb, batch + summed + right),
                   (prod(batch), prod(summed), prod(right)))
    out = F.reshape(F.matmul(a3, b3), tuple(size[c] for c in batch + left + right))
    return out, batch + left + right


def _name_ellipsis(equation: str, operands) -> str:
    """`equation` with each ellipsis ('...') written as letters of its own, one per axis it
    stands for. As MindSpore's Einsum, every operand's ellipsis stands for the same axes (no
    broadcasting between them); without '->' the output is the ellipsis's axes, then the
    letters used once in alphabetical order."""
    equation = equation.replace(" ", "")
    if "..." not in equation:
        return equation
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    ellipsis = None
    for term, x in zip(terms, operands):
        if "..." not in term:
            continue
        shape = tuple(abstract_of(x).shape)
        rank, start = len(shape) - (len(term) - 3), term.index("...")
        if rank < 0:
            raise ShapeError(f"For 'Einsum', the term {term!r} names {len(term) - 3} axes, but "
                             f"its operand has shape {shape}")
        if ellipsis is not None and ellipsis != shape[start:start + rank]:
            raise ArgumentValueError("For 'Einsum', the same ellipsis in equation can only "
                                     "represent the same dimension in inputs.")
        ellipsis = shape[start:start + rank]
    if ellipsis is None:  # an ellipsis in the output only
        raise ArgumentValueError(f"einsum: the output of {equation!r} has an ellipsis no "
                                 f"operand has")
    free = [c for c in string.ascii_letters if c not in equation]
    if len(free) < len(ellipsis):
        raise ArgumentValueError(f"einsum: {equation!r} leaves too few letters for its "
                                 f"ellipsis of {len(ellipsis)} axes")
    letters = "".join(free[:len(ellipsis)])
    if not arrow:
        named = "".join(terms).replace("...", "")
        output = "..." + "".join(sorted(c for c in set(named) if named.count(c) == 1))
    return ",".join(terms).replace("...", letters) + "->" + output.replace("...", letters)


def einsum(equation, *operands):
    """Einstein summation over the operands as `equation` ("ij,jk->ik", "ij...,j...->i...")
    says."""
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    if isinstance(equation, str):
        equation = _name_ellipsis(equation, operands)
    terms, output = _parse(equation, len(operands))
    operands, terms = zip(*(_diagonals(x, t) for x, t in zip(operands, terms)))
    value, term = operands[0], terms[0]
    rest = "".join(terms[1:])
    value, term = _reduce_to(value, term, rest + output)
    for k in range(1, len(operands)):
        later = "".join(terms[k + 1:])
        value, term = _contract(value, term, operands[k], terms[k], later + output)
    value, term = _reduce_to(value, term, output)
    return _permute(value, term, output)
