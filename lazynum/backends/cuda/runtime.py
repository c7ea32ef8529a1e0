"""The CUDA backend's host side: a compiled plan's steps run through the device seam.

``compile(cut)`` plans the cut (``compile.plan.make_plan`` with the CUDA capability object)
and renders all of its kernels into one module per index width; the device compiles a
module once (``Program._module``: cached by the device's architecture and the width, the
device keeps its own cache by source).  ``Program.run`` at every replay:
- inputs the kernels read are copied to the device once (C-contiguous: an input's stride
  parameters are those of its device copy), 0-d inputs travel by value as NumPy scalars of
  the parameter's exact type;
- each kernel step launches its functions in their grid form (``compile.grid_shape``:
  a grid-stride map, a block per row, or split parts then one finishing block), its
  size parameters ``s0, s1, ...`` bound from the run's sizes, as ``lz_idx`` of the run's
  index width (32 bits when every size and element count allows);
- extern steps (matmul, sort, ... and every op the renderer leaves to NumPy) run on the
  host: their arguments are copied out, NumPy's reference runs, the result is copied in
  (``Program.host_steps`` names them); later stages call CuPy's own routines instead;
- results are copied to the host at the end: a sync point, the only place the runtime
  waits for the device.

A plan holding a kernel the renderer does not write yet (``codegen.UnsupportedKernel``:
scatters from a phase with inner loops) runs on the host as a whole, op by op
with NumPy (the reference backend's program), and says so (``Program.on_host``, the
``kernels`` log).
"""
from __future__ import annotations

import threading

import numpy as np

from ...compile import index_expr as ix
from ...compile.grid_shape import grid_shape, index_bits, parts_for
from ...compile.plan import ExternStep, KernelStep, make_plan
from ...control import settings, telemetry
from ...expr import fp_state
from .. import reference
from . import codegen
from .capabilities import SUPPORTS
from .device import Device

MAX_SCATTER_PARTS = 64      # (each part's thread 0 scatters its slice serially: correct, not fast)
_devices: dict = {}
_devices_lock = threading.Lock()


def current_device() -> Device:
    """The device ``LAZYNUM_CUDA_DEVICE`` names (made once per process);
    ``DeviceUnavailable`` naming what is missing (CuPy, a driver, a GPU)."""
    name = settings.get().cuda_device
    with _devices_lock:
        device = _devices.get(name)
        if device is None:
            if name == "emulator":
                from .emulator import EmulatorDevice
                device = EmulatorDevice()
            else:
                from .cupy_device import CupyDevice
                device = CupyDevice()
            _devices[name] = device
    return device


def compile(cut):  # noqa: A001 - the backend contract's name
    """The program of ``cut``: kernels on the device, or the whole cut on the host when a
    kernel is not rendered for CUDA yet (see the module docstring)."""
    current_device()            # a missing GPU or CuPy is reported at the first compile
    plan = make_plan(cut, SUPPORTS)
    program = Program(plan)
    try:
        source = program.source(64)
    except codegen.UnsupportedKernel as exc:
        why = str(exc)
        telemetry.log("kernels", f"cuda: this program runs on the host (NumPy, op by op): {why}")
        return HostProgram(reference.compile(cut), why)
    if telemetry.enabled("kernels"):
        telemetry.log("kernels", source[len(codegen.prelude()):])
    return program


class HostProgram:
    """A cut run on the host by the reference backend's program (``why``: the kernel the
    CUDA renderer does not write yet)."""
    on_host = True

    def __init__(self, program, why: str):
        self.program, self.why = program, why
        self.host_steps = [why]

    def run(self, inputs, sizes, sites=None) -> list:
        return self.program.run(inputs, sizes, sites)

    def describe(self) -> str:
        return f"host: the whole program, op by op with NumPy ({self.why})"

    def to_bytes(self) -> bytes:
        raise TypeError("CUDA programs are kept in memory only")


class Program:
    """A plan's steps on a device (see the module docstring)."""
    on_host = False

    def __init__(self, plan):
        self.plan = plan
        self.templates = {k.name: k for k in plan.kernels}
        self.shapes = {k.name: grid_shape(k) for k in plan.kernels}
        self.functions = [f for k in plan.kernels for f, _ in codegen.kernel_functions(k)]
        self.host_steps = [s.op.name for s in plan.steps if isinstance(s, ExternStep)]
        self.launches = 0           # kernel launches by this program's runs
        self._sources: dict = {}
        self._modules: dict = {}

    def source(self, bits: int) -> str:
        """The module's CUDA C at index width ``bits``."""
        if bits not in self._sources:
            self._sources[bits] = codegen.render_module(self.plan.kernels, bits)
        return self._sources[bits]

    def _module(self, device: Device, bits: int):
        key = (device.name, device.arch, bits)
        module = self._modules.get(key)
        if module is None:
            module = self._modules[key] = device.compile(self.source(bits), self.functions)
        return module

    def run(self, inputs, sizes, sites=None) -> list:
        device = current_device()
        plan = self.plan
        bits = self._index_bits(inputs, sizes)
        run = _Run(device, self._module(device, bits), bits, inputs, sizes)
        # Floating-point errors (runtime/fp_errors): extern steps are NumPy's calls, which
        # report theirs as on the llvm backend; kernels report none (a GPU has no sticky
        # flags: docs/cuda.md).
        log, lines = fp_state.active_log(), fp_state.LogLines()
        with reference.numpy_errors(log, lines):
            for index, step in enumerate(plan.steps):
                if isinstance(step, KernelStep):
                    self.launches += self._launch(run, step)
                elif isinstance(step, ExternStep):
                    self._extern(run, step, sites)
                    if lines.lines:
                        log.step(step.step, lines.take())
                else:
                    raise reference.InternalError(f"a CUDA plan holds a routine step ({step.routine})")
                for number in plan.releases.get(index, ()):
                    run.release(number)
        telemetry.counters["kernels_launched"] += len(plan.steps)
        return [run.host(n) for n in plan.outputs]

    def _index_bits(self, inputs, sizes) -> int:
        counts = list(sizes) + [getattr(x, "size", 1) for x in inputs]
        for dtype, shape in self.plan.values:
            counts.append(_count(_shape_value(shape, sizes)))
        for step in self.plan.steps:
            if isinstance(step, KernelStep):
                counts += [a[1] for a in step.params if a[0] == "c"]
        return index_bits(counts)

    def _launch(self, run, step) -> int:
        """Launch ``step``'s functions; returns how many launches ran."""
        template, shape = self.templates[step.name], self.shapes[step.name]
        params = [_parameter(atom, run) for atom in step.params]
        index_type = np.int32 if run.bits == 32 else np.int64
        for number in step.writes:
            run.allocate(number, self.plan.values[number - self.plan.n_inputs], run.sizes)
        args = [run.device_value(n) for n in step.args]
        args += [run.scalar(n) for n in step.scalars]
        args += [index_type(p) for p in params]
        cap = settings.get().cuda_max_blocks or run.device.default_max_blocks or (1 << 31) - 1
        if shape.form == "scatter":
            return self._launch_scatter(run, step, template, shape, args, params, cap)
        if shape.form == "split":
            work = _extent(template.phases[0].inner, params)
            parts = min(parts_for(work, shape), cap)
            scratch = run.device.empty((parts * template.strategy.split_slots,), np.uint64)
            run.device.launch(run.module, f"{step.name}_part", parts, shape.threads, args + [scratch])
            run.device.launch(run.module, f"{step.name}_finish", 1, shape.threads,
                              args + [scratch, np.int64(parts)])
            return 2
        extent = _extent(template.outer, params)
        if shape.form == "points":
            blocks = -(-extent // shape.threads)
        else:                               # rows: a block per row
            blocks = extent
        if blocks == 0:
            return 0
        run.device.launch(run.module, step.name, min(blocks, cap), shape.threads, args)
        return 1

    def _launch_scatter(self, run, step, template, shape, args, params, cap) -> int:
        """Parts scatter slices of the outer loops into private copies (one part when the
        copies would exceed ``scatter_copies_max`` slots), then the finishing launch
        combines each target's base with the copies in part order."""
        rows, slots = _extent(template.outer, params), _value(template.scatter_slots, params)
        parts = max(1, min(cap, -(-rows // shape.threads), MAX_SCATTER_PARTS))
        if slots > step.scatter_copies_max:
            parts = 1
        scratch = run.device.empty((max(parts * slots, 1),), np.uint64)
        run.device.launch(run.module, f"{step.name}_part", parts, shape.threads, args + [scratch])
        points = max(_extent(target.init.inner, params) for target in template.targets)
        blocks = max(1, min(-(-points // shape.threads), cap))
        run.device.launch(run.module, f"{step.name}_finish", blocks, shape.threads,
                          args + [scratch, np.int64(parts)])
        return 2

    def _extern(self, run, step, sites) -> None:
        arrays = [run.host(n) for n in step.args]
        attrs = (step.attrs.instantiate(run.sizes) if hasattr(step.attrs, "instantiate")
                 else step.attrs)
        try:
            out = step.op.reference(arrays, attrs)
        except (IndexError, ValueError, OverflowError) as exc:
            site = sites(step.step) if sites is not None else None
            exc.add_note(f"raised by lazynum op {step.op.name!r} traced at {site or '?'}")
            raise
        out = np.asarray(out)
        dtype, shape = self.plan.values[step.out - self.plan.n_inputs]
        if out.dtype != dtype or out.shape != _shape_value(shape, run.sizes):
            raise reference.InternalError(
                f"op {step.op.name} produced {out.dtype}{out.shape}, its rules said "
                f"{dtype}{_shape_value(shape, run.sizes)}")
        run.set_host(step.out, out)

    def to_bytes(self) -> bytes:
        raise TypeError("CUDA programs are kept in memory only")

    def describe(self) -> str:
        """Each step: a kernel's functions with their grid form, or an extern op run on
        the host."""
        lines = []
        for step in self.plan.steps:
            if isinstance(step, KernelStep):
                functions = codegen.kernel_functions(self.templates[step.name])
                lines.append(f"launch {', '.join(f for f, _ in functions)} "
                             f"({self.shapes[step.name].form} form)")
            else:
                lines.append(f"host: {step.op.name} (NumPy, values {step.args}) -> value {step.out}")
        return "\n".join(lines)

    @property
    def kernel_count(self) -> int:
        return sum(isinstance(s, KernelStep) for s in self.plan.steps)


class _Run:
    """One run's values: each on the host, on the device, or both (copied on demand)."""

    def __init__(self, device, module, bits, inputs, sizes):
        self.device, self.module, self.bits, self.sizes = device, module, bits, sizes
        self.inputs = inputs
        self.on_host = {i: x for i, x in enumerate(inputs)}
        self.on_device: dict = {}

    def device_value(self, number):
        buffer = self.on_device.get(number)
        if buffer is None:
            buffer = self.on_device[number] = self.device.to_device(self.on_host[number])
        return buffer

    def host(self, number) -> np.ndarray:
        array = self.on_host.get(number)
        if array is None:
            array = self.on_host[number] = self.device.to_host(self.on_device[number])
        return array

    def scalar(self, number):
        """A 0-d input as the NumPy scalar of its parameter's type (bool: a byte)."""
        value = np.asarray(self.on_host[number])
        dtype = np.dtype(np.uint8) if value.dtype.kind == "b" else value.dtype
        return value.astype(dtype).reshape(())[()]

    def allocate(self, number, value, sizes) -> None:
        dtype, shape = value
        self.on_host.pop(number, None)
        self.on_device[number] = self.device.empty(_shape_value(shape, sizes), dtype)

    def set_host(self, number, array) -> None:
        self.on_device.pop(number, None)
        self.on_host[number] = array

    def release(self, number) -> None:
        self.on_device.pop(number, None)
        self.on_host.pop(number, None)


def _parameter(atom, run) -> int:
    """The value a template parameter takes: a constant, a size, or an element stride of
    an input's C-contiguous device copy."""
    if atom[0] == "c":
        return atom[1]
    if atom[0] == "s":
        return run.sizes[atom[1]]
    shape = np.shape(run.inputs[atom[1]])
    stride = 1
    for d in shape[atom[2] + 1:]:
        stride *= d
    return stride


def _extent(loops, params) -> int:
    total = 1
    for loop in loops:
        total *= _value(loop.extent, params)
    return total


def _value(index: ix.Index, params) -> int:
    """An index expression of the template's parameters, evaluated (floor ``//`` and
    ``%``, as the prelude's ``lz_idiv``/``lz_imod``)."""
    total = 0
    for monomial, coef in index.terms:
        for atom in monomial:
            coef *= _atom_value(atom, params)
        total += coef
    return total


def _atom_value(atom, params) -> int:
    if atom[0] == "s":
        return params[atom[1]]
    a, b = _value(atom[1], params), _value(atom[2], params)
    if atom[0] == "div":
        return a // b
    if atom[0] == "mod":
        return a % b
    if atom[0] == "clamp":
        return max(min(a, b), 0)
    raise ValueError(f"index atom {atom!r} in a launch extent")


def _shape_value(shape, sizes) -> tuple:
    return tuple(d if isinstance(d, int) else sizes[d.index] for d in shape)


def _count(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


__all__ = ["HostProgram", "Program", "compile", "current_device"]
