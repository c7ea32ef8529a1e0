"""``lazynum.ndarray``: a lazy array with NumPy's interface and NumPy's aliasing.

Mutation is functionalized.  An array either *owns* its value (``_view is None``: the
node is the value) or is a window onto a shared ``Storage`` (``_view`` holds the storage,
a strided layout and the storage version it last read).  A write through any window
makes a new storage version (a ``view_scatter`` node); every window re-reads its node
from the latest version, so views see later writes to their base and vice versa, exactly
as in NumPy, while nothing is computed.
"""
from __future__ import annotations

import warnings
import weakref

import numpy as np

from ..expr import dtypes
from . import layout as layouts
from ..expr import node as nodes
from ..expr.movement import VIEW, VIEW_SCATTER
from ..runtime import register_live, sync_nodes
from ..runtime.in_place import write_in_place
from ..runtime.writes import remember as remember_write

_new = object.__new__
_weakref = weakref.ref
_thread = nodes.thread          # live arrays are registered per thread (runtime.sync)


class Storage:
    """The shared value behind a group of views: a node plus a version counter."""
    __slots__ = ("node", "version", "owner", "__weakref__")   # (runtime.writes holds it weakly)

    def __init__(self, node, owner=None):
        self.node = node
        self.version = 0
        self.owner = owner      # a weakref to the owner array it was made for, or None


class DerivedStorage(Storage):
    """A storage whose value is computed from another one, ``whole`` (a part of a complex
    value, its bytes read as another dtype, a window at a run-time offset), sharing its
    version, so each side sees the other's writes.  Subclasses say how to ``read`` it from
    the whole's node and how a written value goes ``back`` into the whole; the read is
    cached per whole node (it is built once per version, not per access)."""
    __slots__ = ("whole", "_read", "_value")

    def __init__(self, whole: Storage):       # noqa: super().__init__ not called: node and
        self.whole = whole                    # version are the whole's
        self._read = self._value = None

    def read(self, whole_node):
        raise NotImplementedError

    def back(self, value, whole_node) -> None:
        """Write ``value`` (this storage's new node) into ``self.whole``."""
        raise NotImplementedError

    @property
    def node(self):
        whole = self.whole.node
        if whole is not self._read:
            self._read, self._value = whole, self.read(whole)
        return self._value

    @node.setter
    def node(self, value):
        self.back(value, self.whole.node)

    @property
    def version(self):
        return self.whole.version

    @version.setter
    def version(self, value):
        self.whole.version = value


class ViewState:
    """Where a window reads from: storage, absolute layout, version last read, writability."""
    __slots__ = ("storage", "layout", "version", "readonly")

    def __init__(self, storage, layout, readonly=False):
        self.storage = storage
        self.layout = layout
        self.version = -1
        self.readonly = readonly


def view_node(base, layout):
    """``base`` seen through ``layout``; a view of computed data is a new leaf computed now
    (index math on an immutable buffer: not a sync, not a pending node)."""
    if layouts.is_identity(layout, base.shape):
        return base
    if base.buffer is not None:
        # (No VIEW.shape_rule here: NumPy's ndarray constructor in the reference refuses a
        # window outside the buffer itself, and this runs for every slice of a computed array.)
        # The window keeps its sizes' expressions (x[1:-1] of a computed x is n - 2, not a
        # new input size), so duck sizing cannot merge it with an unrelated dim.
        return nodes.constant(VIEW.reference((base.buffer,), layout), tuple(layout[0]))
    return nodes.apply(VIEW, (base,), layout)


def wrap_ordered(node, perm) -> "ndarray":
    """An array for ``node`` whose memory follows axis order ``perm`` (NumPy's 'K' order for
    results of ops on transposed inputs), so its layout, ``flags`` and reshape-as-view
    decisions are NumPy's.  The storage holds the value transposed into memory order."""
    if perm is None:
        return wrap(node)
    storage = Storage(nodes.apply(VIEW, (node,), layouts.transpose(layouts.identity(node.shape), perm)))
    inverse = tuple(sorted(range(len(perm)), key=perm.__getitem__))
    array = _new(ndarray)
    array._view = ViewState(storage, layouts.transpose(layouts.identity(storage.node.shape), inverse))
    array._view.version = storage.version
    array._node = node
    if node.buffer is None:
        _thread.state.live.append(_weakref(array))
    return array


def layout_of(value):
    """The layout NumPy's layout rules see for an operand: a lazynum array's own over its
    storage (all-zero strides when that storage is empty: NumPy gives a new empty array
    zero strides, and its views keep them), a NumPy array's strides in elements; None for
    anything else (a new C-order array)."""
    if isinstance(value, ndarray):
        view = value._view
        layout = layouts.identity(value._node.shape) if view is None else view.layout
        if 0 in (value._node if view is None else view.storage.node).shape:
            return (layout[0], (0,) * len(layout[0]), layout[2])
        return layout
    if isinstance(value, np.ndarray):
        return (value.shape, tuple(s // max(value.itemsize, 1) for s in value.strides), 0)
    return None


def wrap_result(node) -> "ndarray":
    """``wrap`` for an operation's result: NumPy returns 0-d results of ufuncs and
    reductions as scalars, whose augmented assignment rebinds (``t = s; s += 1`` leaves
    ``t``), so a 0-d result is a ``scalar_result``."""
    return wrap_scalar(node) if not node.shape else wrap(node)


def wrap(node) -> "ndarray":
    """A new owner array for ``node`` (the only way the library makes arrays)."""
    array = _new(ndarray)
    array._node = node
    array._view = None
    if node.buffer is None:
        _thread.state.live.append(_weakref(array))   # register_live, inlined (hot path)
    return array


class ndarray:
    """A lazy N-dimensional array; see the module docstring and NumPy's ``ndarray``.

    Operations record graph nodes; values are computed at sync points (``sync()``,
    ``item()``, ``tolist()``, ``numpy.asarray``, printing, ``bool()``/``int()``/``float()``,
    iteration).
    """
    __slots__ = ("_node", "_view", "__weakref__")
    __array_priority__ = 100

    # -- node access --------------------------------------------------------------------
    def _n(self):
        """The node holding this array's current value."""
        view = self._view
        if view is None or view.version == view.storage.version:
            return self._node
        self._node = view_node(view.storage.node, view.layout)
        view.version = view.storage.version
        return self._node

    def _pending_node(self):
        node = self._n()
        return node if node.buffer is None else None

    def _pending_nodes(self) -> list:
        """This array's pending value, and for a window its storage's pending value."""
        held = []
        node = self._n()
        if node.buffer is None:
            held.append(node)
        view = self._view
        if view is not None and view.storage.node.buffer is None and view.storage.node is not node:
            held.append(view.storage.node)
        return held

    def _layout(self):
        """Absolute layout over the storage (an owner's own identity layout)."""
        if self._view is None:
            return layouts.identity(self._node.shape)
        return self._view.layout

    def _storage(self) -> Storage:
        """Shared storage, created on first view so owners pay nothing until then."""
        if self._view is None:
            state = ViewState(Storage(self._node, _weakref(self)), layouts.identity(self._node.shape))
            state.version = 0
            self._view = state
        return self._view.storage

    def _window(self, layout, readonly=False, value=None) -> "ndarray":
        """A view of this array's storage with an absolute ``layout``; ``value``: its
        computed value when the caller has it (a NumPy view of the same elements)."""
        storage = self._storage()
        array = object.__new__(ndarray)
        array._view = state = ViewState(storage, layout, readonly or self._view.readonly)
        if value is None:
            array._node = None
            array._n()
        else:
            value.flags.writeable = False
            array._node = nodes.constant(value, tuple(layout[0]))
            state.version = storage.version
        if array._node.buffer is None:
            register_live(array)
        return array

    def _check_writeable(self) -> None:
        """NumPy refuses a write into a read-only array before it looks at the key or the
        values (also when nothing would be written): writers call this first."""
        if self._view is not None and self._view.readonly:
            raise ValueError("assignment destination is read-only")

    def _replace_storage(self, node) -> None:
        """Make ``node`` (a full new value of this array's storage) the latest version."""
        self._check_writeable()
        if self._view is None:
            remember_write(self, self._node, node)
            nodes.orphan_checks(self._node, node)
            self._node = node
        else:
            storage = self._view.storage
            remember_write(storage, storage.node, node)
            nodes.orphan_checks(storage.node, node)
            storage.node = node
            storage.version += 1
        if node.buffer is None:
            register_live(self)

    def _restore(self, node) -> None:
        """Undo a write that failed at its sync: ``node`` is the value from before it."""
        if self._view is None:
            self._node = node
        else:
            self._view.storage.node = node
            self._view.storage.version += 1
        if node.buffer is None:
            register_live(self)

    def _write(self, region_layout, value_node, box=None) -> None:
        """Store ``value_node`` (region's shape, this dtype) into ``region_layout``; ``box``:
        the region as a box of the storage, when the caller knows it (``movement.box``)."""
        if self._view is None and layouts.is_identity(region_layout, self._node.shape):
            self._replace_storage(value_node)
            return
        storage = self._storage()
        if not layouts.is_identity(region_layout, storage.node.shape):
            self._check_writeable()
            if type(storage) is Storage and write_in_place(self, storage, region_layout, value_node):
                return          # (the same buffer, holding the new version under a new node)
            value_node = nodes.apply(VIEW_SCATTER, (storage.node, value_node),
                                     region_layout if box is None else region_layout + (box,))
        self._replace_storage(value_node)

    # -- basic attributes -----------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return self._n().shape

    @shape.setter
    def shape(self, new_shape):
        view = self.reshape(new_shape)
        if view._view is None or view._view.storage is not self._storage():
            raise AttributeError("Incompatible shape for in-place modification. "
                                 "Use `.reshape()` to make a copy with the desired shape.")
        self._view.layout = view._view.layout
        self._view.version = -1

    @property
    def dtype(self) -> np.dtype:
        return self._n().dtype

    @property
    def ndim(self) -> int:
        return len(self._n().shape)

    @property
    def size(self) -> int:
        return self._n().size

    @property
    def itemsize(self) -> int:
        return self._n().dtype.itemsize

    @property
    def nbytes(self) -> int:
        node = self._n()
        return node.size * node.dtype.itemsize

    @property
    def base(self):
        return None

    @property
    def flags(self) -> "Flags":
        return Flags(self)

    @property
    def device(self):
        return "cpu"

    # -- sync points ------------------------------------------------------------------------
    def sync(self) -> "ndarray":
        """Compute this array now (an explicit sync); returns ``self``."""
        sync_nodes([self._n()], "explicit", explicit=True)
        return self

    def _value(self, reason: str) -> np.ndarray:
        """The computed NumPy value (read-only; callers copy before handing it out)."""
        node = self._n()
        if node.buffer is None:
            sync_nodes([node], reason)
        return node.buffer

    def __array__(self, dtype=None, copy=None):
        if copy is False:
            raise ValueError("lazynum arrays cannot be exposed to NumPy without a copy")
        value = self._value("__array__")
        return np.array(value, dtype=dtype, copy=True)

    def item(self, *args):
        value = self._value("item")
        if not args and value.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return value.item(*args)

    def tolist(self):
        return self._value("tolist").tolist()

    def __bool__(self):
        value = self._value("bool")
        if value.size != 1:
            raise ValueError("The truth value of an array with more than one element is "
                             "ambiguous. Use a.any() or a.all()")
        return bool(value.item())

    def _scalar(self, reason, convert):
        if self.ndim != 0 and self.size != 1:
            raise TypeError("only length-1 arrays can be converted to Python scalars")
        if self.ndim != 0:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return convert(self._value(reason).item())

    def __int__(self):
        return self._scalar("int", int)

    def __float__(self):
        return self._scalar("float", float)

    def __index__(self):
        if self.dtype.kind not in "iub" or self.dtype == dtypes.BOOL:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        if self.ndim != 0:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self._value("index").item())

    def __complex__(self):
        return self._scalar("complex", complex)

    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of unsized object")
        return shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        value = self._value("iter")
        if value.ndim == 1:
            return iter(value)        # NumPy scalars, as NumPy's iteration yields
        return (self[i] for i in range(len(value)))

    def __repr__(self):
        return np.array_repr(self._value("print"))

    def __str__(self):
        return np.array_str(self._value("print"))

    def __format__(self, spec):
        return format(self._value("print") if self.ndim else self._value("print").item(), spec)

    def __hash__(self):
        raise TypeError("unhashable type: 'lazynum.ndarray'")

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __setstate__(self, state):
        raise TypeError("lazynum arrays are rebuilt by lazynum.asarray")


class Flags:
    """``ndarray.flags``: the memory-layout facts NumPy reports, and ``writeable``."""
    __slots__ = ("_array",)

    def __init__(self, array):
        self._array = array

    @property
    def c_contiguous(self) -> bool:
        return layouts.is_c_contiguous(self._array._layout())

    @property
    def f_contiguous(self) -> bool:
        return layouts.is_f_contiguous(self._array._layout())

    @property
    def owndata(self) -> bool:
        return self._array._view is None

    @property
    def writeable(self) -> bool:
        view = self._array._view
        return view is None or not view.readonly

    @writeable.setter
    def writeable(self, value: bool) -> None:
        view = self._array._view
        if value and view is not None and view.readonly and layouts.has_overlap(view.layout):
            raise ValueError("cannot set WRITEABLE flag to True of this array")
        if not value or view is not None:
            self._array._storage()
            self._array._view.readonly = not value

    def __getitem__(self, name: str) -> bool:
        return getattr(self, {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous",
                              "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous",
                              "OWNDATA": "owndata", "WRITEABLE": "writeable", "W": "writeable"}[name])

    def __repr__(self):
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n  F_CONTIGUOUS : {self.f_contiguous}\n"
                f"  OWNDATA : {self.owndata}\n  WRITEABLE : {self.writeable}")


class scalar_result(ndarray):
    """What ``a[i, j]`` returns: a lazy 0-d value that behaves like the NumPy scalar NumPy
    returns there.  NumPy scalars are immutable, so ``a[i] += 0.5`` computes ``a[i] + 0.5``
    and stores it back with setitem's casting; the in-place operators decline
    (NotImplemented) so Python does exactly that instead of casting in place."""
    __slots__ = ()


def _decline(self, other):
    return NotImplemented


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
              "lshift", "rshift", "matmul"):
    setattr(scalar_result, f"__i{_name}__", _decline)


def _detached_window(self, layout, readonly=False) -> "ndarray":
    """A view of a NumPy scalar is a new array (``s.reshape(1)``, ``s[...]``, ``s.T``):
    writes through it never reach the scalar."""
    return wrap(view_node(self._n(), layout))


scalar_result._window = _detached_window


def _real_part_scalar(reason, convert):
    """``int``/``float`` of a NumPy complex scalar: its real part, with NumPy's
    ComplexWarning (a 0-d complex *array* refuses, as NumPy's does)."""
    def method(self):
        if self.dtype.kind != "c":
            return self._scalar(reason, convert)
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=2)
        return convert(self._value(reason).item().real)
    return method


scalar_result.__int__ = _real_part_scalar("int", int)
scalar_result.__float__ = _real_part_scalar("float", float)


def wrap_scalar(node) -> "ndarray":
    """``wrap`` for a value NumPy returns as a scalar (see ``scalar_result``): a scalar
    read, a ufunc's 0-d result, a full reduction."""
    array = _new(scalar_result)
    array._node = node
    array._view = None
    if node.buffer is None:
        _thread.state.live.append(_weakref(array))
    return array


def operand_layout(array):
    """An elementwise operand's layout: a lazynum array's own, or a NumPy array's strides
    in elements."""
    if isinstance(array, ndarray):
        return array._layout()
    return (array.shape, tuple(s // max(array.itemsize, 1) for s in array.strides), 0)


def result_order(args, shape):
    """NumPy's 'K' memory order of an elementwise result over ``args`` (None: C order).
    Only windows and non-C-ordered NumPy operands can vote for another order, so owners
    cost one attribute check."""
    if len(shape) < 2:
        return None
    for a in args:
        kind = type(a)
        if (kind is ndarray and a._view is not None and not layouts.votes_c_order(a._view.layout)
                or kind is np.ndarray and not a.flags.c_contiguous):
            break
    else:       # every operand's strides say C order (slices of C arrays): nothing moves
        return None
    return layouts.memory_order([operand_layout(a) for a in args
                                 if isinstance(a, (ndarray, np.ndarray))], shape)
