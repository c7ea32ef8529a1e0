"""Random draws inside a program: NumPy's generators as extern steps, one stream per generator.

A draw whose parameters are lazy (``rng.poisson(lam)`` with ``lam`` computed by the program)
cannot run at trace time without a sync, and how many bits it consumes depends on the
parameter values (rejection samplers), so the generator's state after it is only known when
it has run.  Such a draw is a ``random_draw`` node whose reference is NumPy's own method on
the user's generator: NumPy's algorithm, NumPy's bits.  Draws of one generator must run in
the order they were traced, so each deferred draw takes the previous pending one as an
argument (a token: its value is not read).  Which generator and which draw (its serial) are
run-time data, a small int64 leaf, not attrs: a loop that draws from one generator replays one
compiled program, and the disk cache never stores a reference to a process's generator.

``Stream`` holds a generator (NumPy's ``Generator`` or ``RandomState``) and the bookkeeping
that makes a deferred draw idempotent: the state before each draw is kept, so a step run
again (a sync retried after an error) draws the same numbers and leaves the generator where
the latest draw left it.
"""
from __future__ import annotations

import itertools
import weakref

import numpy as np

from . import derivatives as _d
from .registry import EXTERN, declare_lowering, register
from .shapes import broadcast_shapes

_streams: "weakref.WeakValueDictionary[int, Stream]" = weakref.WeakValueDictionary()
_ids = itertools.count(1)
_KEEP_STATES = 64          # states kept for re-runs: far more than one sync ever retries


class Stream:
    """One generator's draws in trace order (see the module docstring).

    Attributes
    ----------
    engine : numpy.random.Generator or numpy.random.RandomState
        The generator NumPy draws from; its state is current when ``tail`` is None or computed.
    tail : Node or None
        The last deferred draw (the next deferred draw's token).
    """

    def __init__(self, engine):
        self.engine = engine
        self.id = next(_ids)
        self.tail = None
        self._issued = 0          # serial of the last deferred draw traced
        self._done = 0            # serial of the last deferred draw run
        self._before: dict = {}   # serial -> engine state before that draw ran
        _streams[self.id] = self

    def pending(self) -> bool:
        """True while a deferred draw has not run (the engine's state is not current).

        Whether it ran, not whether its node holds a value: a draw whose array was
        dropped runs inside the program of what used it and is never realized."""
        return self._done < self._issued

    def next_serial(self) -> int:
        self._issued += 1
        return self._issued

    def state(self):
        """The engine's whole state (a legacy ``RandomState`` also caches a Gaussian)."""
        if isinstance(self.engine, np.random.RandomState):
            return self.engine.get_state(legacy=False)
        return self.engine.bit_generator.state

    def restore(self, state) -> None:
        if isinstance(self.engine, np.random.RandomState):
            self.engine.set_state(state)
        else:
            self.engine.bit_generator.state = state

    def run(self, serial: int, method: str, args: tuple, kwargs: dict):
        """Draw number ``serial``: NumPy's ``method``; a repeated serial draws the same bits."""
        draw = getattr(self.engine, method)
        if serial <= self._done:                     # run again: replay from the saved state
            state = self._before.get(serial)
            if state is None:
                raise RuntimeError(f"lazynum.random: draw {serial} of this generator ran already "
                                   "and its state was not kept")
            latest = self.state()
            self.restore(state)
            try:
                return draw(*args, **kwargs)
            finally:
                self.restore(latest)
        if serial != self._done + 1:
            raise RuntimeError(f"lazynum.random: draw {serial} ran before draw {self._done + 1}")
        self._before[serial] = self.state()
        self._before.pop(serial - _KEEP_STATES, None)
        out = draw(*args, **kwargs)               # NumPy's parameter errors leave the state as it was
        self._done = serial
        if serial == self._issued:
            _pinned.pop(self.id, None)               # nothing pending: the owner keeps it alive
        return out


# Streams with pending draws, held here: a graph node names its stream by id only.
_pinned: dict = {}


def pin(stream: Stream) -> None:
    _pinned[stream.id] = stream


def _draw_shape(args, attrs):
    method, names, static, size, n_fixed, dtype = attrs
    if size is not None:
        return size
    return broadcast_shapes(*[a.shape for a in args[n_fixed:]]) if len(args) > n_fixed else ()


def _draw(arrays, attrs):
    method, names, static, size, n_fixed, dtype = attrs
    handle = arrays[0]
    stream = _streams.get(int(handle[0]))
    if stream is None:
        raise RuntimeError("lazynum.random: the generator of a pending draw no longer exists")
    kwargs = dict(zip(names, [a[()] if a.ndim == 0 else a for a in arrays[n_fixed:]]))
    kwargs.update(static)
    if size is not None:
        kwargs["size"] = size
    out = np.asarray(stream.run(int(handle[1]), method, (), kwargs))
    return out.astype(dtype, copy=False)


RANDOM_DRAW = register(
    "random_draw", "extern", shape=_draw_shape, dtype=lambda args, attrs: attrs[5],
    reference=_draw, may_fail=True, immediate=False,   # a Stream runs deferred draws
    doc="A NumPy generator's method attrs[0] on parameters attrs[1] (arguments after the "
        "stream handle and token), static keywords attrs[2], size attrs[3].")
declare_lowering(RANDOM_DRAW, EXTERN)
RANDOM_DRAW.vjp = _d.not_written(
    "a random draw with traced parameters",
    " (draw standard variates and transform them, e.g. loc + scale * rng.standard_normal(n))")
