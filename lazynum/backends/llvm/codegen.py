"""Kernel IR -> LLVM IR text (one function per kernel, no run-time addresses).

Every kernel has the C signature
``void kernel(void **buffers, const int64_t *sizes, const int64_t *params, int64_t start, int64_t stop)``:
buffer pointers come from ``buffers`` (passed on as ``noalias`` arguments of an inlined
body so loops vectorize without run-time alias checks: inputs are only read and outputs
are fresh), run-time sizes from ``sizes`` (so one compiled kernel serves every size), the
element strides of non-contiguous inputs and the values of scalar inputs from ``params``
(``program.ParamLayout``; the IR names it ``%strides``), and the first outer loop runs
over ``[start, stop)`` (the slice a worker thread owns).  Addresses are GEPs; loop
variables and accumulators are allocas that SROA turns into registers.

How loops run (column order for reductions over leading axes, full reductions split
across threads, blocked float32 accumulation) is decided before this module, by
``compile.loop_strategy``: each kernel arrives with its ``strategy``, and this module writes
the code it asks for.
"""
from __future__ import annotations

import re

import numpy as np

from ...compile import index_expr as ix
from ...compile.kernel_ir import ARG_COMBINES, walk_phases
from ...expr.combines import identity, lookup as lookup_combine
from . import scalar_ops as so
from . import vector_math
from .scalar_ops import Emitter, literal, ltype, mtype

F64 = np.dtype(np.float64)
LOOP_ID = "!lz.loop."         # placeholder + interleave count: ``module_text`` numbers them
COMPARING = ("maximum", "minimum", "fmax", "fmin")


def _combine(e: Emitter, combine, acc, value, dt) -> str:
    if dt.kind == "f" and combine in ("add", "multiply"):
        op = "fadd" if combine == "add" else "fmul"
        return e.assign(f"{op} reassoc {ltype(dt)} {acc}, {value}")
    if dt.kind == "f" and combine in ("maximum", "minimum"):
        return e.intrinsic(combine, dt, [acc, value])      # the vectorizable reduction form
    return so.emit(e, lookup_combine(combine).scalar_op, [acc, value], [dt, dt], dt)


class KernelCodegen:
    """Generates the LLVM function for one kernel (see the module docstring)."""

    def __init__(self, kernel, layout):
        self.kernel = kernel
        self.strategy = kernel.strategy    # decided by compile.loop_strategy
        self.layout = layout        # positions of strides and scalar values in ``params``
        pointers = [b for b in kernel.buffers if b.role != "param"]
        self.n_pointers = len(pointers)
        self.buffer_arg = {b.name: k for k, b in enumerate(pointers)}
        params = [b for b in kernel.buffers if b.role == "param"]
        self.param_position = {b.name: j for j, b in enumerate(params)}
        self.buffer_dtype = {b.name: b.dtype for b in kernel.buffers}
        self.e = Emitter()
        self.values: dict = {}      # IR statement / reduction names -> SSA operand
        self.dtypes: dict = {}
        self.vars: dict = {}        # loop var -> SSA i64
        self.atoms: dict = {}       # ("s", k) / ("t", i, j) -> SSA i64 loaded at entry
        self.allocas: list = []
        self.index_cache: dict = {}
        self.idle_clamps: set = set()   # loop vars whose clamps are idle where code is emitted
        self.comparisons = 0        # float max/min accumulations emitted (see ``loop``)
        self.address_atoms: dict = {}   # atoms addresses read otherwise (_short_row_columns)

    # -- index math ---------------------------------------------------------------------
    def index(self, index: ix.Index) -> str:
        cached = self.index_cache.get(index)
        if cached is not None:
            return cached
        e, total = self.e, None
        for monomial, coef in index.terms:
            term = None
            for atom in monomial:
                v = self._atom(atom)
                term = v if term is None else e.assign(f"mul i64 {term}, {v}")
            if term is None:
                term = str(coef)
            elif coef != 1:
                term = e.assign(f"mul i64 {term}, {coef}")
            total = term if total is None else e.assign(f"add i64 {total}, {term}")
        result = total if total is not None else "0"
        self.index_cache[index] = result
        return result

    def _atom(self, atom) -> str:
        if atom[0] == "v":
            return self.vars[atom[1]]
        if atom[0] in ("s", "t"):
            return self.atoms[atom]
        if atom[0] == "clamp" and self.idle_clamps and self.idle_clamps & {
                a[1] for a in ix.all_atoms(atom[1]) if a[0] == "v"}:
            return self.index(atom[1])      # (LoopStrategy.clamp_ranges: idle here)
        num, den = self.index(atom[1]), self.index(atom[2])
        e = self.e
        if atom[0] == "clamp":          # max(min(num, high), 0)
            low = e.assign(f"select i1 {e.assign(f'icmp slt i64 {num}, {den}')}, i64 {num}, i64 {den}")
            return e.assign(f"select i1 {e.assign(f'icmp sgt i64 {low}, 0')}, i64 {low}, i64 0")
        # Floor semantics (index_expr): the numerator may be negative once multiples of the
        # divisor were taken out of it; the divisor is a positive size.
        e = self.e
        rem = e.assign(f"srem i64 {num}, {den}")
        below = e.assign(f"icmp slt i64 {rem}, 0")
        if atom[0] == "div":
            quotient = e.assign(f"sdiv i64 {num}, {den}")
            return e.assign(f"sub i64 {quotient}, {e.assign(f'zext i1 {below} to i64')}")
        return e.assign(f"add i64 {rem}, {e.assign(f'select i1 {below}, i64 {den}, i64 0')}")

    def _load_atoms(self):
        wanted = set()
        for index in self._all_indexes():
            stack = list(index.atoms())
            while stack:
                atom = stack.pop()
                if atom[0] in ("s", "t"):
                    wanted.add(atom)
                elif atom[0] in ix.COMPOSITE_ATOMS:
                    stack.extend(atom[1].atoms() | atom[2].atoms())
        for atom in sorted(wanted):
            if atom[0] == "s":
                source, pos = "%sizes", atom[1]
            else:
                source, pos = "%strides", self.layout.stride_position(atom[1], atom[2])
            p = self.e.assign(f"getelementptr inbounds i64, ptr {source}, i64 {pos}")
            self.atoms[atom] = self.e.assign(f"load i64, ptr {p}")

    def _all_indexes(self):
        k = self.kernel
        yield from (loop.extent for loop in k.outer)
        for phase in walk_phases(k.phases + [t.init for t in k.targets]):
            yield from (loop.extent for loop in phase.inner)
            for stmt in phase.body:
                if stmt.op in ("load", "index"):
                    yield stmt.args[-1]
            yield from (s.index for s in phase.stores)
        for target in k.targets:
            yield from (target.size, target.offset)

    # -- loops --------------------------------------------------------------------------
    def alloca(self, type_: str) -> str:
        name = f"%a{len(self.allocas)}"
        self.allocas.append(f"  {name} = alloca {type_}")
        return name

    def loop(self, var, low: str, high: str, body, step: int = 1) -> None:
        """Emit ``for var in range(low, high, step): body()``."""
        e = self.e
        slot = self.alloca("i64")
        head, inner, done = e.label("head"), e.label("body"), e.label("done")
        e.line(f"store i64 {low}, ptr {slot}")
        e.line(f"br label %{head}")
        e.lines.append(f"{head}:")
        cur = e.assign(f"load i64, ptr {slot}")
        more = e.assign(f"icmp slt i64 {cur}, {high}")
        e.line(f"br i1 {more}, label %{inner}, label %{done}")
        e.lines.append(f"{inner}:")
        if var is not None:
            self.vars[var] = cur
        saved, calls, comparisons = dict(self.index_cache), e.math_calls, self.comparisons
        body(cur)
        self.index_cache = saved
        nxt = e.assign(f"add nsw i64 {cur}, {step}")
        e.line(f"store i64 {nxt}, ptr {slot}")
        # A loop calling vector math runs one call per iteration: interleaved calls would
        # spill every live vector around each call (the vector ABI saves none of them).
        # Two when it keeps a float max/min, whose NaN-propagating combine is a chain of
        # several instructions that a second accumulator halves (measured: max(cos(x))
        # 10% faster, maps and sums slower).
        interleave = 2 if self.comparisons > comparisons else 1
        metadata = f", !llvm.loop {LOOP_ID}{interleave}" if e.math_calls > calls else ""
        e.line(f"br label %{head}{metadata}")
        e.lines.append(f"{done}:")

    def nest(self, loops, body, first_range=None) -> None:
        if not loops:
            body()
            return
        loop, rest = loops[0], loops[1:]
        low, high = first_range or ("0", self.index(loop.extent))
        split = self.strategy.clamp_ranges
        if split and split[0] == loop.var and not rest:
            self._clamp_split_loop(loop.var, low, high, split[1], body)
            return
        self.loop(loop.var, low, high, lambda _: self.nest(rest, body))

    def _clamp_split_loop(self, var, low: str, high: str, ranges, body) -> None:
        """``for var in [low, high)`` as three loops (``LoopStrategy.clamp_ranges``): the
        middle one, where every clamp of ``var`` is idle, reads each clamp as its argument."""
        e = self.e

        def pick(op, a, b):
            return e.assign(f"select i1 {e.assign(f'icmp {op} i64 {a}, {b}')}, i64 {a}, i64 {b}")
        start, stop = low, high
        for first, last in ranges:
            start, stop = pick("sgt", start, self.index(first)), pick("slt", stop, self.index(last))
        start = pick("slt", start, high)            # inside [low, high], and start <= stop
        stop = pick("sgt", stop, start)
        self.loop(var, low, start, lambda _: body())
        self.idle_clamps.add(var)
        self.loop(var, start, stop, lambda _: body())
        self.idle_clamps.discard(var)
        self.loop(var, stop, high, lambda _: body())

    # -- statements ---------------------------------------------------------------------
    def operand(self, name: str) -> str:
        return self.values[name]

    def statements(self, body) -> None:
        e = self.e
        for stmt in body:
            if stmt.op == "load":
                buf, index = stmt.args[0], stmt.args[-1]
                if buf in self.param_position:      # a scalar passed by value
                    p = e.assign(f"getelementptr inbounds i64, ptr %scalars, i64 {self.param_position[buf]}")
                else:
                    p = self.address(buf, index, stmt.args[1] if len(stmt.args) == 3 else None)
                v = e.assign(f"load {mtype(stmt.dtype)}, ptr {p}")
                if stmt.dtype.kind == "b":
                    v = e.assign(f"icmp ne i8 {v}, 0")
            elif stmt.op == "const":
                v = literal(stmt.args[0], stmt.dtype)
            elif stmt.op == "index":
                v = self.index(stmt.args[0])
            elif stmt.op == "cast":
                v = so.cast(e, self.operand(stmt.args[0]), self.dtypes[stmt.args[0]], stmt.dtype)
            else:
                v = self._scalar(stmt)
            self.values[stmt.name] = v
            self.dtypes[stmt.name] = stmt.dtype

    def _scalar(self, stmt) -> str:
        args = [self.operand(a) for a in stmt.args]
        dts = [self.dtypes[a] for a in stmt.args]
        if stmt.op == "select":
            dts = dts[1:]
            return so.emit(self.e, "select", args, dts, stmt.dtype)
        if any(a.startswith("0x") or not a.startswith("%") for a in args):
            # a literal operand: give it a register so every op sees SSA-compatible text
            args = [self._materialize(a, d) for a, d in zip(args, dts)]
        return so.emit(self.e, stmt.op, args, dts, stmt.dtype)

    def _materialize(self, operand, dt) -> str:
        if operand.startswith("%"):
            return operand
        t = ltype(dt)
        if dt.kind == "f":
            return self.e.assign(f"fadd {t} {operand}, {literal(-0.0, dt)}")
        if dt.kind == "b":
            return self.e.assign(f"and i1 {operand}, true")
        return self.e.assign(f"add {t} {operand}, 0")

    def address(self, buf: str, index, part=None) -> str:
        """A pointer to element ``index`` of buffer ``buf``, or to part ``part`` of that
        complex element (a ``[2 x T]`` element: the loop keeps its unit stride)."""
        arg, dt = f"%b{self.buffer_arg[buf]}", self.buffer_dtype[buf]
        offset = self._address_index(index)
        if part is None:
            return self.e.assign(f"getelementptr inbounds {mtype(dt)}, ptr {arg}, i64 {offset}")
        return self.e.assign(f"getelementptr inbounds [2 x {mtype(dt)}], ptr {arg}, "
                             f"i64 {offset}, i64 {part}")

    def _address_index(self, index) -> str:
        """``index`` for an address: with ``address_atoms`` read in place of their atoms
        (``_short_row_columns``), uncached (LLVM merges the repeats)."""
        if not self.address_atoms or not any(a in self.address_atoms for a in ix.all_atoms(index)):
            return self.index(index)
        atoms, cache = self.atoms, self.index_cache
        self.atoms, self.index_cache = {**atoms, **self.address_atoms}, {}
        try:
            return self.index(index)
        finally:
            self.atoms, self.index_cache = atoms, cache

    def store(self, store) -> None:
        e = self.e
        dt = self.buffer_dtype[store.buffer]
        value = self.operand(store.value)
        if self.dtypes.get(store.value, dt).kind == "b" or dt.kind == "b":
            value = e.assign(f"zext i1 {value} to i8") if not value.startswith(("true", "false")) \
                else ("1" if value == "true" else "0")
        p = self.address(store.buffer, store.index, store.part)
        if store.mask is None:
            e.line(f"store {mtype(dt)} {value}, ptr {p}")
            return
        yes, no = e.label("store"), e.label("skip")
        e.line(f"br i1 {self.operand(store.mask)}, label %{yes}, label %{no}")
        e.lines.append(f"{yes}:")
        e.line(f"store {mtype(dt)} {value}, ptr {p}")
        e.line(f"br label %{no}")
        e.lines.append(f"{no}:")

    # -- phases -------------------------------------------------------------------------
    def phase_body(self, phase) -> None:
        """A phase's statements at one point, after its nested reductions at that point."""
        for nested in phase.nested:
            plans = self._plans(nested)
            self._run_pass(nested, plans)
            self._bind_results(plans)
        self.statements(phase.body)

    def map_phase(self, phase) -> None:
        def body():
            self.phase_body(phase)
            for store in phase.stores:
                self.store(store)
            for scatter in phase.scatters:
                self.scatter(scatter)
        self.nest(phase.inner, body)

    def reduction_phase(self, phase) -> None:
        """The phase's reductions in one pass over its inner loops."""
        plans = self._plans(phase)
        self._run_pass(phase, plans)
        self._bind_results(plans)
        for store in phase.stores:
            self.store(store)

    def _plans(self, phase) -> list:
        """(reduction, accumulator slot(s), accumulator dtype, blocked) per reduction, with
        the accumulators allocated and set to their identity."""
        plans = []
        for red in phase.reductions:
            if red.combine in ARG_COMBINES:
                plans.append((red, self._arg_accumulator(red), None, False))
                continue
            dt = red.dtype
            # float32 sums and products accumulate in blocks (accuracy, see the module
            # docstring); float64 ones straight into the float64 accumulator (vectorized with
            # reassoc: short rows, a distance over 2 coordinates, pay no block setup)
            blocked = (dt.kind == "f" and dt.itemsize < 8 and red.combine in ("add", "multiply")
                       and bool(phase.inner))
            acc_dt = F64 if blocked else dt
            acc = self.alloca(ltype(acc_dt))
            self.e.line(f"store {ltype(acc_dt)} {literal(identity(red.combine, dt), acc_dt)}, ptr {acc}")
            plans.append((red, acc, acc_dt, blocked))
        return plans

    def _run_pass(self, phase, plans, first_range=None) -> None:
        """The inner loops (the first over ``first_range`` when given), accumulating."""
        if any(blocked for *_, blocked in plans):
            self._blocked_reduction(phase, plans, first_range)
        else:
            targets = [(red, acc, acc_dt) for red, acc, acc_dt, _ in plans]
            self.nest(phase.inner, lambda: self._accumulate(phase, targets), first_range=first_range)

    def _bind_results(self, plans) -> None:
        for red, acc, acc_dt, _ in plans:
            if red.combine in ARG_COMBINES:
                self.values[red.result] = self.e.assign(f"load i64, ptr {acc[1]}")
                self.dtypes[red.result] = red.dtype
                continue
            result = self.e.assign(f"load {ltype(acc_dt)}, ptr {acc}")
            if acc_dt != red.dtype:
                result = so.cast(self.e, result, acc_dt, red.dtype)
            self.values[red.result] = result
            self.dtypes[red.result] = red.dtype

    def _accumulate(self, phase, targets) -> None:
        """The body at one point, then ``*acc = combine(*acc, value)`` for each
        ``(reduction, acc pointer, accumulator dtype)`` of ``targets``."""
        self.phase_body(phase)
        for red, acc, acc_dt in targets:
            if red.combine in ARG_COMBINES:
                self._arg_step(red, *acc)
                continue
            dt = red.dtype
            self.comparisons += red.combine in COMPARING and dt.kind == "f"
            value = self.operand(red.value)
            if not value.startswith("%"):
                value = self._materialize(value, dt)
            if red.mask is not None:
                value = self.e.assign(f"select i1 {self.operand(red.mask)}, {ltype(dt)} {value}, "
                                      f"{ltype(dt)} {literal(identity(red.combine, dt), dt)}")
            if acc_dt != dt:
                value = so.cast(self.e, value, dt, acc_dt)
            cur = self.e.assign(f"load {ltype(acc_dt)}, ptr {acc}")
            self.e.line(f"store {ltype(acc_dt)} {_combine(self.e, red.combine, cur, value, acc_dt)}, "
                        f"ptr {acc}")

    def _arg_accumulator(self, red) -> tuple:
        """(best value, its position) slots, initialized to a value every element beats or
        ties (ties keep position 0: an all-equal row gives 0)."""
        dt = red.value_dtype
        best, position = self.alloca(ltype(dt)), self.alloca("i64")
        start = identity(red.combine, dt)
        self.e.line(f"store {ltype(dt)} {literal(start, dt)}, ptr {best}")
        self.e.line(f"store i64 0, ptr {position}")
        return best, position

    def _arg_step(self, red, best_ptr, position_ptr) -> None:
        """Take this point when it strictly beats the best (the first best wins); a NaN
        beats anything but an earlier NaN (NumPy's argmax/argmin return the first NaN)."""
        e, dt = self.e, red.value_dtype
        value = self._materialize(self.operand(red.value), dt)
        best = e.assign(f"load {ltype(dt)}, ptr {best_ptr}")
        take = self._beats(red, value, best)
        if red.mask is not None:
            take = e.assign(f"and i1 {take}, {self.operand(red.mask)}")
        position = self._materialize(self.operand(red.index), np.dtype(np.int64))
        self._arg_take(dt, take, value, best, position, best_ptr, position_ptr)

    def _arg_take(self, dt, take, value, best, position, best_ptr, position_ptr) -> None:
        e = self.e
        old = e.assign(f"load i64, ptr {position_ptr}")
        e.line(f"store {ltype(dt)} {e.assign(f'select i1 {take}, {ltype(dt)} {value}, {ltype(dt)} {best}')}, "
               f"ptr {best_ptr}")
        e.line(f"store i64 {e.assign(f'select i1 {take}, i64 {position}, i64 {old}')}, ptr {position_ptr}")

    def _beats(self, red, value, best) -> str:
        """i1: ``value`` strictly beats ``best`` for an arg-reduction (or is its first NaN)."""
        e, dt = self.e, red.value_dtype
        take = so.emit(e, lookup_combine(red.combine).scalar_op, [value, best], [dt, dt],
                       np.dtype(bool))
        if dt.kind == "f":
            value_nan = e.assign(f"fcmp uno {ltype(dt)} {value}, {value}")
            best_number = e.assign(f"fcmp ord {ltype(dt)} {best}, {best}")
            take = e.assign(f"or i1 {take}, {e.assign(f'and i1 {value_nan}, {best_number}')}")
        return take

    def _blocked_reduction(self, phase, plans, first_range=None) -> None:
        """Float sums/products combine each ``strategy.float_block`` of the last inner loop in their own
        type (vectorized), then add the block into the float64 accumulator."""
        e = self.e
        outer, last = phase.inner[:-1], phase.inner[-1]
        low, high = first_range if first_range and not outer else ("0", None)

        def blocks():
            extent = high or self.index(last.extent)

            def one_block(start):
                stop_raw = e.assign(f"add nsw i64 {start}, {self.strategy.float_block}")
                stop = e.assign(f"call i64 @llvm.smin.i64(i64 {stop_raw}, i64 {extent})")
                e.declarations.add("declare i64 @llvm.smin.i64(i64, i64) #0")
                targets, partials = [], []
                for red, acc, acc_dt, blocked in plans:
                    if not blocked:
                        targets.append((red, acc, acc_dt))
                        continue
                    dt = red.dtype
                    block_acc = self.alloca(ltype(dt))
                    e.line(f"store {ltype(dt)} {literal(identity(red.combine, dt), dt)}, ptr {block_acc}")
                    targets.append((red, block_acc, dt))
                    partials.append((red, block_acc, acc))
                self.loop(last.var, start, stop, lambda _: self._accumulate(phase, targets))
                for red, block_acc, acc in partials:
                    part = so.cast(e, e.assign(f"load {ltype(red.dtype)}, ptr {block_acc}"), red.dtype, F64)
                    cur = e.assign(f"load double, ptr {acc}")
                    e.line(f"store double {_combine(e, red.combine, cur, part, F64)}, ptr {acc}")
            self.loop(None, low, extent, one_block, step=self.strategy.float_block)
        self.nest(outer, blocks, first_range=first_range if outer else None)

    # -- column order: reductions over leading axes ---------------------------------------
    def column_phases(self) -> None:
        """The kernel with the reduced loops outside a block of ``strategy.column_block`` outer
        points: each block keeps one accumulator per point, and every row of the reduced
        axes is read contiguously (``x.sum(axis=0)`` streams ``x`` once instead of walking
        it column by column).  A short-rows kernel (``strategy.short_rows``) runs its map
        phases over a row's points the same way: the row's loop outside, the block's
        points inside."""
        outer = self.kernel.outer[0]
        e = self.e
        accumulators: dict = {}      # result name -> (array alloca, accumulator dtype, dtype)

        def point_values(start):
            for name, (array, acc_dt, dt) in accumulators.items():
                slot = self._column_slot(array, acc_dt, start)
                value = e.assign(f"load {ltype(acc_dt)}, ptr {slot}")
                self.values[name] = so.cast(e, value, acc_dt, dt) if acc_dt != dt else value
                self.dtypes[name] = dt

        def block(start):
            stop_raw = e.assign(f"add nsw i64 {start}, {self.strategy.column_block}")
            stop = e.assign(f"call i64 @llvm.smin.i64(i64 {stop_raw}, i64 %stop)")
            e.declarations.add("declare i64 @llvm.smin.i64(i64, i64) #0")
            for phase in self.kernel.phases:
                arrays = []
                for red in phase.reductions:
                    dt = red.dtype
                    acc_dt = F64 if dt.kind == "f" and red.combine in ("add", "multiply") else dt
                    array = self.alloca(f"[{self.strategy.column_block} x {ltype(acc_dt)}]")
                    init = literal(identity(red.combine, dt), acc_dt)
                    self.loop(None, start, stop, lambda o, a=array, t=acc_dt, v=init: e.line(
                        f"store {ltype(t)} {v}, ptr {self._column_slot(a, t, start, o)}"))
                    arrays.append((red, array, acc_dt))
                if arrays:
                    def row(phase=phase, arrays=arrays):
                        def point(_):
                            point_values(start)
                            self._accumulate(phase, [(red, self._column_slot(array, acc_dt, start), acc_dt)
                                                     for red, array, acc_dt in arrays])
                        self.loop(outer.var, start, stop, point)
                    self.nest(phase.inner, row)
                    for red, array, acc_dt in arrays:
                        accumulators[red.result] = (array, acc_dt, red.dtype)

                def epilogue(_, phase=phase):
                    point_values(start)
                    if not phase.reductions:
                        self.phase_body(phase)
                    for store in phase.stores:
                        self.store(store)
                if not phase.reductions and phase.inner:    # a map over a short row's points
                    self.nest(phase.inner, lambda phase=phase, epilogue=epilogue: self.loop(
                        outer.var, start, stop, epilogue))
                elif not phase.reductions or phase.stores:
                    self.loop(outer.var, start, stop, epilogue)
        self.loop(None, "%start", "%stop", block, step=self.strategy.column_block)

    def _short_row_columns(self, extent: ix.Index) -> None:
        """``column_phases`` for short rows, their addresses computed with the row length
        read as ``smax(length, 1)`` (equal wherever a point is read: a row of 0 points reads
        nothing; loop bounds and values keep the length itself).  LLVM versions a loop
        whose access stride is a plain run-time value on that stride being 1 and leaves the
        other version scalar; ``smax`` is no plain value, so the loop over a block's rows
        vectorizes with gathers (a (8192, 10) float32 softmax, one thread: 1.34 -> 0.59 ms;
        NumPy 1.11 ms)."""
        if len(extent.terms) == 1 and extent.terms[0][1] == 1 and len(extent.terms[0][0]) == 1:
            atom = extent.terms[0][0][0]
            if atom[0] in ("s", "t"):
                self.e.declarations.add("declare i64 @llvm.smax.i64(i64, i64) #0")
                self.address_atoms = {atom: self.e.assign(
                    f"call i64 @llvm.smax.i64(i64 {self.atoms[atom]}, i64 1)")}
        self.column_phases()
        self.address_atoms = {}

    def _column_slot(self, array, acc_dt, start, point=None) -> str:
        point = point if point is not None else self.vars[self.kernel.outer[0].var]
        offset = self.e.assign(f"sub nsw i64 {point}, {start}")
        return self.e.assign(f"getelementptr inbounds [{self.strategy.column_block} x {ltype(acc_dt)}], "
                             f"ptr {array}, i64 0, i64 {offset}")

    # -- scatter targets: private copies per part, combined in order -----------------------
    def _slot(self, slot: str) -> str:
        return self.e.assign(f"getelementptr inbounds i64, ptr %scratch, i64 {slot}")

    def scatter(self, scatter) -> None:
        """``copy[index] = combine(copy[index], value)`` where the mask holds (the copy:
        this part's slots of its target, in ``%scratch``)."""
        e = self.e
        target = self.kernel.targets[scatter.target]
        dt, t = target.dtype, ltype(target.dtype)
        yes, no = e.label("scatter"), e.label("scattered")
        e.line(f"br i1 {self.operand(scatter.mask)}, label %{yes}, label %{no}")
        e.lines.append(f"{yes}:")
        index = self._materialize(self.operand(scatter.index), np.dtype(np.int64))
        pointer = self._slot(e.assign(f"add nsw i64 {self.index(target.offset)}, {index}"))
        value = self._materialize(self.operand(scatter.value), dt)
        old = e.assign(f"load {t}, ptr {pointer}")
        new = so.emit(e, lookup_combine(target.combine).scalar_op, [old, value], [dt, dt], dt)
        e.line(f"store {t} {new}, ptr {pointer}")
        e.line(f"br label %{no}")
        e.lines.append(f"{no}:")

    def scatter_part_function(self) -> str:
        """``<name>.part``: this part's copies set to the identity, then the kernel's
        phases over ``[start, stop)`` of its first outer loop, scattering into them."""
        self._load_atoms()
        e = self.e
        for target in self.kernel.targets:
            start = literal(identity(target.combine, target.dtype), target.dtype)
            offset = self.index(target.offset)
            self.loop(None, "0", self.index(target.size), lambda j, v=start, o=offset, d=target.dtype: e.line(
                f"store {ltype(d)} {v}, ptr {self._slot(e.assign(f'add nsw i64 {o}, {j}'))}"))
        first = ("%start", "%stop") if self.kernel.outer else None
        self.nest(self.kernel.outer, self._phases, first_range=first)
        e.line("ret void")
        return self._wrapped(f"{self.kernel.name}.part", scratch=True)

    def scatter_finish_function(self) -> str:
        """``<name>.finish``: each target's point is its base combined with the copies of
        parts ``[start, stop)``, in part order."""
        self._load_atoms()
        e = self.e
        total = self.index(self.kernel.scatter_slots)
        for target in self.kernel.targets:
            self.nest(target.init.inner, lambda target=target: self._finish_point(target, total))
        e.line("ret void")
        return self._wrapped(f"{self.kernel.name}.finish", scratch=True)

    def _finish_point(self, target, total: str) -> None:
        e, dt, t = self.e, target.dtype, ltype(target.dtype)
        self.statements(target.init.body)
        (store,) = target.init.stores
        at = e.assign(f"add nsw i64 {self.index(target.offset)}, {self.index(store.index)}")
        acc = self.alloca(t)
        e.line(f"store {t} {self._materialize(self.operand(target.value), dt)}, ptr {acc}")

        def combine(part):
            pointer = self._slot(e.assign(f"add nsw i64 {e.assign(f'mul nsw i64 {part}, {total}')}, {at}"))
            cur = e.assign(f"load {t}, ptr {acc}")
            new = so.emit(e, lookup_combine(target.combine).scalar_op,
                          [cur, e.assign(f"load {t}, ptr {pointer}")], [dt, dt], dt)
            e.line(f"store {t} {new}, ptr {acc}")
        self.loop(None, "%start", "%stop", combine)
        self.values[store.value] = e.assign(f"load {t}, ptr {acc}")
        self.store(store)

    def _phases(self) -> None:
        for phase in self.kernel.phases:
            if phase.reductions:
                self.reduction_phase(phase)
            else:
                self.map_phase(phase)

    # -- the function -------------------------------------------------------------------
    def function(self) -> str:
        k = self.kernel
        e = self.e
        self._load_atoms()
        first = ("%start", "%stop") if k.outer else None

        def phases():
            for phase in k.phases:
                if phase.reductions:
                    self.reduction_phase(phase)
                else:
                    self.map_phase(phase)
        if self.strategy.column_order or self.strategy.short_rows:
            # Column order pays when a block of points vectorizes; a thread's few columns
            # (k-means' 2 coordinates) keep their accumulators in registers in row order.
            span = e.assign("sub nsw i64 %stop, %start")
            wide = e.assign(f"icmp sge i64 {span}, {self.strategy.column_min}")
            by_columns = self.column_phases
            if self.strategy.short_rows:        # ... and, for a row-wise kernel, short rows
                extent = next(p.inner[0].extent for p in k.phases if p.inner)
                row = self.index(extent)
                wide = e.assign(f"and i1 {wide}, {e.assign(f'icmp slt i64 {row}, {self.strategy.short_rows}')}")
                by_columns = lambda: self._short_row_columns(extent)   # noqa: E731
            by_column, by_row, done = e.label("columns"), e.label("rows"), e.label("orders_done")
            e.line(f"br i1 {wide}, label %{by_column}, label %{by_row}")
            for label, emit in ((by_column, by_columns),
                                (by_row, lambda: self.nest(k.outer, phases, first_range=first))):
                e.lines.append(f"{label}:")
                saved = dict(self.index_cache)
                emit()
                self.index_cache = saved
                e.line(f"br label %{done}")
            e.lines.append(f"{done}:")
        else:
            self.nest(k.outer, phases, first_range=first)
        e.line("ret void")
        return self._wrapped(k.name)

    # -- full reductions split across threads ------------------------------------------------
    def part_function(self) -> str:
        """``<name>.part``: the reduction pass over ``[start, stop)`` of its first loop,
        leaving each accumulator in this part's slots of ``scratch`` (8 bytes each)."""
        self._load_atoms()
        plans = self._plans(self.kernel.phases[0])
        self._run_pass(self.kernel.phases[0], plans, first_range=("%start", "%stop"))
        e, j = self.e, 0
        for red, acc, acc_dt, _ in plans:
            pairs = ([(acc[0], ltype(red.value_dtype)), (acc[1], "i64")]
                     if red.combine in ARG_COMBINES else [(acc, ltype(acc_dt))])
            for pointer, type_ in pairs:
                slot = e.assign(f"getelementptr inbounds i64, ptr %scratch, i64 {j}")
                e.line(f"store {type_} {e.assign(f'load {type_}, ptr {pointer}')}, ptr {slot}")
                j += 1
        e.line("ret void")
        return self._wrapped(f"{self.kernel.name}.part", scratch=True)

    def finish_function(self) -> str:
        """``<name>.finish``: combine parts ``[start, stop)`` of ``scratch`` in order (the
        first best position still wins), then the stores and the map phases."""
        self._load_atoms()
        phase = self.kernel.phases[0]
        plans = self._plans(phase)
        slots = self.strategy.split_slots
        e = self.e

        def combine(part):
            base = e.assign(f"mul nsw i64 {part}, {slots}")
            j = 0
            for red, acc, acc_dt, _ in plans:
                at = [e.assign(f"getelementptr inbounds i64, ptr %scratch, i64 "
                               f"{e.assign(f'add nsw i64 {base}, {j + k}')}") for k in range(2)]
                if red.combine in ARG_COMBINES:
                    dt = red.value_dtype
                    value = e.assign(f"load {ltype(dt)}, ptr {at[0]}")
                    position = e.assign(f"load i64, ptr {at[1]}")
                    best = e.assign(f"load {ltype(dt)}, ptr {acc[0]}")
                    self._arg_take(dt, self._beats(red, value, best), value, best, position, *acc)
                    j += 2
                    continue
                value = e.assign(f"load {ltype(acc_dt)}, ptr {at[0]}")
                cur = e.assign(f"load {ltype(acc_dt)}, ptr {acc}")
                e.line(f"store {ltype(acc_dt)} {_combine(e, red.combine, cur, value, acc_dt)}, ptr {acc}")
                j += 1
        self.loop(None, "%start", "%stop", combine)
        self._bind_results(plans)
        for store in phase.stores:
            self.store(store)
        for later in self.kernel.phases[1:]:
            self.map_phase(later)
        e.line("ret void")
        return self._wrapped(f"{self.kernel.name}.finish", scratch=True)

    def _wrapped(self, name: str, scratch: bool = False) -> str:
        """The emitted body as ``<name>.body`` (noalias buffer arguments, so loops vectorize)
        and the entry ``<name>(buffers, sizes, strides, start, stop)`` that unpacks them; a
        ``scratch`` pointer follows the buffers (and the scalar block) when asked for."""
        extra = ["ptr noalias %scratch"] if scratch else []
        params = ", ".join([f"ptr noalias %b{i}" for i in range(self.n_pointers)]
                           + ["ptr noalias %scalars"] + extra)
        body = [f"define internal void @{name}.body({params}, ptr %sizes, ptr %strides, "
                "i64 %start, i64 %stop) #1 {", "entry:"] + self.allocas + self.e.lines + ["}"]
        entry = [f"define void @{name}(ptr %buffers, ptr %sizes, ptr %strides, i64 %start, i64 %stop) #1 {{"]
        names = []
        for i in range(self.n_pointers):
            entry.append(f"  %p{i} = getelementptr inbounds ptr, ptr %buffers, i64 {i}")
            entry.append(f"  %b{i} = load ptr, ptr %p{i}")
            names.append(f"ptr %b{i}")
        after = self.n_pointers
        if self.param_position:         # the scalar block's address follows the pointers
            entry.append(f"  %ps = getelementptr inbounds ptr, ptr %buffers, i64 {after}")
            entry.append("  %scalars = load ptr, ptr %ps")
            after += 1
        else:
            entry.append("  %scalars = getelementptr inbounds ptr, ptr %buffers, i64 0")
        names.append("ptr %scalars")
        if scratch:
            entry.append(f"  %pscratch = getelementptr inbounds ptr, ptr %buffers, i64 {after}")
            entry.append("  %scratch = load ptr, ptr %pscratch")
            names.append("ptr %scratch")
        call_args = ", ".join(names + ["ptr %sizes", "ptr %strides", "i64 %start", "i64 %stop"])
        entry += [f"  call void @{name}.body({call_args})", "  ret void", "}"]
        return "\n".join(body + entry)


def module_text(kernels, layout, triple: str, data_layout: str, routines=(),
                routine_declarations=()) -> str:
    """One LLVM module holding every kernel of a program (or the IR text of backend
    routines, e.g. stream compaction)."""
    functions, declarations, math = [], set(routine_declarations), set()
    for kernel in kernels:
        if kernel.targets:          # (launched as parts and a finishing step only)
            gens = [KernelCodegen(kernel, layout), KernelCodegen(kernel, layout)]
            functions += [gens[0].scatter_part_function(), gens[1].scatter_finish_function()]
            for gen in gens:
                declarations |= gen.e.declarations
                math |= gen.e.math
            continue
        gens = [KernelCodegen(kernel, layout)]
        functions.append(gens[0].function())
        if kernel.strategy.split_slots:
            gens += [KernelCodegen(kernel, layout), KernelCodegen(kernel, layout)]
            functions += [gens[1].part_function(), gens[2].finish_function()]
        for gen in gens:
            declarations |= gen.e.declarations
            math |= gen.e.math
    functions.extend(routines)
    functions.extend(vector_math.definitions(math))
    header = [f'target triple = "{triple}"', f'target datalayout = "{data_layout}"', ""]
    attrs = ["attributes #0 = { nounwind willreturn memory(none) }",
             "attributes #1 = { nounwind alwaysinline }"]
    text = "\n".join(header + sorted(declarations) + [""] + functions + [""] + attrs) + "\n"
    return _number_loops(text)


def _number_loops(text: str) -> str:
    """Each ``LOOP_ID<count>`` placeholder becomes a distinct loop ID asking for that
    interleave count (1 or 2: metadata nodes !0 and !1)."""
    counts = []

    def number(match):
        counts.append(int(match.group(1)))
        return f"!{len(counts) + 1}"
    body = re.sub(re.escape(LOOP_ID) + r"([12])", number, text)
    if not counts:
        return text
    metadata = [f'!{c - 1} = !{{!"llvm.loop.interleave.count", i32 {c}}}' for c in (1, 2)]
    metadata += [f"!{k} = distinct !{{!{k}, !{c - 1}}}" for k, c in enumerate(counts, start=2)]
    return body + "\n".join(metadata) + "\n"
