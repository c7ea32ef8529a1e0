"""A compiled program: kernels (machine code), routine and extern calls, in order, on buffers.

``build(cut)`` asks the compile layer for a plan (``compile.plan.make_plan``: schedule, value
numbers, kernel IR, loop strategies), renders its kernels as one LLVM module (``codegen``)
and compiles it (``jit``).  The resulting ``Program`` holds no graph nodes: steps refer to
values by number (inputs first, then the buffers of materialized nodes), sizes are read
from the ``sizes`` vector at each run, and extern calls name their op, so a program serves
every later trace that hits its cache entry and survives ``to_bytes``/``load``.
"""
from __future__ import annotations

import ctypes
import time

import numpy as np

from ...control import settings, telemetry
from ...compile.kernel_ir import format_kernel
from ...compile.plan import ExternStep, KernelStep, RoutineStep, donations, evaluate, make_plan
from ..reference import InternalError
from . import buffer_pool, codegen, compaction, jit, serialize, workers
from .capabilities import SUPPORTS

KERNEL_SIGNATURE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                    ctypes.c_int64, ctypes.c_int64)


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
        params = np.zeros(self.size, dtype=np.int64)
        for i, base in self.strides.items():
            a = values[i]
            if a.ndim > self.MAX_RANK or any(s % a.itemsize for s in a.strides):
                a = values[i] = np.ascontiguousarray(a)
            params[base:base + a.ndim] = [s // a.itemsize for s in a.strides]
        return params


class Program:
    """What ``compile`` returns (see the module docstring)."""

    def __init__(self, n_inputs, contiguous, values, steps, outputs, releases, obj, kernel_names,
                 texts=None, scalars=()):
        self.n_inputs = n_inputs
        self.contiguous = contiguous          # per input: C-contiguity guaranteed
        self.scalars = tuple(scalars)         # inputs passed by value in the params vector
        self.values = values                  # value number -> (dtype, shape spec) for buffers
        self.steps = steps
        self.outputs = outputs                # value numbers returned by run
        self.releases = releases              # step index -> value numbers dead after it
        self.obj = obj                        # object code (for to_bytes)
        self.kernel_names = kernel_names
        self.texts = texts or {}              # kernel name -> readable kernel IR
        self._machine = jit.load_object(obj, kernel_names) if obj else None
        self._fns = {name: KERNEL_SIGNATURE(self._machine.addresses[name]) for name in kernel_names}
        self._layout = ParamLayout(contiguous, self.scalars)
        # Kernels address program buffers as C-contiguous; extern results they read may
        # come back in another layout (np.concatenate follows its inputs' order).
        self._kernel_reads = {n for s in steps if isinstance(s, KernelStep) for n in s.args}
        self._donated = donations(steps, outputs, releases, n_inputs)

    @property
    def kernel_count(self) -> int:
        return sum(isinstance(s, KernelStep) for s in self.steps)

    @property
    def extern_count(self) -> int:
        return sum(isinstance(s, ExternStep) for s in self.steps)

    def run(self, inputs, sizes, sites=None) -> list:
        values = list(inputs) + [None] * (len(self.values))
        strides = self._layout.fill(values)
        size_vec = np.asarray(tuple(sizes) or (0,), dtype=np.int64)
        size_ptr, stride_ptr = size_vec.ctypes.data, strides.ctypes.data
        with np.errstate(all="ignore"):
            for index, step in enumerate(self.steps):
                if isinstance(step, KernelStep):
                    self._launch(step, values, sizes, size_ptr, stride_ptr)
                elif isinstance(step, RoutineStep):
                    self._routine(step, values, sizes)
                else:
                    self._extern(step, values, sizes, sites)
                for number in self.releases.get(index, ()):
                    values[number] = None
        telemetry.counters["kernels_launched"] += len(self.steps)
        return [values[n] for n in self.outputs]

    def _launch(self, step, values, sizes, size_ptr, stride_ptr) -> None:
        for number in step.writes:
            dtype, shape = self.values[number - self.n_inputs]
            values[number] = buffer_pool.empty(_shape_value(shape, sizes), dtype)
        addresses = [values[n].ctypes.data for n in step.args]
        block = None
        if step.scalars:
            block = np.zeros(len(step.scalars), dtype=np.int64)
            for j, n in enumerate(step.scalars):
                block[j:j + 1].view(values[n].dtype)[0] = values[n][()]
            addresses.append(block.ctypes.data)
        work = evaluate(step.work, sizes)
        if step.split and work >= workers.MIN_PARALLEL_WORK and settings.effective_threads() > 1:
            if self._launch_split(step, addresses, size_ptr, stride_ptr, evaluate(step.split_extent, sizes)):
                return
        pointers = (ctypes.c_void_p * max(len(addresses), 1))(*addresses)
        extent = evaluate(step.extent, sizes) if step.extent is not None else 1
        workers.launch(self._fns[step.name], pointers, size_ptr, stride_ptr, extent, work)

    def _launch_split(self, step, addresses, size_ptr, stride_ptr, extent) -> bool:
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
            calls.append((self._fns[f"{step.name}.part"],
                          (pointers, size_ptr, stride_ptr, bounds[t], bounds[t + 1])))
        workers.run_all(calls)
        pointers = (ctypes.c_void_p * (len(addresses) + 1))(*addresses, base)
        self._fns[f"{step.name}.finish"](pointers, size_ptr, stride_ptr, 0, parts)
        return True

    def _routine(self, step, values, sizes) -> None:
        _, shape = self.values[step.out - self.n_inputs]
        count_fn, scatter_fn = compaction.compiled(step.itemsize)
        values[step.out] = compaction.run(count_fn, scatter_fn, values[step.args[0]],
                                          values[step.args[1]], _shape_value(shape, sizes))

    def _extern(self, step, values, sizes, sites) -> None:
        op = step.op
        arrays = [values[n] for n in step.args]
        attrs = step.attrs.instantiate(sizes) if hasattr(step.attrs, "instantiate") else step.attrs
        reference = op.reference
        if step.args and step.args[0] in self._donated.get(id(step), ()) and _unshared(arrays[0], values):
            reference = op.reference_inplace       # a dead intermediate of ours: update it in place
        try:
            out = reference(arrays, attrs)
        except (IndexError, ValueError, OverflowError) as exc:
            site = sites(step.step) if sites is not None else None   # also names the failing node
            exc.add_note(f"raised by lazynum op {op.name!r} traced at {site or '?'}")
            raise
        if type(out) is not np.ndarray:
            out = np.asarray(out)
        dtype, shape = self.values[step.out - self.n_inputs]
        if out.dtype != dtype or out.shape != _shape_value(shape, sizes):
            raise InternalError(f"op {op.name} produced {out.dtype}{out.shape}, its rules said "
                                f"{dtype}{_shape_value(shape, sizes)}")
        if step.out in self._kernel_reads and not out.flags.c_contiguous:
            out = np.ascontiguousarray(out)
        values[step.out] = out

    def llvm_ir(self, optimized: bool = True) -> str:
        """The LLVM IR of this program's kernels (as generated, or after O3), for
        inspection; only programs compiled in this process keep their source."""
        source = getattr(self, "llvm_source", "")
        if not optimized or not source:
            return source
        return str(jit.optimize(source))

    def describe(self) -> str:
        """Every step, kernels as readable kernel IR."""
        lines = []
        for step in self.steps:
            if isinstance(step, KernelStep):
                lines.append(self.texts.get(step.name, f"kernel {step.name}"))
            elif isinstance(step, RoutineStep):
                lines.append(f"routine {step.routine}(values {step.args}) -> value {step.out} "
                             f"(items of {step.itemsize} bytes)")
            else:
                lines.append(f"extern call {step.op.name}(values {step.args}) -> value {step.out}")
        return "\n".join(lines)

    def to_bytes(self) -> bytes:
        return serialize.dump(self)


class Prepared:
    """A planned and rendered program waiting for LLVM (``prepare``; ``finish`` compiles it):
    everything here is plain data, so ``finish`` may run on another thread while the graph
    it came from is computed and released."""

    def __init__(self, plan, texts, names, text):
        self.plan, self.texts, self.names, self.text = plan, texts, names, text
        self.seconds = 0.0          # time spent preparing


def prepare(cut) -> Prepared:
    """Plan ``cut`` and render its kernels as one LLVM module (no LLVM work yet)."""
    start = time.perf_counter()
    plan = make_plan(cut, SUPPORTS)
    kernels = plan.kernels
    texts = {k.name: format_kernel(k) for k in kernels}
    names = [k.name for k in kernels]
    names += [f"{k.name}.{part}" for k in kernels if k.strategy.split_slots for part in ("part", "finish")]
    text = ""
    if kernels:
        layout = ParamLayout(plan.contiguous, plan.scalars)
        machine = jit.target_machine()
        text = codegen.module_text(kernels, layout, machine.triple, str(machine.target_data))
    prepared = Prepared(plan, texts, names, text)
    prepared.seconds = time.perf_counter() - start
    return prepared


def finish(prepared: Prepared) -> Program:
    """Compile a prepared program's LLVM module and load it (thread-safe: ``jit`` serializes
    LLVM)."""
    start = time.perf_counter()
    plan, kernels = prepared.plan, prepared.plan.kernels
    obj = b""
    if kernels:
        _, obj = jit.compile_module(prepared.text)
        if telemetry.enabled("kernels"):
            for k in kernels:
                telemetry.log("kernels", prepared.texts[k.name])
    program = Program(plan.n_inputs, plan.contiguous, plan.values, plan.steps, plan.outputs,
                      plan.releases, obj, prepared.names, prepared.texts, plan.scalars)
    program.llvm_source = prepared.text
    program.kernels_ir = kernels            # for inspection, like llvm_source (not stored)
    routine_calls = sum(isinstance(s, RoutineStep) for s in plan.steps)
    seconds = prepared.seconds + time.perf_counter() - start
    telemetry.log("kernels", f"compiled {len(kernels)} kernels ({routine_calls} routine calls, "
                             f"{program.extern_count} extern calls) in {seconds * 1e3:.1f} ms")
    return program


def build(cut) -> Program:
    """Plan ``cut``, render its kernels as LLVM IR and compile them into a ``Program``."""
    return finish(prepare(cut))


def _unshared(array, values) -> bool:
    if not (array.flags.writeable and array.flags.c_contiguous):
        return False
    return not any(v is not None and v is not array and np.may_share_memory(v, array) for v in values)
