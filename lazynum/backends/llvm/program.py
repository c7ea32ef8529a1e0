"""A compiled program: kernels (machine code) and extern calls, in order, on buffers.

``build(cut)`` schedules the cut, lowers each kernel spec to the kernel IR, generates one
LLVM module and compiles it.  The resulting ``Program`` holds no graph nodes: steps refer
to values by number (inputs first, then the buffers of materialized nodes), sizes are
read from the ``sizes`` vector at each run, and extern calls name their op, so a program
serves every later trace that hits its cache entry and survives ``to_bytes``/``load``.
"""
from __future__ import annotations

import ctypes
import re
import time

import numpy as np

from ... import settings, telemetry
from ...compile import index_expr as ix
from ...compile.kernel_ir import Buffer, format_kernel
from ...compile.lowering import lower_kernel
from ...compile.schedule import ExternSpec, schedule
from ..reference import InternalError
from ...expr.registry import KERNEL, Routine
from . import buffer_pool, codegen, compaction, jit, workers
from .capabilities import SUPPORTS

KERNEL_SIGNATURE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                    ctypes.c_int64, ctypes.c_int64)


def evaluate(index: ix.Index, sizes) -> int:
    """The value of an index made of sizes only (extents, work estimates)."""
    total = 0
    for monomial, coef in index.terms:
        for atom in monomial:
            coef *= sizes[atom[1]]
        total += coef
    return total


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


class KernelStep:
    """Launch of one kernel: ``args`` are value numbers, ``writes`` those it stores,
    ``scalars`` the 0-d inputs it reads, passed by value in one 8-byte-slot block after
    the buffer pointers (so a loop body traced many times compiles once, and a kernel
    reading hundreds of Python scalars has one pointer argument, not hundreds)."""
    __slots__ = ("name", "args", "writes", "extent", "work", "scalars", "split", "split_extent")

    def __init__(self, name, args, writes, extent, work, scalars=()):
        self.name, self.args, self.writes, self.extent, self.work = name, args, writes, extent, work
        self.scalars = list(scalars)
        self.split = 0              # scratch slots per part when its reduction splits (codegen)
        self.split_extent = None    # the extent of the loop it splits


class ExternStep:
    """A call of ``op``'s NumPy reference; ``step`` is its index in the cut's order.
    (An ``Op`` pickles as its registry name.)"""
    __slots__ = ("op", "attrs", "args", "out", "step")

    def __init__(self, op, attrs, args, out, step):
        self.op, self.attrs, self.args, self.out, self.step = op, attrs, args, out, step


class RoutineStep:
    """A call of a backend routine (``compaction``, compiled once per process and item
    size): ``args`` and ``out`` are value numbers."""
    __slots__ = ("routine", "itemsize", "args", "out", "step")

    def __init__(self, routine, itemsize, args, out, step):
        self.routine, self.itemsize, self.args, self.out, self.step = (
            routine, itemsize, args, out, step)


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
        self._donated = _donations(steps, outputs, releases, n_inputs)

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
        except (IndexError, ValueError) as exc:
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
        from .serialize import dump
        return dump(self)


def _value_numbers(cut, sched, kernels_specs):
    """Number the inputs, then every buffer the program materializes."""
    numbers = {leaf.id: i for i, leaf in enumerate(cut.leaves)}
    values = []
    for spec in sched.steps:
        nodes = [spec.node] if isinstance(spec, ExternSpec) else [
            n for n in spec.reductions + spec.maps if n.id in spec.stored]
        for node in nodes:
            numbers[node.id] = len(cut.leaves) + len(values)
            values.append((node.dtype, cut.shape(node.shape)))
    return numbers, values


def _buffers(cut, numbers) -> dict:
    outputs = {n.id for n in cut.outputs}
    order_ids = {n.id: n for n in cut.order}
    out = {}
    for leaf in cut.leaves:
        role = "param" if not leaf.shape else "input"
        out[leaf.id] = Buffer(f"in{numbers[leaf.id]}", leaf.dtype, role, cut.shape(leaf.shape))
    for node_id, number in numbers.items():
        node = order_ids.get(node_id)
        if node is not None:
            role = "output" if node_id in outputs else "temp"
            out[node_id] = Buffer(f"v{number}", node.dtype, role, cut.shape(node.shape))
    return out


def _launch_shape(kernel):
    """(first outer extent or None, total work) as size-only indexes."""
    extent = kernel.outer[0].extent if kernel.outer else None
    outer = ix.as_index(1)
    for loop in kernel.outer:
        outer = outer * loop.extent
    inner = ix.ZERO
    for phase in kernel.phases:
        n = ix.as_index(1)
        for loop in phase.inner:
            n = n * loop.extent
        inner = inner + n
    return extent, outer * inner


def build(cut) -> Program:
    """Schedule, lower, generate and compile ``cut`` into a ``Program``."""
    start = time.perf_counter()
    sched = schedule(cut, SUPPORTS)
    numbers, values = _value_numbers(cut, sched, None)
    buffers = _buffers(cut, numbers)
    order_index = {n.id: j for j, n in enumerate(cut.order)}
    steps, kernels = [], []
    for spec in sched.steps:
        if isinstance(spec, ExternSpec):
            node = spec.node
            args = [numbers[a.id] for a in node.args]
            routine = _routine(node)
            if routine is not None:
                steps.append(RoutineStep(routine, node.dtype.itemsize, args, numbers[node.id],
                                         order_index[node.id]))
                continue
            steps.append(ExternStep(node.op, cut.attrs(node), args, numbers[node.id],
                                    order_index[node.id]))
            continue
        kernel = lower_kernel(cut, buffers, spec, f"k{len(kernels)}")
        kernels.append(kernel)
        number_of = {b.name: int(b.name[2:] if b.name.startswith("in") else b.name[1:]) for b in kernel.buffers}
        args = [number_of[b.name] for b in kernel.buffers if b.role != "param"]
        writes = [number_of[b.name] for b in kernel.buffers
                  if b.role not in ("input", "param") and any(b.name == s.buffer for p in kernel.phases for s in p.stores)]
        extent, work = _launch_shape(kernel)
        scalars = [number_of[b.name] for b in kernel.buffers if b.role == "param"]
        steps.append(KernelStep(kernel.name, args, writes, extent, work, scalars))
    outputs = [numbers[n.id] for n in cut.outputs]
    scalars = [i for i, leaf in enumerate(cut.leaves) if not leaf.shape]
    layout = ParamLayout(cut.leaf_contiguous, scalars)
    releases = _releases(steps, outputs, len(cut.leaves))
    kernels = _share_identical_kernels(kernels, steps, layout)
    texts = {k.name: format_kernel(k) for k in kernels}
    obj, names = b"", [k.name for k in kernels]
    by_name = {k.name: k for k in kernels}
    for k in kernels:
        if codegen.split_reduction(k):
            names += [f"{k.name}.part", f"{k.name}.finish"]
    for step in steps:
        if isinstance(step, KernelStep) and codegen.split_reduction(by_name[step.name]):
            step.split = codegen.split_reduction(by_name[step.name])
            step.split_extent = by_name[step.name].phases[0].inner[0].extent
    if kernels:
        text = codegen.module_text(kernels, layout, jit.target_machine().triple,
                                   str(jit.target_machine().target_data))
        _, obj = jit.compile_module(text)
        if telemetry.enabled("kernels"):
            for k in kernels:
                telemetry.log("kernels", texts[k.name])
    program = Program(len(cut.leaves), list(cut.leaf_contiguous), values, steps, outputs, releases,
                      obj, names, texts, scalars)
    program.llvm_source = text if kernels else ""
    program.kernels_ir = kernels            # for inspection, like llvm_source (not stored)
    routine_calls = sum(isinstance(s, RoutineStep) for s in steps)
    telemetry.log("kernels", f"compiled {len(kernels)} kernels ({routine_calls} routine calls, "
                             f"{program.extern_count} extern calls) in "
                             f"{(time.perf_counter() - start) * 1e3:.1f} ms")
    return program


def _routine(node):
    """The backend routine computing ``node`` here, or None (then its reference runs)."""
    lowering = node.op.lowerings.get(KERNEL)
    if isinstance(lowering, Routine) and lowering.name == "compact" and compaction.supports(node.dtype):
        return lowering.name
    return None


def _canonical_text(kernel, layout) -> str:
    """The kernel's code with its buffers named by argument position: equal texts compute
    the same function of their arguments (a loop body traced 50 times compiles once)."""
    text = format_kernel(kernel)
    renames = {}
    pointer = scalar = 0
    for buf in kernel.buffers:
        if buf.role == "param":
            renames[buf.name] = f"scalar{scalar}"
            scalar += 1
        else:
            renames[buf.name] = f"arg{pointer}"
            pointer += 1
    lines = [re.sub(r"^\s*(output|temp)\s", "buffer ", line.split("#")[0].rstrip())
             for line in text.splitlines()[1:] if not line.lstrip().startswith("#")]
    body = "\n".join(lines)
    return re.sub(r"\b(in\d+|v\d+)\b", lambda m: renames.get(m.group(1), m.group(1)), body)


def _share_identical_kernels(kernels, steps, layout) -> list:
    """Drop kernels identical to an earlier one; their steps call the earlier function."""
    first, unique, alias = {}, [], {}
    for kernel in kernels:
        key = _canonical_text(kernel, layout)
        if key not in first:
            first[key] = kernel.name
            unique.append(kernel)
        alias[kernel.name] = first[key]
    for step in steps:
        if isinstance(step, KernelStep):
            step.name = alias[step.name]
    return unique


def _donations(steps, outputs, releases, n_inputs) -> dict:
    """Extern steps that may update their first argument in place (``reference_inplace``):
    it is an intermediate of this program (not an input, not an output), read only once
    more (here), and not passed twice.  Run time also checks no live value aliases it."""
    dead_after = {n: i for i, ns in releases.items() for n in ns}
    out = {}
    for index, step in enumerate(steps):
        if not isinstance(step, ExternStep) or step.op.reference_inplace is None or not step.args:
            continue
        first = step.args[0]
        if (first >= n_inputs and first not in outputs and dead_after.get(first) == index
                and step.args.count(first) == 1):
            out[id(step)] = (first,)
    return out


def _unshared(array, values) -> bool:
    if not (array.flags.writeable and array.flags.c_contiguous):
        return False
    return not any(v is not None and v is not array and np.may_share_memory(v, array) for v in values)


def _releases(steps, outputs, n_inputs) -> dict:
    """After which step each intermediate buffer is dead (so the pool can reuse it)."""
    last = {}
    for index, step in enumerate(steps):
        reads = step.args
        for n in reads:
            last[n] = index
        writes = step.writes if isinstance(step, KernelStep) else [step.out]
        for n in writes:
            last.setdefault(n, index)
    keep = set(outputs)
    out: dict = {}
    for n, index in last.items():
        if n >= n_inputs and n not in keep:
            out.setdefault(index, []).append(n)
    return out
