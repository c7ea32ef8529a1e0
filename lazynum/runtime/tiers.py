"""Tiered execution: never make a user wait for LLVM on a small program.

With ``LAZYNUM_COMPILE=background`` (the default), a program a compiled backend has not
seen before gets a ``TieredProgram`` unless ``compile_first`` says compiling pays at once:
it runs on the *interpreter tier* (the reference backend's NumPy calls, planned from the
same cut).  A later run (a cache hit) starts the compile from that run's trace, the second
run when planning is estimated cheap, else once the interpreted runs have cost as much as
the planning would (rent before buying).  A cut estimated cheap to plan is planned on the
sync's thread, and when every kernel template of
the plan is compiled already (by any program: a loop body traced at another trip count) the
compiled program is built at once and this run uses it; anything else (planning a large cut,
from a detached copy of its nodes, and LLVM for new templates) runs on one background thread,
and later runs use the compiled program as soon as it is ready.  A one-shot program
never compiles; a loop body compiles while the loop goes on.  A program whose interpreted
run would cost more than compiling it (big arrays, few ops) compiles first, as with
``LAZYNUM_COMPILE=eager``.  Both tiers compute NumPy's results (the interpreter tier *is*
NumPy's semantics, op by op; compiled float reductions may round differently in the last
bits).

The worker is a daemon thread.  At exit it stops taking compiles, finishes the one LLVM is
running (LLVM torn down under it would abort the process) and those still queued only when
the disk cache would keep them.  LLVM runs one call at a time (``backends/llvm/jit``), so a
sync that compiles eagerly waits for the worker's current module at most.
"""
from __future__ import annotations

import atexit
import queue
import threading
import time

from ..backends import reference
from ..control import telemetry as metrics

# The cost model (seconds), measured on the real-program suite (bench/programs): an
# interpreted run costs about a NumPy call per op plus its elements.  A compile costs
# planning on the sync's thread (scheduling with trial lowerings, templates: 50-500 us a
# node) plus LLVM for the kernel templates no program has compiled yet, on the background
# thread (20-150 ms a template; a loop body's templates serve every iteration, so the
# distinct ops of a cut bound them better than its length).
SECONDS_PER_ELEMENT = 2e-9
SECONDS_PER_CALL = 5e-6
SECONDS_PER_PLAN = 20e-3
SECONDS_PER_PLANNED_OP = 100e-6
SECONDS_PER_PLANNED_REDUCTION = 1e-3     # reductions merge by trial lowerings: the costly part
SECONDS_PER_DISTINCT_OP = 20e-3      # LLVM, per distinct (op, dtype) of the cut
CHEAP_COMPILE = 0.05         # seconds of planning: below this a sync's thread plans at once
RENT_SHARE = 2.0             # else the worker plans once interpreted runs cost this many times it

_planning_scale = [1.0]      # observed / estimated planning time, learned from plans made


def _planning_estimate(order) -> float:
    reductions = sum(1 for node in order if node.op.kind == "reduce")
    return (SECONDS_PER_PLAN + len(order) * SECONDS_PER_PLANNED_OP
            + reductions * SECONDS_PER_PLANNED_REDUCTION)


def record_planning(seconds: float, order) -> None:
    """Planning ``order`` took ``seconds``: later estimates lean on it (this machine's speed
    and the kind of program decide it as much as the model does)."""
    estimate = _planning_estimate(order)
    if seconds > 0 and estimate > 0:
        _planning_scale[0] = 0.5 * _planning_scale[0] + 0.5 * seconds / estimate


def planning_cost(order) -> float:
    """Estimated seconds to plan the cut's nodes (what a compile costs the sync's thread)."""
    return _planning_estimate(order) * _planning_scale[0]


def compile_cost(order) -> float:
    """Estimated seconds to plan the cut and compile its kernels, none compiled before."""
    distinct = len({(node.op, node.dtype) for node in order})
    return planning_cost(order) + distinct * SECONDS_PER_DISTINCT_OP


def compile_first(order) -> bool:
    """Whether one interpreted run of the cut's nodes would cost more than compiling them."""
    elements = 0
    for node in order:
        if node.op.name == "view":          # a NumPy view touches no element
            continue
        size = 1
        for d in node.shape:
            size *= int(d)
        elements += size
    interpreted = elements * SECONDS_PER_ELEMENT + len(order) * SECONDS_PER_CALL
    return interpreted > compile_cost(order)


class TieredProgram:
    """A program that runs on the interpreter tier until its compiled form is ready.

    ``run`` has the backends' contract; ``on_ready(program)`` is called on the worker
    thread once the compiled program exists (the compile cache stores it on disk then).
    """

    def __init__(self, backend, on_ready, keep_at_exit=lambda: False, planning_seconds=0.0):
        self.keep_at_exit = keep_at_exit    # whether a compile still queued at exit is wanted
        self.compiled = None
        self.failed = None              # why the compile failed (the program stays interpreted)
        self._prepared = None
        self._cut = None                # a detached cut the worker plans (``start``)
        self._shape_fn = None           # the compiled program's sizes (``_plan``)
        self._started = False
        self._backend = backend
        self._on_ready = on_ready
        self._planning_seconds = planning_seconds   # the cost model's estimate
        self._interpreted_seconds = 0.0             # spent on the interpreter tier so far

    def due(self) -> bool:
        """Whether this run should start the compile: the program's second run when planning
        it is cheap; else once its interpreted runs have cost ``RENT_SHARE`` of the planning
        (rent before buying: planning a large cut competes with the user's thread for the
        interpreter lock even on the background thread, so a program run a few times only
        must not pay for it)."""
        if self._started:
            return False
        return (self._planning_seconds <= CHEAP_COMPILE
                or self._interpreted_seconds >= RENT_SHARE * self._planning_seconds)

    def start(self, cut) -> None:
        """Compile this program from ``cut`` (a later trace's: its plan asks for derived
        sizes of its own, in its own order, so the compiled program gets its own shape
        function).  Planning estimated cheap runs here, on the sync's thread; when every
        kernel template of the plan is compiled already (a loop body traced at another trip
        count), the compiled program is built at once and this run uses it.  Otherwise the
        rest goes to the background thread: planning a large cut there (from
        ``cut.detached()``, a copy of its nodes the sync's realizations do not touch) and
        LLVM for new templates, so no run stalls on them."""
        self._started = True
        if self._planning_seconds > CHEAP_COMPILE:
            self._cut = cut.detached()
            _worker.submit(self)
            return
        self._plan(cut)
        if getattr(self._prepared, "missing", True):
            _worker.submit(self)
        else:
            self.compile_now(background=False)

    def _plan(self, cut) -> None:
        prepared = self._backend.prepare(cut)
        record_planning(getattr(prepared, "seconds", 0.0), cut.order)
        self._shape_fn = cut.finish()
        self._prepared = prepared

    def run(self, inputs, sizes, trace):
        """``sizes`` are the symbols (the compiled program computes its derived sizes with
        its own shape function); ``trace`` is the run's trace, which the interpreter tier
        runs node by node."""
        compiled = self.compiled
        if compiled is not None:
            return compiled.run(inputs, self._shape_fn(sizes), trace)
        metrics.counters["interpreted_runs"] += 1
        start = time.perf_counter()
        try:
            return reference.run_trace(trace)
        finally:
            self._interpreted_seconds += time.perf_counter() - start

    def compile_now(self, background: bool = True) -> None:
        """The rest of the compile: planning when ``start`` left it to the background, then
        LLVM (on the worker thread, or on the sync's when it needs no LLVM)."""
        try:
            if self._cut is not None:
                cut, self._cut = self._cut, None
                self._plan(cut)
            prepared, self._prepared = self._prepared, None
            if prepared is None:
                return
            program = self._backend.finish(prepared)
        except Exception as exc:        # noqa: BLE001 (a compile bug must not kill the worker)
            self.failed = exc
            metrics.log("cache", f"background compile failed, the program stays on the "
                                 f"interpreter tier: {type(exc).__name__}: {exc}")
            return
        self.compiled = program         # (its shape function was set by ``_plan``)
        metrics.counters["background_compiles"] += background
        self._on_ready(program, self._shape_fn)

    @property
    def tier(self) -> str:
        return "compiled" if self.compiled is not None else "interpreter"

    def __getattr__(self, name):
        """Inspection (``kernel_count``, ``describe``, ...) answers for the compiled program
        once it exists (the interpreter tier keeps no program of its own)."""
        if name.startswith("__") or self.__dict__.get("compiled") is None:
            raise AttributeError(name)
        return getattr(self.compiled, name)


class _Worker:
    """One daemon thread compiling submitted programs in order."""

    def __init__(self):
        self._queue = queue.SimpleQueue()
        self._idle = threading.Condition()
        self._pending = 0
        self._thread = None
        self._closing = False
        self._registered = False

    def submit(self, program: TieredProgram) -> None:
        with self._idle:
            if self._closing:
                return
            self._pending += 1
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="lazynum-compiler",
                                                daemon=True)
                self._thread.start()
                if not self._registered:
                    # Registered after llvmlite was imported, so it runs before llvmlite's own
                    # exit handler shuts LLVM down (atexit is last-in, first-out): LLVM must
                    # not be torn down under a compile (the process would abort).
                    atexit.register(self.close)
                    self._registered = True
        self._queue.put(program)

    def _loop(self) -> None:
        while True:
            program = self._queue.get()
            try:
                if not self._closing or program.keep_at_exit():
                    program.compile_now()
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()

    def close(self) -> None:
        """At exit: no new compiles; queued ones run only if the disk cache would keep them;
        wait for the one LLVM is running."""
        with self._idle:
            self._closing = True
        self.wait()

    @property
    def pending(self) -> int:
        return self._pending

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every submitted compile has finished; False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)


_worker = _Worker()


def pending_compiles() -> int:
    return _worker.pending


def wait_for_compiles(timeout: float | None = None) -> bool:
    """Wait for the background compiles started so far (benchmarks and tests use it)."""
    return _worker.wait(timeout)
