"""A compiled program: kernel launches, routine and extern calls, in order, on buffers.

``build(cut)`` asks the compile layer for a plan (``compile.plan.make_plan``: schedule, value
numbers, kernel templates, loop strategies) and gets each template's machine code from
``kernel_cache``, which renders (``codegen``) and compiles (``jit``) only the templates no
program has compiled before: a program miss costs planning, LLVM only for new kernels.
The resulting ``Program`` holds no graph nodes: steps refer to values by number (inputs
first, then the buffers of materialized nodes), each launch gathers its template's
parameters (sizes, strides, lifted constants) from the run's sizes vector, and extern calls
name their op, so a program serves every later trace that hits its cache entry and
survives ``to_bytes``/``load``.
"""
from __future__ import annotations

import contextlib
import ctypes
import time

import numpy as np

from ...control import settings, telemetry
from ...compile.index_expr import format_atom
from ...compile.kernel_ir import format_kernel
from ...compile.plan import ExternStep, KernelStep, RoutineStep, donations, evaluate, make_plan
from ...expr import fp_state
from ..reference import InternalError, numpy_errors
from .. import buffer_pool
from . import compaction, fp_flags, jit, kernel_cache, row_blocked, serialize, workers
from .capabilities import SUPPORTS


_NO_STRIDES = np.zeros(1, dtype=np.int64)     # (read by no kernel: no strided input)
_NO_STATE = contextlib.nullcontext()


def _shape_value(shape, sizes) -> tuple:
    return tuple(d if isinstance(d, int) else sizes[d.index] for d in shape)


class ParamLayout:
    """The int64 ``params`` vector kernels receive: the element strides of non-contiguous
    inputs, ``MAX_RANK`` slots each.  (Scalar inputs travel by value in a per-launch block,
    see ``KernelStep.scalars``.)"""
    MAX_RANK = 8

    def __init__(self, contiguous, scalars):
        self.strides, position = {}, 0
        for i, c in enumerate(contiguous):
            if not c and i not in scalars:
                self.strides[i] = position
                position += self.MAX_RANK
        self.size = max(position, 1)

    def stride_position(self, i: int, j: int) -> int:
        return self.strides[i] + j

    def fill(self, values) -> np.ndarray:
        if not self.strides:
            return _NO_STRIDES
        params = [0] * self.size
        for i, base in self.strides.items():
            a = values[i]
            row = _element_strides.get((a.strides, a.itemsize))
            if row is None:
                if a.ndim > self.MAX_RANK or any(s % a.itemsize for s in a.strides):
                    a = values[i] = np.ascontiguousarray(a)
                row = _element_strides_of(a.strides, a.itemsize)
            params[base:base + len(row)] = row
        return np.array(params, dtype=np.int64)


# (byte strides, itemsize) -> element strides: a loop body's views repeat a few layouts.
_element_strides: dict = {}


def _element_strides_of(strides, itemsize) -> list:
    if len(_element_strides) > 4096:
        _element_strides.clear()
    row = _element_strides[(strides, itemsize)] = [s // itemsize for s in strides]
    return row


class Program:
    """What ``compile`` returns (see the module docstring)."""

    def __init__(self, n_inputs, contiguous, values, steps, outputs, releases, codes,
                 texts=None, scalars=(), row_blocks=()):
        self.n_inputs = n_inputs
        self.contiguous = contiguous          # per input: C-contiguity guaranteed
        self.scalars = tuple(scalars)         # inputs passed by value in the params vector
        self.values = values                  # value number -> (dtype, shape spec) for buffers
        self.steps = steps
        self.outputs = outputs                # value numbers returned by run
        self.releases = releases              # step index -> value numbers dead after it
        self.codes = codes                    # template name -> kernel_cache.KernelCode
        self.row_blocks = tuple(tuple(g) for g in row_blocks)   # compile.row_blocks groups
        self._row_group_at = dict(self.row_blocks)
        self.texts = texts or {}              # template name -> readable kernel IR
        self._fns = {fn: f for code in codes.values() for fn, f in code.functions.items()}
        self._layout = ParamLayout(contiguous, self.scalars)
        self._constants, self._gather, self._param_offsets = _parameter_gather(steps, self._layout)
        # Kernels address program buffers as C-contiguous; extern results they read may
        # come back in another layout (np.concatenate follows its inputs' order).
        self._kernel_reads = {n for s in steps if isinstance(s, KernelStep) for n in s.args}
        self._kernel_inputs = sorted(n for n in self._kernel_reads if n < n_inputs)
        self._donated = donations(steps, outputs, releases, n_inputs)
        self._has_externs = any(isinstance(s, ExternStep) for s in steps)
        # Per kernel step, what its launch needs, looked up once here (the launch loop is
        # the hot path of a replayed loop body: microseconds a kernel).
        self._launches = {index: (self._fns.get(s.name), tuple(s.args), tuple(
            (n, *self.values[n - n_inputs]) for n in s.writes), ctypes.c_void_p * (
            len(s.args) + bool(s.scalars)) if s.args or s.scalars else ctypes.c_void_p * 1)
            for index, s in enumerate(steps) if isinstance(s, KernelStep)}

    @property
    def kernel_count(self) -> int:
        return sum(isinstance(s, KernelStep) for s in self.steps)

    @property
    def extern_count(self) -> int:
        return sum(isinstance(s, ExternStep) for s in self.steps)

    def run(self, inputs, sizes, sites=None) -> list:
        values = list(inputs) + [None] * (len(self.values))
        strides = self._layout.fill(values)
        # Every launch's parameters at once: program strides and sizes gathered into one
        # vector, each kernel step reading its own stretch of it.
        params = np.concatenate((self._constants, strides,
                                 np.asarray(tuple(sizes), dtype=np.int64)))[self._gather]
        base = params.ctypes.data
        # Each buffer's address, taken once (``ndarray.ctypes`` costs a microsecond a call).
        addresses = [0] * len(values)
        for n in self._kernel_inputs:
            addresses[n] = values[n].ctypes.data
        threads = settings.effective_threads()
        live_externs = set()        # extern results alive: with the inputs, all that may alias
        input_owners = ({id(_owner(v)) for v in inputs if getattr(v, "ndim", 0)}
                        if self._donated else ())
        # Floating-point errors (runtime/fp_errors): extern calls are NumPy's, which name
        # theirs; kernels raise the CPU's sticky flags, read once at the end, before each
        # extern call (NumPy clears them) and per worker slice (fp_flags).
        log = fp_state.active_log() if fp_flags.SUPPORTED else None
        lines, found = fp_state.LogLines(), None
        if log is not None:
            found = []
            fp_flags.clear()
        with numpy_errors(log, lines) if self._has_externs else _NO_STATE:
            blocked_until = -1
            for index, step in enumerate(self.steps):
                last = self._row_group_at.get(index)
                if last is not None and row_blocked.run_group(
                        self, index, last, values, addresses, sizes, base, threads,
                        row_blocked.FloatingPointState(found, log, lines)):
                    blocked_until = last
                if index <= blocked_until:      # computed by its row-blocked group
                    if isinstance(step, ExternStep):
                        live_externs.add(step.out)
                        if step.out in self._kernel_reads:
                            addresses[step.out] = values[step.out].ctypes.data
                elif isinstance(step, KernelStep):
                    self._launch(step, self._launches[index], values, addresses, sizes,
                                 base + self._param_offsets[index], threads, found)
                else:
                    if isinstance(step, RoutineStep):
                        self._routine(step, values, sizes)
                    else:
                        if found is not None:
                            found.append(fp_flags.take())
                        self._extern(step, values, sizes, sites, live_externs, input_owners)
                        live_externs.add(step.out)
                        if found is not None:
                            fp_flags.take()         # the extern's own: named in `lines`
                            if lines.lines:
                                log.step(step.step, lines.take())
                    if step.out in self._kernel_reads:
                        addresses[step.out] = values[step.out].ctypes.data
                for number in self.releases.get(index, ()):
                    values[number] = None
                    live_externs.discard(number)
        if found is not None:
            found.append(fp_flags.take())
            log.hardware(_or(found))
        telemetry.counters["kernels_launched"] += len(self.steps)
        return [values[n] for n in self.outputs]

    def _launch(self, step, launch, values, addresses, sizes, param_ptr, threads,
                found=None) -> None:
        fn, args, writes, pointer_array = launch
        for number, dtype, shape in writes:
            out = values[number] = buffer_pool.empty(_shape_value(shape, sizes), dtype)
            addresses[number] = out.ctypes.data
        pointers = pointer_array(*[addresses[n] for n in args])
        if step.scalars:
            block = np.zeros(len(step.scalars), dtype=np.int64)
            for j, n in enumerate(step.scalars):
                block[j:j + 1].view(values[n].dtype)[0] = values[n][()]
            pointers[len(args)] = block.ctypes.data
        if step.scatter_slots is not None:
            self._launch_scatter(step, pointers[:], param_ptr, sizes, threads)
            return
        work = evaluate(step.work, sizes)
        parallel = work >= workers.MIN_PARALLEL_WORK and threads > 1
        if parallel and found is not None:
            found.append(fp_flags.take())   # this thread's so far: each slice starts clean
        if step.split and parallel:
            if self._launch_split(step, pointers[:], param_ptr, evaluate(step.split_extent, sizes),
                                  found):
                return
        extent = evaluate(step.extent, sizes) if step.extent is not None else 1
        if not parallel:
            fn(pointers, param_ptr, param_ptr, 0, extent)   # (workers.launch's small case, inline)
        else:
            workers.launch(fn if found is None else fp_flags.Flagged(fn, found),
                           pointers, param_ptr, param_ptr, extent, work)

    def _launch_split(self, step, addresses, param_ptr, extent, found=None) -> bool:
        """A full reduction on every thread: each part reduces a slice of the split loop
        into its own scratch slots, then ``finish`` combines them in order."""
        parts = min(settings.effective_threads(), extent)
        if parts <= 1:
            return False
        scratch = np.empty(parts * step.split, dtype=np.int64)
        base = scratch.ctypes.data
        bounds = [extent * t // parts for t in range(parts + 1)]
        calls = []
        for t in range(parts):
            pointers = (ctypes.c_void_p * (len(addresses) + 1))(*addresses, base + 8 * t * step.split)
            part = self._fns[f"{step.name}.part"]
            calls.append((part if found is None else fp_flags.Flagged(part, found),
                          (pointers, param_ptr, param_ptr, bounds[t], bounds[t + 1])))
        workers.run_all(calls)
        pointers = (ctypes.c_void_p * (len(addresses) + 1))(*addresses, base)
        self._fns[f"{step.name}.finish"](pointers, param_ptr, param_ptr, 0, parts)
        return True

    def _launch_scatter(self, step, addresses, param_ptr, sizes, threads) -> None:
        """A kernel with scatter targets (``compile.loop_strategy``: private copies): its
        parts scatter slices of the outer loop into copies of their own, then ``finish``
        combines the base and the copies in part order."""
        slots = evaluate(step.scatter_slots, sizes)
        extent = evaluate(step.extent, sizes) if step.extent is not None else 1
        parts = max(1, min(threads, extent))
        if evaluate(step.work, sizes) < workers.MIN_PARALLEL_WORK or slots > step.scatter_copies_max:
            parts = 1
        scratch = np.empty(max(parts * slots, 1), dtype=np.int64)
        base = scratch.ctypes.data
        bounds = [extent * t // parts for t in range(parts + 1)]
        part = self._fns[f"{step.name}.part"]
        calls = [(part, ((ctypes.c_void_p * (len(addresses) + 1))(*addresses, base + 8 * t * slots),
                         param_ptr, param_ptr, bounds[t], bounds[t + 1])) for t in range(parts)]
        if parts == 1:
            part(*calls[0][1])
        else:
            workers.run_all(calls)
        pointers = (ctypes.c_void_p * (len(addresses) + 1))(*addresses, base)
        self._fns[f"{step.name}.finish"](pointers, param_ptr, param_ptr, 0, parts)

    def _routine(self, step, values, sizes) -> None:
        _, shape = self.values[step.out - self.n_inputs]
        count_fn, scatter_fn = compaction.compiled(step.itemsize)
        values[step.out] = compaction.run(count_fn, scatter_fn, values[step.args[0]],
                                          values[step.args[1]], _shape_value(shape, sizes))

    def _extern(self, step, values, sizes, sites, live_externs, input_owners) -> None:
        op = step.op
        arrays = [values[n] for n in step.args]
        attrs = step.attrs.instantiate(sizes) if hasattr(step.attrs, "instantiate") else step.attrs
        reference = op.reference
        if (step.args and step.args[0] in self._donated.get(id(step), ())
                and id(_owner(arrays[0])) not in input_owners
                and _unshared(arrays[0], [values[n] for n in live_externs])):
            reference = op.reference_inplace       # a dead intermediate of ours: update it in place
        dtype, spec = self.values[step.out - self.n_inputs]
        shape = _shape_value(spec, sizes)
        writer = _WRITES_INTO.get(op.name) if reference is op.reference else None
        try:
            if writer is not None and _large(shape, dtype):
                out = writer(arrays, attrs, buffer_pool.empty(shape, dtype))
            else:
                out = reference(arrays, attrs)
        except (IndexError, ValueError, OverflowError) as exc:
            site = sites(step.step) if sites is not None else None   # also names the failing node
            exc.add_note(f"raised by lazynum op {op.name!r} traced at {site or '?'}")
            raise
        if type(out) is not np.ndarray:
            out = np.asarray(out)
        if out.dtype != dtype or out.shape != shape:
            raise InternalError(f"op {op.name} produced {out.dtype}{out.shape}, its rules said "
                                f"{dtype}{shape}")
        if step.out in self._kernel_reads and not out.flags.c_contiguous:
            out = np.ascontiguousarray(out)
        values[step.out] = out

    @property
    def kernel_names(self) -> list:
        """The templates this program launches."""
        return list(self.codes)

    @property
    def llvm_source(self) -> str:
        """The LLVM IR text of the templates compiled in this process ("" for the others)."""
        return "\n".join(code.source for code in self.codes.values() if code.source)

    def llvm_ir(self, optimized: bool = True) -> str:
        """The LLVM IR of this program's kernels (as generated, or after O3), for
        inspection; only templates compiled in this process keep their source."""
        sources = [code.source for code in self.codes.values() if code.source]
        if not optimized:
            return "\n".join(sources)
        return "\n".join(str(jit.optimize(source)) for source in sources)

    def describe(self) -> str:
        """Every step: a kernel template as readable kernel IR at its first launch, each
        launch with the program values its parameters take."""
        lines, shown = [], set()
        for step in self.steps:
            if isinstance(step, KernelStep):
                if step.name not in shown:
                    shown.add(step.name)
                    lines.append(self.texts.get(step.name, f"kernel {step.name}"))
                params = ", ".join(f"n{j}={a[1] if a[0] == 'c' else format_atom(a)}"
                                   for j, a in enumerate(step.params))
                lines.append(f"launch {step.name}({params})")
            elif isinstance(step, RoutineStep):
                lines.append(f"routine {step.routine}(values {step.args}) -> value {step.out} "
                             f"(items of {step.itemsize} bytes)")
            else:
                lines.append(f"extern call {step.op.name}(values {step.args}) -> value {step.out}")
        return "\n".join(lines)

    def to_bytes(self) -> bytes:
        return serialize.dump(self)


class Prepared:
    """A planned program waiting for LLVM (``prepare``; ``finish`` compiles the templates
    not compiled yet): plain data, so ``finish`` may run on another thread while the graph
    it came from is computed and released."""

    def __init__(self, plan, texts):
        self.plan, self.texts = plan, texts
        self.seconds = 0.0          # time spent preparing

    @property
    def missing(self) -> list:
        """The templates no program has compiled yet (what ``finish`` costs LLVM)."""
        return [k for k in self.plan.kernels if kernel_cache.lookup(k.name) is None]


def prepare(cut) -> Prepared:
    """Plan ``cut`` into steps over kernel templates (no code generation yet)."""
    start = time.perf_counter()
    plan = make_plan(cut, SUPPORTS)
    prepared = Prepared(plan, {k.name: format_kernel(k) for k in plan.kernels})
    prepared.seconds = time.perf_counter() - start
    return prepared


def finish(prepared: Prepared) -> Program:
    """Compile the templates no program has compiled yet and build the program
    (thread-safe: ``jit`` serializes LLVM, ``kernel_cache`` its table)."""
    start = time.perf_counter()
    plan, kernels = prepared.plan, prepared.plan.kernels
    logging = telemetry.enabled("kernels")
    missing = len(prepared.missing) if logging else 0      # (only the log line needs it)
    codes = kernel_cache.compiled(kernels)
    program = Program(plan.n_inputs, plan.contiguous, plan.values, plan.steps, plan.outputs,
                      plan.releases, codes, prepared.texts, plan.scalars, plan.row_blocks)
    program.kernels_ir = kernels            # for inspection (not stored)
    if logging:
        for k in kernels:
            telemetry.log("kernels", prepared.texts[k.name])
        routine_calls = sum(isinstance(s, RoutineStep) for s in plan.steps)
        seconds = prepared.seconds + time.perf_counter() - start
        telemetry.log("kernels", f"built a program of {program.kernel_count} launches of "
                                 f"{len(kernels)} kernel templates ({missing} not in memory), "
                                 f"{routine_calls} routine calls, {program.extern_count} extern "
                                 f"calls in {seconds * 1e3:.1f} ms")
    return program


def build(cut) -> Program:
    """Plan ``cut``, render its kernels as LLVM IR and compile them into a ``Program``."""
    return finish(prepare(cut))


def _parameter_gather(steps, layout):
    """Where each kernel step's parameters come from: the program's lifted constants, then
    its input strides (``layout``), then its sizes; as (the constants, indexes into that
    vector for all steps concatenated, each step's byte offset into the gathered vector)."""
    constants = sorted({atom[1] for s in steps if isinstance(s, KernelStep)
                        for atom in s.params if atom[0] == "c"})
    constant_at = {value: j for j, value in enumerate(constants)}
    strides_at, sizes_at = len(constants), len(constants) + layout.size
    gather, offsets = [], {}
    for index, step in enumerate(steps):
        if isinstance(step, KernelStep):
            offsets[index] = 8 * len(gather)
            for atom in step.params:
                if atom[0] == "c":
                    gather.append(constant_at[atom[1]])
                elif atom[0] == "s":
                    gather.append(sizes_at + atom[1])
                else:
                    gather.append(strides_at + layout.stride_position(atom[1], atom[2]))
    return (np.asarray(constants, dtype=np.int64), np.asarray(gather or [0], dtype=np.intp),
            offsets)


# Extern ops whose NumPy call can write into a given buffer: a large result then lands in
# a pooled buffer instead of fresh memory.  A fresh 8 MB product (an MLP's X @ W1 at batch
# 8192) costs about 2 ms of first-touch page faults per call, as much as the BLAS work of
# a small product (measured: (8192, 10) @ (10, 256) float32, 0.65 ms into a reused buffer,
# 2.6 ms into a fresh one, one thread).
_WRITES_INTO = {"matmul": lambda arrays, attrs, out: np.matmul(*arrays, out=out)}
# Smaller results keep NumPy's allocation: the pool saves first-touch page faults, which
# malloc's fresh mmap'ed blocks pay and its reused small blocks do not.  (An MLP forward
# over 50 batch sizes, products of up to 512 KiB, measured the same either way:
# python -m bench.cpu_time dynamic, 1.42-1.44x NumPy pooled from 64 KiB, 1.41-1.43x from
# 2 MiB.)
WRITES_INTO_BYTES = 1 << 21


def _large(shape, dtype) -> bool:
    count = 1
    for d in shape:
        count *= d
    return count * dtype.itemsize >= WRITES_INTO_BYTES


def _or(bits) -> int:
    total = 0
    for b in bits:
        total |= b
    return total


def _owner(array):
    """The array owning ``array``'s memory (NumPy points every view at its owner)."""
    return array if array.base is None else array.base


def _unshared(array, others) -> bool:
    """Whether a dead intermediate (not in an input's memory) may be updated in place:
    no other live value views it.  Kernels write fresh buffers, so only the live results of
    extern calls (a reshape may return a view) can alias it."""
    if not (array.flags.writeable and array.flags.c_contiguous):
        return False
    return not any(v is not None and v is not array and np.may_share_memory(v, array) for v in others)
