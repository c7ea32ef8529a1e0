"""From a cut to a plan: every decision a backend needs, and nothing it must rediscover.

``make_plan(cut, supports)`` schedules the cut (fusion, ``schedule``), numbers its values
(the cut's inputs first, then every buffer the program materializes), lowers each kernel
spec to the kernel IR with buffers that carry their numbers, turns each kernel into a
template with its sizes, strides and index constants as parameters (``kernel_template``:
kernels that differ only in those share one function, in this program and in every other),
chooses each template's loop strategy (``loop_strategy``) and says after which step each
intermediate is dead; ``donations`` says which extern call may update its argument in place
(computed again when a stored program is loaded: it is keyed by the step objects).

A backend renders the plan's kernels (``backends/llvm/codegen`` writes LLVM IR) and runs its
steps; it never sees the graph.  The steps name values by number and sizes by slot, so a
plan serves every later trace that hits its cache entry, and pickles (an ``Op`` by its
registry name) for the disk cache.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import index_expr as ix
from .kernel_ir import Buffer, Kernel
from .kernel_template import templatize
from .loop_strategy import choose
from .lowering import lower_kernel
from .row_blocks import arrange as arrange_row_blocks
from .schedule import ExternSpec, schedule
from ..expr.registry import KERNEL, Routine


class KernelStep:
    """Launch of one kernel template (``name``): ``args`` are value numbers, ``writes``
    those it stores, ``scalars`` the 0-d inputs it reads (a backend passes them by value,
    so a loop body traced many times compiles once), ``params`` the program atoms its
    parameters take (``kernel_template``: sizes ``("s", k)``, input strides ``("t", i,
    j)``).  ``extent``/``work`` are in program sizes.  ``split``/``split_extent``: the
    kernel's reduction splits across threads with that many scratch slots a part, over
    that loop's extent.  ``scatter_slots``: for a kernel with scatter targets, the scratch
    slots one part's private copies take (None otherwise), ``scatter_copies_max`` the most
    slots for which the parts keep private copies (``loop_strategy``; above it one part
    runs)."""
    __slots__ = ("name", "args", "writes", "extent", "work", "scalars", "params", "split",
                 "split_extent", "scatter_slots", "scatter_copies_max")

    def __init__(self, name, args, writes, extent, work, scalars=(), params=()):
        self.name, self.args, self.writes, self.extent, self.work = name, args, writes, extent, work
        self.scalars = list(scalars)
        self.params = tuple(params)
        self.split = 0
        self.split_extent = None
        self.scatter_slots = None
        self.scatter_copies_max = 0


class ExternStep:
    """A call of ``op``'s NumPy reference; ``step`` is its index in the cut's order.
    (An ``Op`` pickles as its registry name.)"""
    __slots__ = ("op", "attrs", "args", "out", "step")

    def __init__(self, op, attrs, args, out, step):
        self.op, self.attrs, self.args, self.out, self.step = op, attrs, args, out, step


class RoutineStep:
    """A call of a backend routine (``compact``) the backend declared it has for this
    node: ``args`` and ``out`` are value numbers."""
    __slots__ = ("routine", "itemsize", "args", "out", "step")

    def __init__(self, routine, itemsize, args, out, step):
        self.routine, self.itemsize, self.args, self.out, self.step = (
            routine, itemsize, args, out, step)


@dataclass
class Plan:
    """What a backend renders and runs (see the module docstring)."""
    n_inputs: int
    contiguous: list        # per input: C-contiguity guaranteed
    scalars: list           # inputs that are 0-d (passed by value)
    values: list            # value number - n_inputs -> (dtype, shape spec) of each buffer
    steps: list             # of KernelStep / ExternStep / RoutineStep, in order
    outputs: list           # value numbers the program returns
    releases: dict          # step index -> value numbers dead after it
    kernels: list           # of Kernel templates (one each), each with its ``strategy``
    row_blocks: list = ()   # (first, last) step indexes a backend may run by blocks of rows


def evaluate(index: ix.Index, sizes) -> int:
    """The value of an index made of sizes only (extents, work estimates)."""
    total = 0
    for monomial, coef in index.terms:
        for atom in monomial:
            coef *= sizes[atom[1]]
        total += coef
    return total


def make_plan(cut, supports) -> Plan:
    """Schedule, number, lower and decide ``cut`` (see the module docstring).  ``supports``
    is the backend's capability object (``node``, ``reduction``, ``why_not``, ``routine``)."""
    sched = schedule(cut, supports)
    numbers, values = _value_numbers(cut, sched)
    buffers = _buffers(cut, numbers)
    order_index = {n.id: j for j, n in enumerate(cut.order)}
    steps, kernels, lowered = [], {}, {}
    for spec in sched.steps:
        if isinstance(spec, ExternSpec):
            steps.append(_call_step(cut, spec.node, numbers, order_index, supports))
            continue
        kernel = lower_kernel(cut, buffers, spec, f"k{len(steps)}")
        lowered[len(steps)] = kernel
        step = _kernel_step(kernel)
        template, step.params = templatize(kernel)
        step.name = template.name
        if template.name not in kernels:        # a loop body traced 50 times: one template
            kernels[template.name] = template
        steps.append(step)
    outputs = [numbers[n.id] for n in cut.outputs]
    n_inputs = len(cut.leaves)
    row_blocks = arrange_row_blocks(steps, lowered, _shape_lookup(cut, values, n_inputs))
    releases = _releases(steps, outputs, n_inputs)
    kernels = list(kernels.values())
    _choose_strategies(kernels, steps)
    scalars = [i for i, leaf in enumerate(cut.leaves) if not leaf.shape]
    return Plan(n_inputs, list(cut.leaf_contiguous), scalars, values, steps, outputs, releases,
                kernels, row_blocks)


def _shape_lookup(cut, values, n_inputs):
    """``number -> shape spec`` (ints and ``SizeSlot``s) of the cut's inputs and buffers."""
    def shape_of(number):
        if number < n_inputs:
            return tuple(cut.shape(cut.leaves[number].shape))
        return tuple(values[number - n_inputs][1])
    return shape_of


def _value_numbers(cut, sched):
    """Number the inputs, then every buffer the program materializes."""
    numbers = {leaf.id: i for i, leaf in enumerate(cut.leaves)}
    values = []
    for spec in sched.steps:
        nodes = [spec.node] if isinstance(spec, ExternSpec) else [
            n for n in spec.reductions + spec.maps + spec.scatters if n.id in spec.stored]
        for node in nodes:
            numbers[node.id] = len(cut.leaves) + len(values)
            values.append((node.dtype, cut.shape(node.shape)))
    return numbers, values


def _buffers(cut, numbers) -> dict:
    outputs = {n.id for n in cut.outputs}
    order_ids = {n.id: n for n in cut.order}
    out = {}
    for leaf in cut.leaves:
        # (a 0-d input travels by value in an 8-byte slot; a complex one, two parts, by pointer)
        role = "param" if not leaf.shape and leaf.dtype.kind != "c" else "input"
        number = numbers[leaf.id]
        out[leaf.id] = Buffer(f"in{number}", leaf.dtype, role, cut.shape(leaf.shape), number)
    for node_id, number in numbers.items():
        node = order_ids.get(node_id)
        if node is not None:
            role = "output" if node_id in outputs else "temp"
            out[node_id] = Buffer(f"v{number}", node.dtype, role, cut.shape(node.shape), number)
    return out


def _call_step(cut, node, numbers, order_index, supports):
    """A routine call when the backend has one for ``node``, else its NumPy reference."""
    args = [numbers[a.id] for a in node.args]
    lowering = node.op.lowerings.get(KERNEL)
    if isinstance(lowering, Routine) and supports.routine(lowering.name, node.dtype):
        return RoutineStep(lowering.name, node.dtype.itemsize, args, numbers[node.id],
                           order_index[node.id])
    return ExternStep(node.op, cut.attrs(node), args, numbers[node.id], order_index[node.id])


def _kernel_step(kernel: Kernel) -> KernelStep:
    stored = {s.buffer for p in kernel.phases for s in p.stores}
    stored.update(target.buffer for target in kernel.targets)
    args = [b.number for b in kernel.buffers if b.role != "param"]
    writes = [b.number for b in kernel.buffers
              if b.role not in ("input", "param") and b.name in stored]
    scalars = [b.number for b in kernel.buffers if b.role == "param"]
    extent, work = _launch_shape(kernel)
    step = KernelStep(kernel.name, args, writes, extent, work, scalars)
    if not kernel.outer and kernel.phases and kernel.phases[0].inner:
        step.split_extent = kernel.phases[0].inner[0].extent    # used if the strategy splits
    if kernel.targets:
        step.scatter_slots = kernel.scatter_slots
    return step


def _launch_shape(kernel):
    """(first outer extent or None, total work) as size-only indexes."""
    extent = kernel.outer[0].extent if kernel.outer else None
    outer = ix.as_index(1)
    for loop in kernel.outer:
        outer = outer * loop.extent
    inner = ix.ZERO
    for phase in kernel.phases:
        inner = inner + _phase_work(phase)
    return extent, outer * inner


def _phase_work(phase) -> ix.Index:
    """Points a phase visits, its nested reductions' points counted at each of them."""
    per_point = ix.as_index(1)
    for nested in phase.nested:
        per_point = per_point + _phase_work(nested)
    n = ix.as_index(1)
    for loop in phase.inner:
        n = n * loop.extent
    return n * per_point


def _choose_strategies(kernels, steps) -> None:
    by_name = {}
    for kernel in kernels:
        kernel.strategy = choose(kernel)
        by_name[kernel.name] = kernel
    for step in steps:
        if isinstance(step, KernelStep):
            step.split = by_name[step.name].strategy.split_slots
            step.scatter_copies_max = by_name[step.name].strategy.scatter_copies_max


def _releases(steps, outputs, n_inputs) -> dict:
    """After which step each intermediate buffer is dead (so a pool can reuse it)."""
    last = {}
    for index, step in enumerate(steps):
        for n in step.args:
            last[n] = index
        for n in (step.writes if isinstance(step, KernelStep) else [step.out]):
            last.setdefault(n, index)
    keep = set(outputs)
    out: dict = {}
    for n, index in last.items():
        if n >= n_inputs and n not in keep:
            out.setdefault(index, []).append(n)
    return out


def donations(steps, outputs, releases, n_inputs) -> dict:
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
