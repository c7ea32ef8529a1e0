"""``Generator`` and ``RandomState`` whose draws are lazy arrays with NumPy's bits.

Each wraps NumPy's own generator (its ``engine``): the numbers *are* NumPy's, for every
seed, bit generator and method.  When to draw is the design decision:

* Parameters known at trace time (Python scalars, NumPy arrays; the common case): the
  draw runs at once, as NumPy runs it, and its result enters the graph as a leaf.  No sync:
  nothing lazy is read, and the generator's state is NumPy's after the same calls.
* A lazy parameter (``rng.poisson(lam)`` with ``lam`` computed by the program): the draw is
  a ``random_draw`` extern step inside the program (``expr.sampling``), run at the sync by
  NumPy's method on the values; draws of one generator stay in trace order.  Later draws
  from that generator are deferred too until the pending ones have run, so the stream is
  NumPy's whichever way a program mixes them.
* Shuffles, permutations and choices of a lazy array: which positions move depends only on
  the array's length, so the indices are drawn at once (NumPy draws the same numbers for an
  array of length n as for ``arange(n)``) and the gather is lazy.

Reading or replacing the state (``bit_generator``, ``get_state``, ``seed``, pickling) first
runs pending draws: a counted sync, never a stale state.
"""
from __future__ import annotations

import inspect
import operator

import numpy as np

from ..array.arraytype import ndarray, wrap_result
from ..array.conversion import computed_constant, to_node
from ..expr import node as nodes
from ..expr.sampling import RANDOM_DRAW, Stream, pin
from ..expr.shapes import broadcast_shapes, normalize_axis
from ..frontend.indexing.advanced import take
from ..runtime import sync_nodes

# Methods whose array parameters broadcast elementwise to the result (shape: ``size`` or the
# broadcast of the parameters): these can run inside a program.  The multivariate ones and
# the deprecated ``random_integers`` run at trace time (their lazy arguments are synced).
_NOT_ELEMENTWISE = frozenset({"choice", "dirichlet", "multinomial", "multivariate_normal",
                              "multivariate_hypergeometric", "random_integers", "tomaxint"})
_INTEGER_RESULTS = frozenset({"binomial", "geometric", "hypergeometric", "logseries",
                              "negative_binomial", "poisson", "zipf", "integers", "randint"})
_STATIC = frozenset({"dtype", "endpoint", "method"})
_NOT_PARAMETERS = _STATIC | {"size", "out"}


def _is_lazy(x) -> bool:
    return isinstance(x, ndarray) or hasattr(type(x), "__lazynum_array__")


def lazy_result(value):
    """A NumPy draw as lazynum returns it: arrays become lazy leaves, scalars stay scalars."""
    return computed_constant(value) if isinstance(value, np.ndarray) else value


def _concrete(value):
    """``value`` with lazy arrays computed (a counted sync): for arguments NumPy must see."""
    if _is_lazy(value):
        return np.asarray(value)
    return value


class Sampler:
    """What ``Generator`` and ``RandomState`` share: the stream and the draw paths."""

    __slots__ = ("_stream",)

    @classmethod
    def _wrapping(cls, engine):
        sampler = object.__new__(cls)
        sampler._stream = Stream(engine)
        return sampler

    @property
    def _engine(self):
        return self._stream.engine

    def _settle(self) -> None:
        """Run this generator's pending draws, so its state is current (a counted sync)."""
        stream = self._stream
        if stream.pending():
            sync_nodes([stream.tail], "random generator state")

    def _draw(self, method: str, signature, args, kwargs):
        bound = signature.bind(*args, **kwargs)
        values = bound.arguments
        params = {name: values[name] for name in signature.parameters
                  if name in values and name not in _NOT_PARAMETERS}
        out = values.get("out")
        if (out is None and method not in _NOT_ELEMENTWISE
                and (self._stream.pending() or any(_is_lazy(v) for v in params.values()))):
            deferred = self._deferred(method, values, params)
            if deferred is not None:
                return deferred
        self._settle()
        values = {k: _concrete(v) for k, v in values.items()}
        if out is not None and _is_lazy(out):
            return self._draw_into(method, values, out)
        return lazy_result(getattr(self._engine, method)(**values))

    def _draw_into(self, method, values, out):
        if not out.flags.c_contiguous:
            raise ValueError("Supplied output array is not contiguous, writable or aligned.")
        buffer = np.empty(out.shape, out.dtype)
        values = dict(values, out=buffer)
        getattr(self._engine, method)(**values)
        out[...] = buffer
        return out

    def _deferred(self, method, values, params):
        """The draw as a ``random_draw`` step (None when a parameter's size is data-dependent:
        a bounded array's true size is only known once computed)."""
        stream = self._stream
        if any(_is_lazy(v) and not isinstance(v, ndarray) for v in params.values()):
            return None
        arrays = {name: to_node(v) for name, v in params.items() if v is not None}
        size = values.get("size")
        if size is not None:
            size = (operator.index(size),) if not isinstance(size, (tuple, list)) else \
                tuple(operator.index(s) for s in size)
            shape = broadcast_shapes(size, *[n.shape for n in arrays.values()])
            if shape != size:
                raise ValueError(f"shape mismatch: objects cannot be broadcast to a single shape."
                                 f"  Mismatch is between the parameters and size {size}")
        static = tuple(sorted((k, np.dtype(v) if k == "dtype" else v) for k, v in values.items()
                              if k in _STATIC or (k in params and params[k] is None)))
        serial = stream._issued + 1
        handle = np.array([stream.id, serial], np.int64)
        handle.flags.writeable = False
        fixed = [nodes.constant(handle, shape=(2,))]
        if stream.pending():
            fixed.append(stream.tail)
        attrs = (method, tuple(arrays), static, size, len(fixed), _result_dtype(method, values))
        node = nodes.apply(RANDOM_DRAW, tuple(fixed) + tuple(arrays.values()), attrs)
        stream._issued = serial
        stream.tail = node
        pin(stream)
        return wrap_result(node)

    # -- permutations of lazy arrays: indices drawn now, the gather lazy ----------------------
    def _positions(self, method, *args, **kwargs):
        self._settle()
        return getattr(self._engine, method)(*args, **kwargs)

    def shuffle(self, x, axis=0):
        """Shuffle ``x`` in place along ``axis`` (NumPy's stream; lazy arrays stay lazy)."""
        if not _is_lazy(x):
            self._settle()
            return self._engine.shuffle(x, axis) if axis != 0 else self._engine.shuffle(x)
        if x.ndim == 0:
            return self._positions("shuffle", np.zeros(()))      # NumPy's error for 0-d
        axis = normalize_axis(axis, x.ndim)
        order = self._positions("permutation", operator.index(x.shape[axis]))
        x[...] = take(x, order, axis=axis)
        return None

    def permutation(self, x, axis=0):
        """A permuted copy of ``x`` along ``axis``, or of ``arange(x)`` for an integer."""
        if not _is_lazy(x) or x.ndim == 0:
            values = (_concrete(x),) if axis == 0 else (_concrete(x), axis)
            return lazy_result(self._positions("permutation", *values))
        axis = normalize_axis(axis, x.ndim)
        return take(x, self._positions("permutation", operator.index(x.shape[axis])), axis=axis)

    def _choice(self, a, size, replace, p, **generator_only):
        p = _concrete(p)
        if not _is_lazy(a) or a.ndim == 0:
            return lazy_result(self._positions("choice", _concrete(a), size, replace, p,
                                               **generator_only))
        axis = normalize_axis(generator_only.get("axis", 0), a.ndim)
        if not generator_only and a.ndim != 1:
            raise ValueError("a must be 1-dimensional")
        picks = self._positions("choice", operator.index(a.shape[axis]), size, replace, p,
                                **generator_only)
        return take(a, picks, axis=axis)

    def __reduce__(self):
        self._settle()
        return (type(self)._wrapping, (self._engine,))


def _result_dtype(method: str, values: dict) -> np.dtype:
    if "dtype" in values:
        return np.dtype(values["dtype"])
    return np.dtype(np.int64 if method in _INTEGER_RESULTS else np.float64)


def _install_draws(cls, sample_engine) -> None:
    """Give ``cls`` a lazy version of each of NumPy's sampling methods of ``sample_engine``."""
    for name in dir(sample_engine):
        if name.startswith("_") or name in cls.__dict__:
            continue
        method = getattr(sample_engine, name)
        if not callable(method):
            continue
        signature = inspect.signature(method)
        if "size" not in signature.parameters:
            continue
        setattr(cls, name, _draw_method(name, signature, method.__doc__))


def _draw_method(name, signature, numpy_doc):
    def draw(self, *args, **kwargs):
        return self._draw(name, signature, args, kwargs)
    draw.__name__ = draw.__qualname__ = name
    draw.__signature__ = signature
    draw.__doc__ = (f"NumPy's ``{name}`` with lazy results (its stream, its bits).\n\n"
                    + (numpy_doc or ""))
    return draw


class Generator(Sampler):
    """NumPy's ``Generator`` (same bit generators, same streams) whose draws are lazy arrays.

    Parameters
    ----------
    bit_generator : numpy.random.BitGenerator
        As for ``numpy.random.Generator``.
    """

    __slots__ = ()

    def __init__(self, bit_generator):
        self._stream = Stream(np.random.Generator(bit_generator))

    def __repr__(self):
        return f"Generator({type(self._engine.bit_generator).__name__}) at 0x{id(self):X}"

    @property
    def bit_generator(self):
        """The bit generator (pending draws run first, so its state is current)."""
        self._settle()
        return self._engine.bit_generator

    def spawn(self, n_children):
        """Child generators, as ``numpy.random.Generator.spawn``."""
        self._settle()
        return [Generator._wrapping(child) for child in self._engine.spawn(n_children)]

    def bytes(self, length):
        """Random bytes, as ``numpy.random.Generator.bytes``."""
        return self._positions("bytes", length)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """NumPy's ``Generator.choice``; a lazy ``a`` is gathered lazily."""
        return self._choice(a, size, replace, p, axis=axis, shuffle=shuffle)

    def permuted(self, x, *, axis=None, out=None):
        """NumPy's ``Generator.permuted`` (a lazy ``x`` is synced: independent shuffles of
        each slice follow NumPy's memory-order walk)."""
        self._settle()
        result = self._engine.permuted(_concrete(x), axis=axis)
        if out is None:
            return lazy_result(result)
        out[...] = result
        return out


class RandomState(Sampler):
    """NumPy's legacy ``RandomState`` (Mersenne Twister streams) whose draws are lazy arrays.

    Parameters
    ----------
    seed : None, int, array_like or BitGenerator
        As for ``numpy.random.RandomState``.
    """

    __slots__ = ()

    def __init__(self, seed=None):
        self._stream = Stream(np.random.RandomState(seed))

    def __repr__(self):
        return f"RandomState(MT19937) at 0x{id(self):X}"

    def seed(self, seed=None):
        """Reseed, as ``numpy.random.RandomState.seed`` (pending draws run first)."""
        self._settle()
        self._engine.seed(seed)

    def get_state(self, legacy=True):
        """The state, as ``numpy.random.RandomState.get_state`` (pending draws run first)."""
        self._settle()
        return self._engine.get_state(legacy=legacy)

    def set_state(self, state):
        """Replace the state, as ``numpy.random.RandomState.set_state``."""
        self._settle()
        return self._engine.set_state(state)

    def rand(self, *args):
        """Uniform [0, 1) samples of shape ``args`` (``random_sample``'s stream)."""
        return self.random_sample(args) if args else self.random_sample()

    def randn(self, *args):
        """Standard normal samples of shape ``args`` (``standard_normal``'s stream)."""
        return self.standard_normal(args) if args else self.standard_normal()

    def bytes(self, length):
        """Random bytes, as ``numpy.random.RandomState.bytes``."""
        return self._positions("bytes", length)

    def choice(self, a, size=None, replace=True, p=None):
        """NumPy's ``RandomState.choice``; a lazy 1-d ``a`` is gathered lazily."""
        return self._choice(a, size, replace, p)

    def shuffle(self, x):
        """Shuffle ``x`` in place along its first axis (NumPy's stream)."""
        return Sampler.shuffle(self, x)

    def permutation(self, x):
        """A permuted copy of ``x`` along its first axis, or of ``arange(x)``."""
        return Sampler.permutation(self, x)


_install_draws(Generator, np.random.default_rng(0))
_install_draws(RandomState, np.random.RandomState(0))


def default_rng(seed=None):
    """A ``Generator`` (PCG64), as ``numpy.random.default_rng``: the same stream for a seed.

    A lazynum ``Generator`` is returned as it is; a NumPy ``Generator`` is wrapped (both
    then draw from one state, as NumPy returns the same generator).
    """
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, np.random.Generator):
        return Generator._wrapping(seed)
    return Generator._wrapping(np.random.default_rng(seed))
