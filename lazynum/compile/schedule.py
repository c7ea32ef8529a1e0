"""The fusion scheduler: which nodes get a buffer, and which nodes share a kernel.

Decisions, in order:

1. Every node is a *view* (index math), *pointwise* (an elementwise op or iota whose
   lowering the backend can emit), a *reduction* (same, over a set of axes) or *extern*
   (called through its NumPy reference on buffers).
2. Buffers exist only for what must exist: the cut's outputs, reductions (their results
   are read at other indexes than they are computed), extern results and extern inputs.
   Everything else is recomputed inside each kernel that reads it (fused; no buffer).
3. Each materialized node roots a *group* (it and its unmaterialized producers).  Groups
   then merge into kernels: reductions over the same trailing axes of the same rows, and
   maps over those rows that read the reductions, become one kernel with one phase per
   reduction (softmax: max, sum, then the normalized store: one kernel, three passes over
   each row while it sits in cache); maps over equal shapes merge into one loop.  A merge
   is kept only if the merged kernel lowers; every refusal is recorded as a ``Refusal``
   naming both nodes (the one not fused and the kernel's root it was tried with, each with
   its user op and line) and the reason (``Schedule.refusals``, logged under
   ``LAZYNUM_LOGS=fusion``), as is why each extern node is one (``Schedule.externs``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..control import telemetry
from ..expr.combines import NOT_APPLICABLE, lookup as lookup_combine
from ..expr.indexing import ScatterLowering
from ..expr.registry import KERNEL, Routine
from . import wide_dtypes
from .kernel_ir import ARG_COMBINES, Buffer
from .lowering import NotFusable, describe, lower_kernel, reduced_axes


# Ops fused into one kernel at most (see _Scheduler._bound_kernel_size).
MAX_FUSED_OPS = 128

# A reduction nested in its consumer's loop may be recomputed at most this many times per
# value (``_Scheduler._recompute_cost``), each time along a dim it reduces itself.
NEST_RECOMPUTE_MAX = 8

# How many of the latest kernels a group may merge into besides those it reads (bounds
# the scheduler's cost on long graphs).
MERGE_WINDOW = 4
# A map kernel grows by pointwise nodes without trial lowerings up to this many graph nodes
# (then each merge is lowered to check it; planning was quadratic in a kernel's size).
FAST_MERGE_NODES = 2 * MAX_FUSED_OPS


@dataclass(frozen=True)
class Refusal:
    """A fusion not made: ``node`` (described: op, id, user line) stayed out of the kernel
    rooted at ``other`` (or, with no ``other``, out of every kernel) because of ``why``."""
    node: str
    other: str | None
    why: str

    def __str__(self) -> str:
        with_ = f" with {self.other}" if self.other else ""
        return f"not fused: {self.node}{with_}: {self.why}"


@dataclass
class KernelSpec:
    """One kernel: reductions computed as phases, then a map phase storing ``maps``."""
    outer: tuple                    # row dims (cut sizes)
    inner: tuple                    # dims of the map phase inside a row
    reductions: list = field(default_factory=list)
    maps: list = field(default_factory=list)
    stored: set = field(default_factory=set)    # node ids whose value is stored
    reduce_inner: tuple | None = None           # trailing reduced dims shared by the phases
    reduce_key: tuple | None = None             # (reduced dims, axes) every reduction shares
    members: set = field(default_factory=set)   # graph nodes lowered in the map phase
    scatters: list = field(default_factory=list)    # scatter nodes over the map phase's points


@dataclass
class ExternSpec:
    node: object


@dataclass
class Schedule:
    steps: list                     # KernelSpec / ExternSpec in execution order
    materialized: list              # nodes that need a buffer (in order)
    refusals: list = field(default_factory=list)    # of Refusal: merges not made
    externs: list = field(default_factory=list)     # (what, why) of nodes run as NumPy calls


def classify(node, supports) -> tuple:
    """(kind, why): kind is ``"view"``, ``"pointwise"``, ``"reduce"``, ``"scatter"`` (a
    scatter-combine into a target: ``kernel_ir.ScatterTarget``) or ``"extern"``; why
    says why an extern node is one (None for the others; logged under ``LAZYNUM_LOGS=fusion``)."""
    lowering = node.op.lowerings.get(KERNEL)
    if not callable(lowering):
        return "extern", (f"lowered by {lowering!r}" if isinstance(lowering, Routine)
                          else "its op declares no kernel lowering (its NumPy reference runs)")
    why = wide_dtypes.extern_reason(node, getattr(supports, "renders_wide_dtypes", frozenset()))
    if why is not None:
        return "extern", why
    if node.op.name == "view":
        return "view", None
    if isinstance(lowering, ScatterLowering):
        combine = lowering.combine_of(node)
        # (bool only where the combine is a bitwise one: add on bool is NumPy's logical or)
        kinds = "biu" if lookup_combine(combine).nan == NOT_APPLICABLE else "iuf"
        if node.dtype.kind in kinds and supports.reduction(combine, node.dtype):
            return "scatter", None
        return "extern", f"the backend has no {combine} scatter on {node.dtype}"
    if node.op.kind == "reduce":
        if lowering.combine in ARG_COMBINES and (not node.shape or node.attrs[0] != len(node.args[0].shape) - 1):
            # An arg-reduction carries a serial compare-and-select chain through its loop:
            # fast over many short rows (k-means' argmin over the clusters), slower than
            # NumPy's SIMD argmax over one long run (a full or a column arg-reduction).
            return "extern", "a full or column arg-reduction (NumPy's SIMD loop is faster)"
        if supports.reduction(lowering.combine, wide_dtypes.part_dtype(node.dtype) or node.dtype):
            return "reduce", None       # (a complex sum: one sum per part)
        return "extern", f"the backend has no {lowering.combine} reduction on {node.dtype}"
    refuses = getattr(lowering, "refuses", None)
    why = refuses(node) if refuses is not None else None
    if why is not None:
        return "extern", why
    if node.op.kind not in ("elementwise", "creation") and not hasattr(lowering, "arg_index"):
        # (an op that reads its argument at another index, a roll, fuses as a map does)
        return "extern", f"{node.op.kind} ops are not fused"
    why = supports.why_not(node)
    return ("pointwise", None) if why is None else ("extern", why)


def _size(node) -> int:
    n = 1
    for d in node.shape:
        n *= int(d)
    return n


def _row_key(node, cut):
    """(outer, inner) dims of a reduction over trailing axes; None for other axes."""
    dims = cut.shape(node.args[0].shape)
    axes = reduced_axes(node)
    k = len(axes)
    if tuple(axes) != tuple(range(len(dims) - k, len(dims))):
        return None
    return dims[:len(dims) - k], dims[len(dims) - k:]


def _reduce_key(node, cut):
    """(kept dims, (reduced dims, axes)): reductions with equal keys share a kernel's loops
    (over any axes: the per-cluster sums and counts of a k-means step are one pass)."""
    dims = cut.shape(node.args[0].shape)
    axes = reduced_axes(node)
    kept = tuple(d for a, d in enumerate(dims) if a not in axes)
    return kept, (tuple(dims[a] for a in axes), axes)


class _Scheduler:
    def __init__(self, cut, supports):
        self.cut = cut
        self.kinds, self.externs = {}, []
        self.by_id = {n.id: n for n in cut.order}
        for n in cut.order:
            self.kinds[n.id], why = classify(n, supports)
            if why is not None:
                self.externs.append((describe(n), why))
        # nodes that read their argument at another index than their own (views, rolls)
        self.remapping = {n.id for n in cut.order if self.kinds[n.id] == "view"
                          or hasattr(n.op.lowerings.get(KERNEL), "arg_index")}
        self.refusals = []
        self.pending = {n.id for n in cut.order}
        self._probes = None             # trial lowerings' buffers (``_probe_buffers``)

    def materialize(self) -> set:
        cut = self.cut
        keep = {n.id for n in cut.outputs if n.id in self.pending}
        for node in cut.outputs:
            # An output that views all of its base (a transpose from NumPy's 'K' order, a
            # reshape): compute the base in its own layout and return a NumPy view of it.
            if self.kinds.get(node.id) == "view" and _size(node) == _size(node.args[0]):
                self.kinds[node.id] = "extern"
        for node in cut.order:
            kind = self.kinds[node.id]
            if kind == "extern":
                # A view of an input handed to an extern call (X.T @ g in a matmul's
                # gradient) is a free NumPy view: copying it in a kernel would cost a pass
                # over the whole input, strided.
                # So is a view of all of a computed array (h.T @ g in an MLP's gradient):
                # the array gets a buffer, and BLAS reads it transposed.
                for a in node.args:
                    if (self.kinds.get(a.id) == "view" and a.args
                            and (a.args[0].id not in self.pending
                                 or (self.kinds[a.args[0].id] != "view"
                                     and _size(a) == _size(a.args[0])))):
                        self.kinds[a.id] = "extern"
        for node in cut.order:
            kind = self.kinds[node.id]
            if kind in ("reduce", "extern", "scatter"):
                keep.add(node.id)
            if kind == "extern":
                keep.update(a.id for a in node.args if a.id in self.pending)
        keep -= self._nested_reductions(keep)
        keep.update(self._shifted_reads())
        self._bound_kernel_size(keep)
        return keep

    def _nested_reductions(self, keep) -> set:
        """Reductions computed inside their one consumer reduction's loop, with no buffer
        (``kernel_ir.Phase.nested``): a distance matrix's sum over coordinates inside the
        ``argmin`` over centres never stores the (points, centres) matrix.  Taken when the
        consumer's loops visit each of the producer's values once (its source's shape is
        the producer's result shape); else nesting would recompute the producer at every
        point of the consumer's other loops, and a refusal says so.  A consumer with the
        producer's kept dims shares its loops as a later phase instead (softmax): not a
        candidate."""
        readers: dict = {}
        for node in self.cut.order:
            for a in node.args:
                readers.setdefault(a.id, []).append(node)
        outputs = {n.id for n in self.cut.outputs}
        nested = set()
        for node in self.cut.order:
            if (self.kinds[node.id] != "reduce" or node.id in outputs
                    or node.op.lowerings[KERNEL].combine in ARG_COMBINES):
                continue
            consumer = self._consumer(node, keep - nested, readers)
            if consumer is None:
                continue
            kept = _reduce_key(node, self.cut)[0]
            if _reduce_key(consumer, self.cut)[0] == kept:
                continue
            loops = self.cut.shape(consumer.args[0].shape)
            pays, why = self._recompute_cost(node, kept, loops)
            if pays:
                nested.add(node.id)
                telemetry.log("fusion", f"nested: {describe(node)} in the loop of "
                              f"{describe(consumer)}: {why}, no buffer")
                continue
            self.refusals.append(Refusal(describe(node), describe(consumer), why))
        return nested

    def _recompute_cost(self, node, kept, loops):
        """(whether nesting ``node`` (values ``kept``) in a loop nest over ``loops`` pays,
        why).  Loops it does not vary along recompute it at each of their points:
        paid when each such loop runs over a dim the producer itself reduces, of at most
        ``NEST_RECOMPUTE_MAX`` points in this trace (n-body: the sum over 3 coordinates
        computed once per coordinate of the force, 9 multiply-adds a pair instead of 3,
        against storing and reloading an (N, N) matrix; measured faster at N = 2000)."""
        extra = list(_without_ones(loops))
        for d in _without_ones(kept):
            if d not in extra:
                return False, f"it is read at other points than its consumer's loops {_shape_text(loops)}"
            extra.remove(d)
        reduced = _reduce_key(node, self.cut)[1][0]
        factor = 1
        for d in extra:
            factor *= self.cut.trace_value(d) if d in reduced else NEST_RECOMPUTE_MAX + 1
        if factor <= NEST_RECOMPUTE_MAX:
            return True, (f"computed at each point of its loops {_shape_text(loops)}" + (
                f", {factor} times per value (along {_shape_text(extra)}, a dim it reduces)"
                if extra else ", once per value"))
        return False, (f"nested in its loops {_shape_text(loops)}, its values {_shape_text(kept)} "
                       "would be recomputed at every point of the loops they do not vary along "
                       f"({_shape_text(extra)}, {factor} points here; at most {NEST_RECOMPUTE_MAX} "
                       "of dims it reduces pay): it gets a buffer")

    def _consumer(self, node, keep, readers):
        """The reduction whose group computes ``node`` (walking readers that have no
        buffer): one, or several over the same loops (an ``argmin`` and a ``min`` of the
        same distances: one pass, whose phase computes ``node`` once); else None."""
        roots, seen, stack = set(), set(), [node]
        while stack:
            current = stack.pop()
            for reader in readers.get(current.id, ()):
                if reader.id in seen:
                    continue
                seen.add(reader.id)
                if reader.id in keep:
                    roots.add(reader.id)
                else:
                    stack.append(reader)
        consumers = [self.by_id[i] for i in sorted(roots)]
        if not consumers or any(self.kinds[c.id] != "reduce" for c in consumers):
            return None
        loops = {_reduce_key(c, self.cut) for c in consumers}
        return consumers[0] if len(loops) == 1 else None

    def _shifted_reads(self) -> set:
        """Box writes (``view_scatter`` computed in a kernel) that a view, roll or box write
        reads at another point than their own and that something else reads too: each
        gets a buffer.  Computed inline, such a write would be computed once per point it
        is read at, compounding: a loop of stencil steps (each reading the last at i - 1,
        i, i + 1) would compute every earlier step 3**k times per element.  (Chains of
        other ops are bounded by ``_bound_kernel_size``, whose path-counted cost grows the
        same way.)"""
        readers, shifted_sources = self._shifted_sources()
        return {i for i in shifted_sources if readers[i] > 1 and i in self.pending
                and self.by_id[i].op.name == "view_scatter" and self.kinds[i] != "extern"}

    def _shifted_sources(self) -> tuple:
        """(readers per node, the nodes some remapping node reads at a shifted point), a view
        of a view counting as a read of their base."""
        readers: dict = {}
        shifted = set()
        for node in self.cut.order:
            remapped = ()
            if node.id in self.remapping:
                lowering = node.op.lowerings.get(KERNEL)
                remapped = getattr(lowering, "remapped_args", range(len(node.args)))
            for position, arg in enumerate(node.args):
                source = self._source(arg)
                readers[source.id] = readers.get(source.id, 0) + 1
                if position in remapped:
                    shifted.add(source.id)
        return readers, shifted

    def _source(self, node):
        """The node a chain of pending views reads."""
        while self.kinds.get(node.id) == "view" and node.id in self.pending:
            node = node.args[0]
        return node

    def _bound_kernel_size(self, keep) -> None:
        """Materialize every ``MAX_FUSED_OPS``-th op of long chains: LLVM's optimizer time
        grows faster than linearly with function size (a 10,000-op chain must not become
        one kernel)."""
        cost: dict = {}
        for node in self.cut.order:
            total = 1 + sum(cost.get(a.id, 0) for a in node.args if a.id not in keep)
            if total > MAX_FUSED_OPS and node.id not in keep:
                keep.add(node.id)
                producer = max((a for a in node.args if a.id not in keep),
                               key=lambda a: cost.get(a.id, 0), default=None)
                self.refusals.append(Refusal(describe(node), producer and describe(producer),
                                             f"kernel size limit ({MAX_FUSED_OPS} ops): "
                                             "the node gets a buffer"))
            cost[node.id] = total

    def deps(self, root, keep) -> set:
        """Materialized pending nodes that ``root``'s group reads."""
        out, seen, stack = set(), {root.id}, list(root.args)
        while stack:
            node = stack.pop()
            if node.id in seen or node.id not in self.pending:
                continue
            seen.add(node.id)
            if node.id in keep:
                out.add(node.id)
            else:
                stack.extend(node.args)
        return out

    def run(self) -> Schedule:
        cut = self.cut
        keep = self.materialize()
        steps, produced_at = [], {}
        for node in cut.order:
            if node.id not in keep:
                continue
            if self.kinds[node.id] == "extern":
                produced_at[node.id] = len(steps)
                steps.append(ExternSpec(node))
                continue
            deps = self.deps(node, keep)
            position = self._merge(node, deps, steps, produced_at, keep)
            if position is None:
                position = len(steps)
                steps.append(self._new_spec(node))
                steps[-1].members = self._group(node, keep)
            produced_at[node.id] = position
        self._mark_stored(steps, keep, produced_at)
        materialized = [n for n in cut.order if n.id in keep]
        for what, why in self.externs:
            telemetry.log("fusion", f"extern: {what}: {why}")
        for refusal in self.refusals:
            telemetry.log("fusion", str(refusal))
        return Schedule(steps, materialized, self.refusals, self.externs)

    def _new_spec(self, node) -> KernelSpec:
        if self.kinds[node.id] == "scatter":
            return KernelSpec(self.cut.shape(node.args[1].shape), (), scatters=[node])
        if self.kinds[node.id] == "reduce":
            key = _row_key(node, self.cut)
            outer, reduce_key = _reduce_key(node, self.cut)
            return KernelSpec(outer, (), reductions=[node], reduce_inner=key[1] if key else None,
                              reduce_key=reduce_key)
        return KernelSpec(self.cut.shape(node.shape), (), maps=[node])

    def _fits(self, spec: KernelSpec, node) -> bool:
        if self.kinds[node.id] == "scatter":
            # (over the map phase's points: a k-means step's sums and counts scatter from
            # the rows its argmin reduces, in one pass)
            return spec.outer + spec.inner == self.cut.shape(node.args[1].shape)
        if self.kinds[node.id] == "reduce":
            # (a spec with maps takes it too: reductions run before the map phase, and the
            # lowering probe refuses one that reads a map at another point)
            outer, reduce_key = _reduce_key(node, self.cut)
            return spec.reduce_key == reduce_key and spec.outer == outer
        shape = self.cut.shape(node.shape)
        if spec.maps or spec.scatters:
            return spec.outer + spec.inner == shape
        if spec.reduce_inner is not None and spec.outer + spec.reduce_inner == shape:
            return True
        return spec.outer == shape

    def _merge(self, node, deps, steps, produced_at, keep):
        """Merge ``node``'s group into an earlier kernel; its position, or None."""
        readers = sorted({produced_at[d] for d in deps}, reverse=True)
        recent = [p for p in range(len(steps) - 1, max(len(steps) - 1 - MERGE_WINDOW, -1), -1)]
        candidates = list(dict.fromkeys(readers + recent))
        group = None
        for position in candidates:
            spec = steps[position]
            if not isinstance(spec, KernelSpec) or any(produced_at[d] > position for d in deps):
                continue
            if not self._fits(spec, node):
                continue
            trial = self._with(spec, node)
            if group is None:
                group = self._group(node, keep)
            if self._surely_fusable(spec, node, group):
                trial.members = spec.members | group
                steps[position] = trial
                return position
            try:
                kernel = lower_kernel(self.cut, self._probe_buffers(keep), trial, "probe")
            except NotFusable as exc:
                self.refusals.append(Refusal(describe(node), _root(spec), str(exc)))
                continue
            if sum(len(p.body) for p in kernel.phases) > MAX_FUSED_OPS * 2:
                self.refusals.append(Refusal(describe(node), _root(spec),
                                             f"kernel size limit ({MAX_FUSED_OPS * 2} statements)"))
                continue
            trial.members = spec.members | group
            steps[position] = trial
            return position
        if deps:
            self._refuse_unfit(node, deps, steps, produced_at)
        return None

    def _surely_fusable(self, spec, node, group) -> bool:
        """Whether ``node`` joins ``spec`` without a trial lowering: a pointwise node into a
        kernel of maps only cannot fail to lower (its group holds no reduction and no
        extern: those are materialized), so only the size limit is left, and a group
        count well under it stands in for the statement count (a node read at two points
        lowers twice: the margin is for that)."""
        return (not spec.reductions and not spec.scatters and self.kinds[node.id] == "pointwise"
                and len(spec.members) + len(group - spec.members) <= FAST_MERGE_NODES
                and not (group & self.remapping and self._reads_stored(group, spec)))

    def _reads_stored(self, group, spec) -> bool:
        """Whether a node of ``group`` reads a result ``spec`` stores (a group that also
        holds a view or roll may read it at another point: the trial lowering decides)."""
        stored = {m.id for m in spec.maps}
        by_id = self.by_id
        return any(a.id in stored for n in group for a in by_id[n].args)

    def _group(self, root, keep) -> set:
        """Ids of the pending nodes lowered with ``root`` (its unmaterialized ancestors, and
        itself)."""
        seen, stack = {root.id}, list(root.args)
        while stack:
            node = stack.pop()
            if node.id in seen or node.id not in self.pending or node.id in keep:
                continue
            seen.add(node.id)
            stack.extend(node.args)
        return seen

    def _probe_buffers(self, keep) -> dict:
        """The buffers a trial lowering reads (``keep`` is fixed once scheduling starts, so
        they are built once, not at every trial)."""
        if self._probes is None:
            self._probes = _probe_buffers(self.cut, keep)
        return self._probes

    def _refuse_unfit(self, node, deps, steps, produced_at) -> None:
        """Record why ``node`` joins no kernel of what it reads: the nearest one's root and
        both iteration shapes."""
        position = max(produced_at[d] for d in deps)
        spec = steps[position]
        if isinstance(spec, ExternSpec):
            why = f"it reads the result of extern call {describe(spec.node)} (a fusion boundary)"
            self.refusals.append(Refusal(describe(node), None, why))
            return
        self.refusals.append(Refusal(describe(node), _root(spec), self._unfit_reason(spec, node)))

    def _unfit_reason(self, spec, node) -> str:
        """Why ``_fits(spec, node)`` is false, in the terms it checks."""
        loops = _shape_text(tuple(spec.outer) + tuple(spec.inner))
        if self.kinds[node.id] == "scatter":
            indices = _shape_text(self.cut.shape(node.args[1].shape))
            return f"its indices' shape {indices} is not the kernel's loops {loops}"
        if self.kinds[node.id] != "reduce":
            shape = _shape_text(self.cut.shape(node.shape))
            return f"its shape {shape} is not the kernel's loops {loops}"
        outer, (reduced, axes) = _reduce_key(node, self.cut)
        if spec.reduce_key is not None and spec.reduce_key != (reduced, axes):
            return (f"it reduces axes {axes} of extents {_shape_text(reduced)}; the kernel's "
                    f"reductions reduce axes {spec.reduce_key[1]} of extents "
                    f"{_shape_text(spec.reduce_key[0])}")
        return (f"its result has shape {_shape_text(outer)}, but the kernel's outer loops are "
                f"{_shape_text(spec.outer)} (of loops {loops})")

    def _with(self, spec, node) -> KernelSpec:
        shape = self.cut.shape(node.shape)
        if self.kinds[node.id] == "scatter":
            return KernelSpec(spec.outer, spec.inner, list(spec.reductions), list(spec.maps), set(),
                              spec.reduce_inner, spec.reduce_key, scatters=spec.scatters + [node])
        if self.kinds[node.id] == "reduce":
            return KernelSpec(spec.outer, spec.inner, spec.reductions + [node], list(spec.maps),
                              set(), spec.reduce_inner, spec.reduce_key, scatters=list(spec.scatters))
        inner = shape[len(spec.outer):]
        return KernelSpec(spec.outer, inner, list(spec.reductions), spec.maps + [node], set(),
                          spec.reduce_inner, spec.reduce_key, scatters=list(spec.scatters))

    def _mark_stored(self, steps, keep, produced_at):
        outputs = {n.id for n in self.cut.outputs}
        read_elsewhere = set()
        for position, step in enumerate(steps):
            roots = ([step.node] if isinstance(step, ExternSpec)
                     else step.reductions + step.maps + step.scatters)
            for root in roots:
                read = ({a.id for a in root.args} if isinstance(step, ExternSpec)
                        else self.deps(root, keep))
                read_elsewhere.update(d for d in read if produced_at.get(d) != position)
        for step in steps:
            if isinstance(step, KernelSpec):
                step.stored = {n.id for n in step.maps + step.scatters}
                step.stored.update(n.id for n in step.reductions
                                   if n.id in outputs or n.id in read_elsewhere)


def _root(spec) -> str:
    """The node a kernel spec is known by: its first reduction, else its first map."""
    return describe((spec.reductions or spec.maps or spec.scatters)[0])


def _without_ones(shape) -> tuple:
    return tuple(d for d in shape if d != 1)


def _shape_text(shape) -> str:
    dims = (str(d) if isinstance(d, int) else f"n{getattr(d, 'index', d)}" for d in shape)
    return "(" + ", ".join(dims) + ")"


def _probe_buffers(cut, keep) -> dict:
    out = {leaf.id: Buffer(f"in{i}", leaf.dtype, "input") for i, leaf in enumerate(cut.leaves)}
    out.update((n.id, Buffer(f"v{j}", n.dtype, "temp")) for j, n in enumerate(cut.order)
               if n.id in keep)
    return out


def schedule(cut, supports) -> Schedule:
    """Decide buffers and kernels for ``cut``; ``supports`` is the backend's capability
    object (``node(node) -> bool``, ``reduction(combine, dtype) -> bool``)."""
    return _Scheduler(cut, supports).run()
