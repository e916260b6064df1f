"""A Cell's buffers and its state dict, as MindSpore's Cell has them.

A buffer is a Tensor a Cell keeps as state but not as a parameter (running statistics, fixed
tables): `register_buffer(name, tensor)`, or an attribute assigned a `_Buffer`. Buffers are
attributes like any other (construct reads them as Tensors) and are listed in `_buffers`.
`state_dict()` maps each Parameter attribute and persistent buffer, by its attribute path
("sub_net.buffer_1"), to the object itself; `load_state_dict(d)` copies values from `d` into
them (cast to their dtype), and reports or raises on missing and unexpected keys.
"""
from __future__ import annotations

import collections
import types
from collections import OrderedDict
from collections.abc import Mapping

from cellgraph._check_jit_forbidden_api import jit_forbidden_register
from cellgraph.common.parameter import _Buffer
from cellgraph.runtime.tensor import Parameter, Tensor

from . import hooks


class _IncompatibleKeys(collections.namedtuple("IncompatibleKeys",
                                               ["missing_keys", "unexpected_keys"])):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class CellState:
    """The buffer and state-dict methods of Cell (a base of Cell)."""

    _buffers = types.MappingProxyType({})  # replaced by a dict on the first buffer
    _non_persistent_buffers_set = frozenset()
    _state_dict_pre_hooks = None
    _state_dict_hooks = None
    _load_state_dict_pre_hooks = None
    _load_state_dict_post_hooks = None

    # -- buffers ----------------------------------------------------------------------------
    def _set_buffer(self, name: str, tensor, persistent: bool) -> None:
        if "_buffers" not in self.__dict__:
            object.__setattr__(self, "_buffers", {})
            object.__setattr__(self, "_non_persistent_buffers_set", set())
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    @jit_forbidden_register
    def register_buffer(self, name, tensor, persistent=True) -> None:
        """Keep `tensor` (a Tensor, or None) as the buffer `name`, an attribute of this Cell;
        `persistent` buffers are part of `state_dict()`."""
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. But got this type: {type(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type(tensor)}' object to buffer '{name}' "
                            f"(Tensor or None required)")
        self._set_buffer(name, tensor, bool(persistent))
        object.__setattr__(self, name, tensor)

    @jit_forbidden_register
    def get_sub_cell(self, target: str):
        """The Cell at the attribute path `target` ("" is this Cell)."""
        cell = self
        for item in target.split(".") if target else ():
            if not hasattr(cell, item):
                raise AttributeError(f"{type(cell).__name__} has no attribute `{item}`")
            cell = getattr(cell, item)
            if not isinstance(cell, CellState):
                raise AttributeError(f"`{item}` is not an nn.Cell")  # noqa: TRY004 (MindSpore)
        return cell

    @jit_forbidden_register
    def get_buffer(self, target: str):
        """The buffer at the attribute path `target` ("sub_net.buffer_1")."""
        cell_path, _, name = target.rpartition(".")
        cell = self.get_sub_cell(cell_path)
        if not hasattr(cell, name):
            raise AttributeError(f"{type(cell).__name__} has no attribute `{name}`")
        if name not in cell._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return getattr(cell, name)

    @jit_forbidden_register
    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """Yield (attribute path, buffer) for the buffers of this Cell (and, with `recurse`,
        of the Cells below it); a buffer held twice is yielded once unless
        `remove_duplicate` is False."""
        seen = set()
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        for cell_prefix, cell in cells:
            for name, value in cell._buffers.items():
                if value is None or id(value) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield (f"{cell_prefix}.{name}" if cell_prefix else name), value

    @jit_forbidden_register
    def buffers(self, recurse=True):
        """Yield the buffers of this Cell (and, with `recurse`, of the Cells below it)."""
        for _, value in self.named_buffers(recurse=recurse):
            yield value

    # -- state dict -------------------------------------------------------------------------
    def _local_state(self) -> dict:
        state = {name: value for name, value in self.__dict__.items()
                 if isinstance(value, Parameter)}
        state.update((name, value) for name, value in self._buffers.items()
                     if value is not None and name not in self._non_persistent_buffers_set)
        return state

    def _state_children(self):
        return [(name, child) for name, child in self._children() if "." not in name]

    def _add_hook(self, table: str, hook):
        if not callable(hook):
            raise TypeError(f"{type(self).__name__}: a state-dict hook must be callable, got "
                            f"{type(hook).__name__}")
        key = next(hooks._ids)
        object.__setattr__(self, table, {**(getattr(self, table) or {}), key: hook})
        return hooks.HookHandle(self, table, key)

    @jit_forbidden_register
    def register_state_dict_pre_hook(self, hook):
        """`hook(cell, prefix, keep_vars)` runs before `state_dict()` collects this Cell."""
        return self._add_hook("_state_dict_pre_hooks", hook)

    @jit_forbidden_register
    def register_state_dict_post_hook(self, hook):
        """`hook(cell, state_dict, prefix, local_metadata)` runs after `state_dict()` has
        collected this Cell and those below it; it must return None."""
        return self._add_hook("_state_dict_hooks", hook)

    @jit_forbidden_register
    def register_load_state_dict_pre_hook(self, hook):
        """`hook(cell, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)` runs before `load_state_dict()` loads this Cell."""
        return self._add_hook("_load_state_dict_pre_hooks", hook)

    @jit_forbidden_register
    def register_load_state_dict_post_hook(self, hook):
        """`hook(cell, incompatible_keys)` runs after `load_state_dict()` has loaded this Cell
        and those below it; it may edit the key lists in place and must return None."""
        return self._add_hook("_load_state_dict_post_hooks", hook)

    @jit_forbidden_register
    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An OrderedDict from attribute path to each Parameter and persistent buffer of this
        Cell and the Cells below it (the objects themselves)."""
        if args:
            destination = args[0] if destination is None else destination
            prefix = args[1] if len(args) > 1 and prefix == "" else prefix
            keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        if destination is not None and not isinstance(destination, dict):
            raise TypeError(f"The type of destination must be OrderedDict, but got "
                            f"{type(destination)}")
        if not isinstance(prefix, str):
            raise TypeError(f"The type of prefix must be string, but got {type(prefix)}")
        if not isinstance(keep_vars, bool):
            raise TypeError(f"The type of keep_vars must be bool, but got {type(keep_vars)}")
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in (self._state_dict_pre_hooks or {}).values():
            hook(self, prefix, keep_vars)
        for name, value in self._local_state().items():
            destination[prefix + name] = value
        for name, child in self._state_children():
            child.state_dict(destination=destination, prefix=f"{prefix}{name}.",
                             keep_vars=keep_vars)
        for hook in (self._state_dict_hooks or {}).values():
            if hook(self, destination, prefix, local_metadata) is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        for hook in (self._load_state_dict_pre_hooks or {}).values():
            hook(self, state_dict, prefix, local_metadata, strict, missing_keys,
                 unexpected_keys, error_msgs)
        local_state = self._local_state()
        for name, target in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected Tensor '
                                  f"or Tensor-like object from checkpoint but received "
                                  f"{type(value)}")
                continue
            if tuple(value.shape) != tuple(target.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape "
                                  f"{tuple(value.shape)} from checkpoint, the shape in current "
                                  f"model is {tuple(target.shape)}.")
                continue
            target.assign_value(Tensor(value.asnumpy(), dtype=target.dtype))
        if strict:
            children = {name for name, _ in self._state_children()}
            for key in state_dict:
                if key.startswith(prefix):
                    head, dot, _ = key[len(prefix):].partition(".")
                    if (dot and head not in children) or (not dot and head not in local_state):
                        unexpected_keys.append(key)

    @jit_forbidden_register
    def load_state_dict(self, state_dict, strict=True):
        """Copy the values of `state_dict` (attribute path -> Tensor, as `state_dict()` or
        `load_checkpoint` gives) into this Cell's Parameters and persistent buffers. Returns
        (missing_keys, unexpected_keys); with `strict`, either being non-empty raises
        RuntimeError, as does a value of another shape."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)

        def load(cell, local, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            cell._load_from_state_dict(local, prefix, local_metadata, True, missing_keys,
                                       unexpected_keys, error_msgs)
            for name, child in cell._state_children():
                child_prefix = f"{prefix}{name}."
                load(child, {k: v for k, v in local.items() if k.startswith(child_prefix)},
                     child_prefix)
            incompatible = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in (cell._load_state_dict_post_hooks or {}).values():
                if hook(cell, incompatible) is not None:
                    raise RuntimeError("Hooks registered with "
                                       "``register_load_state_dict_post_hook`` are not expected "
                                       "to return new values; edit incompatible_keys in place")

        load(self, state_dict)
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(
                    f'"{k}"' for k in unexpected_keys) + ". ")
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: " + ", ".join(
                    f'"{k}"' for k in missing_keys) + ". ")
        if error_msgs:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(error_msgs))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    def _buffer_setattr(self, name: str, value) -> None:
        """Assignment of a `_Buffer`, or to a registered buffer's name, as MindSpore's Cell:
        the buffer table follows the attribute."""
        if isinstance(value, _Buffer):
            self._set_buffer(name, value, value.persistent)
        elif name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{type(value)}' as buffer '{name}' (Tensor or "
                                f"None expected)")
            self._buffers[name] = value
