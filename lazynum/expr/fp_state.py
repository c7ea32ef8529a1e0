"""The floating-point error state each recorded node was traced under.

NumPy checks a ufunc's IEEE exception flags when the ufunc runs and acts on them as
``numpy.errstate`` said at that moment (warn, raise, call, log, print or ignore).  lazynum
runs the op later, at a sync, so the state in effect when the op was *recorded* must be
found again then.  Reading the state on every traced op would cost every op; instead
``lazynum.errstate``/``seterr``/``seterrcall`` log each change with the first node id it
covers (node ids only grow), and ``state_of(node_id)`` finds the state by bisection.  A
node id is never in the compile cache's key, so two programs that differ only in their
error state share one compiled program (the sync reads the states, ``runtime/fp_errors``).

The log is per thread, as NumPy's state is per context: tracing is per thread.  Coroutines
interleaving errstate blocks on one thread share the log (NumPy keeps one per task): a node
gets the state of the block most recently entered or left on its thread.
"""
from __future__ import annotations

import bisect
import contextlib
import threading

import numpy as np

from ..control import telemetry
from . import node as nodes

KINDS = ("divide", "over", "under", "invalid")
# NumPy's bits for the status it passes to a 'call' handler, and the words of its messages.
BITS = {"divide": 1, "over": 2, "under": 4, "invalid": 8}
WORDS = {"divide": "divide by zero", "over": "overflow", "under": "underflow",
         "invalid": "invalid value"}
KIND_OF_WORDS = {words: kind for kind, words in WORDS.items()}

IGNORE_ALL = ("ignore", "ignore", "ignore", "ignore", None)
MAX_ENTRIES = 4096          # changes kept per thread (a loop entering errstate each trip)


def current() -> tuple:
    """NumPy's state now: ``(divide, over, under, invalid, call)``."""
    err = np.geterr()
    return (err["divide"], err["over"], err["under"], err["invalid"], np.geterrcall())


class _Log(threading.local):
    def __init__(self):
        self.starts = []        # first node id each state covers, increasing
        self.states = []


_log = _Log()


def changed(before: tuple, after: tuple) -> None:
    """The calling thread's state went from ``before`` to ``after``: nodes recorded from
    now on were traced under ``after``."""
    log = _log
    # Equal ops recorded under different states must stay two nodes (hash-consing would
    # merge them): nothing recorded before the change is reused after it.
    nodes.clear_interned()
    start = next(telemetry.node_ids)       # an id no node has: every later node's is larger
    if not log.starts:
        log.starts.append(-1)
        log.states.append(before)
    if log.starts[-1] == start - 1 and len(log.starts) > 1:
        log.states[-1] = after      # no node was recorded under the last state: replace it
        log.starts[-1] = start
    else:
        log.starts.append(start)
        log.states.append(after)
    if len(log.starts) > MAX_ENTRIES:
        # Keep the recent half: nodes pending across thousands of errstate changes fall
        # back to the oldest state kept.
        del log.starts[1:MAX_ENTRIES // 2], log.states[1:MAX_ENTRIES // 2]


def state_of(node_id: int, default: tuple) -> tuple:
    """The state node ``node_id`` was recorded under (``default`` when this thread never
    changed it through lazynum)."""
    log = _log
    if not log.starts:
        return default
    return log.states[bisect.bisect_right(log.starts, node_id) - 1]


@contextlib.contextmanager
def suspended():
    """Record nodes with every floating-point error ignored: for computations lazynum adds
    on values NumPy never computes (the padding of a bounded array)."""
    before = current()
    with np.errstate(all="ignore"):
        changed(before, IGNORE_ALL[:4] + (before[4],))
        try:
            yield
        finally:
            changed(IGNORE_ALL[:4] + (before[4],), before)


# --- what a program run met (filled by the backends, read by runtime/fp_errors) ---------------

class RunLog:
    """The floating-point errors one program run met: ``events`` [(step, NumPy's log
    lines)] from NumPy's own calls, ``flags`` (NumPy's status bits) from compiled kernels,
    None when none ran."""
    __slots__ = ("events", "flags")

    def __init__(self):
        self.events = []
        self.flags = None

    def step(self, j: int, lines: list) -> None:
        self.events.append((j, lines))

    def hardware(self, bits: int) -> None:
        self.flags = (self.flags or 0) | bits


class LogLines:
    """NumPy's ``'log'`` target: collects the lines NumPy writes for one step."""
    __slots__ = ("lines",)

    def __init__(self):
        self.lines = []

    def write(self, line: str) -> None:
        self.lines.append(line)

    def take(self) -> list:
        lines, self.lines = self.lines, []
        return lines


class _Active(threading.local):
    log = None


_active = _Active()


def active_log():
    """The ``RunLog`` of the sync running on this thread (None outside one)."""
    return _active.log


@contextlib.contextmanager
def logging_run(log: RunLog):
    """Make ``log`` the calling thread's active run log for the block."""
    previous, _active.log = _active.log, log
    try:
        yield log
    finally:
        _active.log = previous
