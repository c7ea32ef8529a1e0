"""Lowering: a scheduled group of graph nodes becomes one ``Kernel`` of the kernel IR.

The walk asks "what is node n's value at multi-index idx?" and answers with scalar
statements: a materialized node (input or program buffer) is a load at its flat address,
a view maps idx to its base's index (index math, never a copy), an elementwise node maps
idx through broadcasting and calls the op's declared lowering
(``op.lowerings["kernel"]``), and a reduction computed by an earlier phase of the same
kernel is that phase's per-row result.  Values are memoized per (node, index), so shared
subexpressions are computed once per point.
"""
from __future__ import annotations

import numpy as np

from ..expr.combines import lookup as lookup_combine
from ..expr.registry import KERNEL
from . import index_expr as ix
from . import wide_dtypes
from .kernel_ir import (Buffer, Kernel, Loop, Phase, Reduction, Scatter, ScatterTarget, Stmt, Store,
                        check_scalar_op)
from .loop_collapse import collapse_loops


class NotFusable(Exception):
    """The group cannot be one kernel as scheduled (the reason is the message)."""


def c_strides(shape_idx) -> list:
    """C-order element strides of a shape given as ``Index`` extents."""
    strides, step = [], ix.as_index(1)
    for d in reversed(shape_idx):
        strides.append(step)
        step = step * d
    return strides[::-1]


def flat_index(idx, strides) -> ix.Index:
    out = ix.ZERO
    for i, s in zip(idx, strides):
        out = out + i * s
    return out


def describe(node) -> str:
    site = f" at {node.site}" if node.site else ""
    return f"{node.op.name} %{node.id}{site}"


class KernelBuilder:
    """Emits one kernel's statements; the API op lowerings call is ``op``, ``const``,
    ``loop_index`` and ``reduce``."""

    def __init__(self, cut, buffers: dict, name: str, computed=frozenset(), scattered=frozenset()):
        self.cut = cut
        self.scattered = scattered      # ids of the scatters this kernel computes
        self.buffers = buffers          # node id -> Buffer (inputs and materialized nodes)
        self.computed = computed        # ids of the nodes this kernel computes (never loaded)
        self.name = name
        self.used = {}                  # buffer name -> Buffer, in first-use order
        self.extents: dict = {}         # var number -> Index extent
        self.next_var = 0
        self.results: dict = {}         # reduce node id -> (row index, result name)
        self.map_idx = None             # the map phase's loop index (its stored results')
        self.counter = 0
        self.origin = ""
        self.sources: dict = {}
        self.stmt_dtypes: dict = {}     # statement or reduction result name -> dtype
        self.nested_results = 0         # reductions computed in nested phases (their names)
        self._new_phase()

    # -- API for op lowerings ------------------------------------------------------------
    def op(self, name: str, args, dtype):
        """Emit scalar op ``name`` (one of ``kernel_ir.SCALAR_OPS``, else ``UnknownScalarOp``)
        on statement names ``args``; returns the result's name.  Complex values are pairs
        of names and float16 computes in float32: ``wide_dtypes`` expands those."""
        return wide_dtypes.emit(self, name, tuple(args), np.dtype(dtype))

    def const(self, value, dtype):
        return wide_dtypes.const(self, value, np.dtype(dtype))

    # -- what wide_dtypes expands into: real scalar statements ---------------------------
    def scalar(self, name: str, args, dtype) -> str:
        return self._emit(check_scalar_op(name), tuple(args), np.dtype(dtype))

    def scalar_const(self, value, dtype) -> str:
        return self._emit("const", (value,), np.dtype(dtype))

    def dtype_of(self, name: str) -> np.dtype:
        return self.stmt_dtypes[name]

    def loop_index(self, axis: int) -> str:
        return self._emit("index", (self.current_idx[axis],), np.dtype(np.int64))

    def reduce_arg(self, combine: str, value: str, value_dtype, axis: int) -> str:
        """``argmax``/``argmin`` of ``value`` along ``axis`` of the reduced source."""
        if not lookup_combine(combine).arg:
            raise ValueError(f"reduce_arg takes an arg-reduction combine, not {combine!r}")
        position = self.loop_index(axis)
        result = self._result_name()
        self.phase.reductions.append(Reduction(combine, value, np.dtype(np.int64), result,
                                               origin=self.origin, index=position,
                                               value_dtype=np.dtype(value_dtype)))
        self.stmt_dtypes[result] = np.dtype(np.int64)
        return result

    def reduce(self, combine: str, value: str, dtype) -> str:
        """Combine ``value`` over this phase's loops (``combine``: an ``expr.combines`` name,
        else ``KeyError``)."""
        if lookup_combine(combine).arg:
            raise ValueError(f"arg-reduction {combine!r} goes through reduce_arg")
        result = self._result_name()
        part = wide_dtypes.part_dtype(dtype)
        if part is not None:        # a complex sum: one sum per part
            return tuple(self._reduce_part(combine, v, part, f"{result}{k}")
                         for v, k in zip(value, "ri"))
        return self._reduce_part(combine, value, np.dtype(dtype), result)

    def _reduce_part(self, combine, value, dtype, result) -> str:
        self.phase.reductions.append(Reduction(combine, value, dtype, result, origin=self.origin))
        self.stmt_dtypes[result] = dtype
        return result

    # -- internals ----------------------------------------------------------------------
    def _result_name(self) -> str:
        return f"acc{len(self.results) + self.nested_results}"

    def _new_phase(self):
        self.phase = Phase()
        self.memo: dict = {}
        self.cse: dict = {}
        self.phase_dims = None          # the reduced dims of this phase's loops
        self.phase_idx = ()             # and their index variables
        self.phase_reduces: set = set()  # ids of the reductions this phase computes

    def _emit(self, op, args, dtype) -> str:
        key = (op, args, dtype)
        name = self.cse.get(key)
        if name is None:
            name = self.cse[key] = f"%{self.counter}"
            self.counter += 1
            self.stmt_dtypes[name] = dtype
            self.phase.body.append(Stmt(name, op, args, dtype, self.origin))
        return name

    def new_loops(self, dims) -> tuple:
        """Loop variables over ``dims`` (cut sizes); static size-1 dims get index 0, no loop."""
        loops, idx = [], []
        for d in dims:
            extent = ix.size_index(d)
            if extent.constant() == 1:
                idx.append(ix.ZERO)
                continue
            k = self.next_var
            self.next_var += 1
            self.extents[k] = extent
            loops.append(Loop(k, extent))
            idx.append(ix.var(k))
        return loops, tuple(idx)

    def shape_of(self, node) -> tuple:
        return tuple(ix.size_index(d) for d in self.cut.shape(node.shape))

    def use(self, node) -> Buffer:
        buf = self.buffers[node.id]
        self.used.setdefault(buf.name, buf)
        return buf

    def load(self, node, flat: ix.Index):
        buf = self.use(node)
        part = wide_dtypes.part_dtype(node.dtype)
        if part is not None:        # a complex element: its two parts
            return tuple(self._emit("load", (buf.name, k, flat), part) for k in (0, 1))
        return self._emit("load", (buf.name, flat), node.dtype)

    def loadable(self, node) -> bool:
        return node.id in self.buffers and node.id not in self.computed

    def load_at(self, node, idx) -> str:
        ref = self.cut.ref(node)
        if ref[0] == "leaf" and not self.cut.leaf_contiguous[ref[1]]:
            strides = [ix.stride_param(ref[1], k) for k in range(len(idx))]
        else:
            strides = c_strides(self.shape_of(node))
        return self.load(node, flat_index(idx, strides))

    def store(self, node, idx, value) -> None:
        self.store_flat(node, flat_index(idx, c_strides(self.shape_of(node))), value)

    def store_flat(self, node, flat, value) -> None:
        """Store ``value`` at element ``flat`` of ``node``'s buffer (a complex pair: its
        two parts)."""
        buf = self.use(node)
        if isinstance(value, tuple):
            self.phase.stores.extend(Store(buf.name, flat, v, part=k) for k, v in enumerate(value))
        else:
            self.phase.stores.append(Store(buf.name, flat, value))

    def value(self, root, idx) -> str:
        """The statement holding ``root``'s value at ``idx`` (iterative post-order walk)."""
        stack = [(root, idx)]
        memo = self.memo
        while stack:
            node, at = stack[-1]
            key = (node.id, at)
            if key in memo:
                stack.pop()
                continue
            pending = self._visit(node, at, memo)
            if pending:
                stack.extend(pending)
            else:
                stack.pop()
        return memo[(root.id, idx)]

    def _visit(self, node, at, memo):
        key = (node.id, at)
        if self.loadable(node):
            self.origin = ""
            memo[key] = self.load_at(node, at)
            return None
        if node.id in self.results:
            row, result = self.results[node.id]
            if at != row:
                raise NotFusable(f"{describe(node)} is read at another row ({at} != {row})")
            memo[key] = result
            return None
        if node.id in self.scattered:
            raise NotFusable(f"{describe(node)} is scattered by this kernel: its value is final "
                             "only after every part has run")
        if node.op.kind == "reduce":
            if node.id in self.buffers:
                raise NotFusable(f"{describe(node)} is not computed before its reader")
            # (no buffer: the scheduler nested it in its one consumer's loop)
            memo[key] = self._nested_reduction(node, at)
            return None
        if node.id in self.computed and at != self.map_idx:
            # Recomputing a stored result at another point (a roll or view of it) would
            # recompute its whole expression there, and a loop of rolls multiplies that
            # per step: a stored result is read back from memory, in a later kernel.
            raise NotFusable(f"{describe(node)} is stored by this kernel and read at another "
                             "point (a roll or view of it)")
        if node.op.name == "view":
            return self._visit_view(node, at, memo)
        lowering = node.op.lowerings.get(KERNEL)
        arg_index = getattr(lowering, "arg_index", None)
        arg_idx = (arg_index(self, node, at) if arg_index is not None
                   else [self._broadcast(arg, at) for arg in node.args])
        missing = [(a, i) for a, i in zip(node.args, arg_idx) if (a.id, i) not in memo]
        if missing:
            return missing
        if not callable(lowering):
            raise NotFusable(f"{describe(node)} has no kernel lowering")
        self.origin = describe(node)
        self.sources.setdefault(node.op.name + (f" at {node.site}" if node.site else ""), None)
        self.current_idx = at
        memo[key] = lowering(self, node, [memo[(a.id, i)] for a, i in zip(node.args, arg_idx)])
        return None

    def _nested_reduction(self, node, at) -> str:
        """``node``'s value at ``at``, reduced by a phase nested in the current one (its own
        loops, statements and names; ``kernel_ir.Phase.nested``): the result's name."""
        saved = (self.phase, self.memo, self.cse, self.phase_dims, self.phase_idx,
                 self.phase_reduces, getattr(self, "current_idx", None))
        self._new_phase()
        dims = self.cut.shape(node.args[0].shape)
        axes = reduced_axes(node)
        loops, inner_idx = self.new_loops([dims[a] for a in axes])
        idx, kept, reduced = [], iter(at), iter(inner_idx)
        for a in range(len(dims)):
            idx.append(next(reduced) if a in axes else next(kept))
        value = self.value(node.args[0], tuple(idx))
        self.current_idx = tuple(idx)
        self.origin = describe(node)
        self.sources.setdefault(node.op.name + (f" at {node.site}" if node.site else ""), None)
        result = node.op.lowerings[KERNEL](self, node, [value])
        self.nested_results += 1
        nested = self.phase
        nested.inner = loops
        (self.phase, self.memo, self.cse, self.phase_dims, self.phase_idx,
         self.phase_reduces, self.current_idx) = saved
        self.phase.nested.append(nested)
        return result

    def _broadcast(self, arg, at) -> tuple:
        rank = len(arg.shape)
        out = at[len(at) - rank:] if rank else ()
        dims = self.cut.shape(arg.shape)
        return tuple(ix.ZERO if d == 1 else i for d, i in zip(dims, out))

    def _visit_view(self, node, at, memo):
        shape, strides, offset = self.cut.attrs(node).template
        flat = ix.size_index(offset)
        for i, s in zip(at, strides):
            flat = flat + i * ix.size_index(s)
        base = node.args[0]
        ref = self.cut.ref(base) if self.loadable(base) else None
        if ref is not None and not (ref[0] == "leaf" and not self.cut.leaf_contiguous[ref[1]]):
            self.origin = ""
            memo[(node.id, at)] = self.load(base, flat)      # contiguous buffer: flat is the address
            return None
        base_idx = self._unravel(flat, self.shape_of(base))
        if (base.id, base_idx) not in memo:
            return [(base, base_idx)]
        memo[(node.id, at)] = memo[(base.id, base_idx)]
        return None

    def rolled_index(self, node, at) -> tuple:
        """Where a roll (``expr.movement.ROLL``) reads its argument for output index ``at``:
        ``(i - shift) mod n`` along its axis, written ``(i + n - shift) % n`` so the
        remainder's operand is never negative."""
        axis, shift = self.cut.attrs(node).template
        n = ix.size_index(self.cut.size(node.shape[axis]))
        source = ix.mod(at[axis] + n - ix.size_index(shift), n, ix.Ranges(self.extents))
        return at[:axis] + (source,) + at[axis + 1:]

    def region_mask(self, node) -> str:
        """Whether the output index of a box write (``expr.movement.box``) lies inside the
        box: a bool statement (comparisons a bound makes idle are left out)."""
        starts, lengths, _ = self.cut.attrs(node).template[3]
        inside = None
        for i, s, n, d in zip(self.current_idx, starts, lengths, self.shape_of(node)):
            s, n = ix.size_index(s), ix.size_index(n)
            tests = ([("greater_equal", s)] if s != ix.ZERO else []) + (
                [("less", s + n)] if s + n != d else [])
            for name, bound in tests:
                test = self.op(name, (self._index_value(i), self._index_value(bound)), np.bool_)
                inside = test if inside is None else self.op("logical_and", (inside, test), np.bool_)
        return inside if inside is not None else self.const(True, np.bool_)

    def region_index(self, node, at) -> tuple:
        """Where a box write reads its value for output index ``at``: the offset into the
        box, clamped into it (outside the box the value is not used, but its loads must
        stay inside their buffers)."""
        starts, lengths, dims = self.cut.attrs(node).template[3]
        ranges = ix.Ranges(self.extents)
        return tuple(ix.ZERO if d < 0 else ix.clamp(
            at[d] - ix.size_index(starts[d]), ix.size_index(lengths[d]) - 1, ranges) for d in dims)

    def _index_value(self, index) -> str:
        return self._emit("index", (index,), np.dtype(np.int64))

    def _unravel(self, flat, dims) -> tuple:
        ranges = ix.Ranges(self.extents)
        out = []
        for k, (d, s) in enumerate(zip(dims, c_strides(dims))):
            if d.constant() == 1:
                out.append(ix.ZERO)
                continue
            q = ix.floordiv(flat, s, ranges)
            out.append(q if k == 0 else ix.mod(q, d, ranges))
        return tuple(out)


def lower_kernel(cut, buffers: dict, spec, name: str) -> Kernel:
    """Build the kernel for ``spec`` (a ``schedule.KernelSpec``); raises ``NotFusable``."""
    scatters = getattr(spec, "scatters", [])
    computed = frozenset(n.id for n in spec.reductions + spec.maps + scatters)
    b = KernelBuilder(cut, buffers, name, computed, frozenset(n.id for n in scatters))
    outer_loops, outer_idx = b.new_loops(spec.outer)
    phases = []
    for reduce_node in spec.reductions:
        if phases and _joins_phase(b, reduce_node):
            _reduction_phase(b, spec, reduce_node, outer_idx, join=True)
        else:
            phases.append(_reduction_phase(b, spec, reduce_node, outer_idx))
    if spec.maps or scatters:
        phases.append(_map_phase(b, spec, outer_idx))
    targets = _scatter_targets(b, scatters)
    sources = list(b.sources) or [describe(n) for n in spec.reductions + spec.maps + scatters]
    kernel = Kernel(name, list(b.used.values()), outer_loops, phases, sources, targets=targets)
    return collapse_loops(kernel)


def reduced_axes(node) -> tuple:
    """A reduction's axes (arg-reductions name one axis as an int)."""
    axes = node.attrs[0]
    return tuple(axes) if isinstance(axes, tuple) else (axes,)


def _reduced_dims(b, node) -> tuple:
    dims = b.cut.shape(node.args[0].shape)
    return tuple(dims[a] for a in reduced_axes(node))


def _joins_phase(b, node) -> bool:
    """Whether ``node`` can accumulate in the current phase's pass: it reduces the same
    dims and reads none of that phase's results (they are final only after the pass)."""
    if b.phase_dims is None or _reduced_dims(b, node) != b.phase_dims:
        return False
    stack, seen = [node.args[0]], set()
    while stack:
        n = stack.pop()
        if n.id in seen:
            continue
        seen.add(n.id)
        if n.id in b.phase_reduces:
            return False
        if not b.loadable(n) and n.id not in b.results:
            stack.extend(n.args)
    return True


def _reduction_phase(b, spec, node, outer_idx, join=False) -> Phase:
    source = node.args[0]
    dims = b.cut.shape(source.shape)
    axes = reduced_axes(node)
    if join:
        inner_loops, inner_idx = b.phase.inner, b.phase_idx
    else:
        b._new_phase()
        inner_loops, inner_idx = b.new_loops([dims[a] for a in axes])
        b.phase_dims, b.phase_idx = _reduced_dims(b, node), inner_idx
    b.phase_reduces.add(node.id)
    idx, o, r = [], iter(outer_idx), iter(inner_idx)
    for a in range(len(dims)):
        idx.append(next(r) if a in axes else next(o))
    value = b.value(source, tuple(idx))
    b.current_idx = tuple(idx)          # arg-reductions read their position along the axis
    b.origin = describe(node)
    b.sources.setdefault(node.op.name + (f" at {node.site}" if node.site else ""), None)
    result = node.op.lowerings[KERNEL](b, node, [value])
    phase = b.phase
    phase.inner = inner_loops
    b.results[node.id] = (outer_idx, result)
    if node.id in spec.stored:
        b.store_flat(node, flat_index(outer_idx, c_strides(b.shape_of(node))), result)
    return phase


def _map_phase(b, spec, outer_idx) -> Phase:
    b._new_phase()
    inner_loops, inner_idx = b.new_loops(spec.inner)
    idx = outer_idx + inner_idx
    b.map_idx = idx
    for root in spec.maps:
        b.store(root, idx, b.value(root, idx))
    for t, node in enumerate(getattr(spec, "scatters", [])):
        b.phase.scatters.append(_scatter(b, node, t, idx))
    phase = b.phase
    phase.inner = inner_loops
    return phase


def _scatter(b, node, target, idx) -> Scatter:
    """The scatter of ``node`` (base, flat indices, values) at the domain point ``idx``:
    its index and value computed here, fused, and the index's range test as its mask
    (indices come checked; the test keeps a kernel inside its buffer whatever it reads)."""
    _, index, values = node.args
    if len(index.shape) != len(idx):
        raise NotFusable(f"{describe(node)}: its indices do not span the kernel's loops")
    b.origin = describe(node)
    b.sources.setdefault(node.op.name + (f" at {node.site}" if node.site else ""), None)
    flat = b.value(index, idx)
    value = b.value(values, idx)
    b.origin = describe(node)
    size = b._index_value(_size_of(b.shape_of(node)))
    low = b.op("greater_equal", (flat, b.const(0, np.int64)), np.bool_)
    high = b.op("less", (flat, size), np.bool_)
    return Scatter(target, flat, value, b.op("logical_and", (low, high), np.bool_))


def _size_of(dims) -> ix.Index:
    total = ix.as_index(1)
    for d in dims:
        total = total * d
    return total


def _scatter_targets(b, scatters) -> list:
    """Each scatter's target: its size, its slots in a part's scratch, and the phase that
    computes its base at every output point (the finishing step's start values)."""
    targets, offset = [], ix.ZERO
    for node in scatters:
        b._new_phase()
        loops, idx = b.new_loops(b.cut.shape(node.shape))
        b.origin = describe(node)
        value = b.value(node.args[0], idx)
        buffer = b.use(node)
        b.phase.stores.append(Store(buffer.name, flat_index(idx, c_strides(b.shape_of(node))), value))
        b.phase.inner = loops
        size = _size_of(b.shape_of(node))
        targets.append(ScatterTarget(buffer.name, node.op.lowerings[KERNEL].combine_of(node), node.dtype,
                                     size, offset, b.phase, value))
        offset = offset + size
    return targets
