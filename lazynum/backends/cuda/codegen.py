"""Kernel IR -> CUDA C text: one ``__global__`` function per kernel template (two for a
split full reduction), in one module per program.

A renderer only renders: the grid form of each kernel (a grid-stride loop over points,
one block per row, or split-plus-finish) is ``compile.grid_shape``'s decision, the index
width (32 or 64 bits, ``lz_idx``) the caller's, from ``grid_shape.index_bits``.  Every
kernel has the signature ``(buffers..., scalars..., s0, s1, ...)``: buffers in the
template's order (those the kernel only reads are ``const T* __restrict__``), 0-d inputs by
value, then the template's index parameters (``kernel_template``: sizes, strides and index
constants, as ``lz_idx``).  A split reduction's part kernel adds ``scratch`` (8-byte slots,
``LoopStrategy.split_slots`` per part); its finishing kernel adds ``scratch`` and ``parts``.

Statements keep the kernel IR's names (``%3`` is ``t3``) and each carries the user op it
came from as a comment, so a printed kernel reads against ``format_kernel`` and the user's
program.  NumPy's semantics live in ``prelude.cuh`` and ``scalar_code``.
"""
from __future__ import annotations

import re
from importlib import resources

import numpy as np

from ...compile import index_expr as ix
from ...compile.grid_shape import GridShape, grid_shape
from ...compile.kernel_ir import ARG_COMBINES, Kernel, walk_phases
from ...expr.combines import identity, lookup as lookup_combine
from . import scalar_code as sc

F64 = np.dtype(np.float64)


class UnsupportedKernel(NotImplementedError):
    """A kernel form this renderer does not write yet (scatter targets)."""


def ident(name: str) -> str:
    """A C identifier for a kernel-IR name (``%3`` -> ``t3``)."""
    if name.startswith("%"):
        return "t" + name[1:]
    return re.sub(r"\W", "_", name)


def origin_comment(origin: str) -> str:
    """The user op a statement came from, without graph node ids (``exp at f.py:3``)."""
    return re.sub(r" %\d+", "", origin).strip()


def index_code(index: ix.Index, names: dict) -> str:
    """An index expression in C (``lz_idx`` arithmetic; floor ``//``/``%`` and clamps
    through the prelude)."""
    parts = []
    for monomial, coef in index.terms:
        factors = [_atom_code(a, names) for a in monomial]
        if not factors:
            parts.append(f"(lz_idx){coef}")
            continue
        if coef == -1:
            parts.append("-" + " * ".join(factors))
        elif coef != 1:
            parts.append(" * ".join([f"(lz_idx){coef}"] + factors))
        else:
            parts.append(" * ".join(factors))
    if not parts:
        return "0"
    return " + ".join(parts).replace("+ -", "- ")


def _atom_code(atom, names) -> str:
    kind = atom[0]
    if kind == "v":
        return names[atom[1]]
    if kind == "s":
        return f"s{atom[1]}"
    if kind in ix.COMPOSITE_ATOMS:
        fn = {"div": "lz_idiv", "mod": "lz_imod", "clamp": "lz_clamp"}[kind]
        return f"{fn}({index_code(atom[1], names)}, {index_code(atom[2], names)})"
    raise ValueError(f"index atom {atom!r} in a kernel template (templates name only loop "
                     "variables and their own parameters)")


def _parameter_count(kernel: Kernel) -> int:
    """How many index parameters ``s0, s1, ...`` the template takes."""
    seen = -1
    for index in _indexes(kernel):
        for atom in ix.all_atoms(index):
            if atom[0] == "s":
                seen = max(seen, atom[1])
    return seen + 1


def _indexes(kernel):
    yield from (loop.extent for loop in kernel.outer)
    for target in kernel.targets:
        yield from (target.size, target.offset)
    for phase in walk_phases(kernel.phases + [t.init for t in kernel.targets]):
        yield from (loop.extent for loop in phase.inner)
        yield from (s.args[-1] for s in phase.body if s.op in ("load", "index"))
        yield from (s.index for s in phase.stores)


class Lines:
    """Indented C lines."""

    def __init__(self):
        self.lines: list = []
        self.depth = 1

    def add(self, text: str, comment: str = "") -> None:
        line = "  " * self.depth + text
        if comment:
            line = f"{line:<72s} // {comment}"
        self.lines.append(line.rstrip())

    def open(self, text: str) -> None:
        self.add(text + " {")
        self.depth += 1

    def close(self) -> None:
        self.depth -= 1
        self.add("}")


class KernelRenderer:
    """Writes the CUDA C of one kernel template (see the module docstring)."""

    def __init__(self, kernel: Kernel):
        for phase in kernel.phases:
            if phase.scatters and (phase.inner or phase.reductions):
                raise UnsupportedKernel(f"kernel {kernel.name}: scatters from a phase with "
                                        "inner loops are not rendered for CUDA yet")
        self.kernel = kernel
        self.shape: GridShape = grid_shape(kernel)
        self.names = kernel.var_names()
        self.stored = {s.buffer for p in kernel.phases for s in p.stores}
        self.stored.update(target.buffer for target in kernel.targets)
        self.dtypes: dict = {}      # IR name -> dtype
        self.params = {b.name for b in kernel.buffers if b.role == "param"}
        self.out = Lines()
        self.tag = ""              # accumulator names of the phase being written
        self.nests = 0             # nested reductions written so far (their names)

    # -- signature and header -------------------------------------------------------------
    def header(self, role: str) -> list:
        k = self.kernel
        lines = [f"// kernel {k.name} ({role}): {self.shape.form} form, "
                 f"{self.shape.threads} threads a block"]
        lines += [f"//   from {origin_comment(src)}" for src in k.sources]
        return lines

    def parameters(self, extra=()) -> str:
        pointers, scalars = [], []
        for b in self.kernel.buffers:
            t = sc.memory_ctype(b.dtype)
            if b.role == "param":
                scalars.append(f"const {t} {b.name}")
            elif b.name in self.stored:
                pointers.append(f"{t}* __restrict__ {b.name}")
            else:
                pointers.append(f"const {t}* __restrict__ {b.name}")
        sizes = [f"const lz_idx s{k}" for k in range(_parameter_count(self.kernel))]
        return ",\n    ".join(pointers + scalars + sizes + list(extra))

    def function(self, name: str, role: str, extra=(), shared: bool = False) -> list:
        opening = (f'extern "C" __global__ void __launch_bounds__({self.shape.threads}) '
                   f"{name}(\n    {self.parameters(extra)}) {{")
        body = ["  __shared__ lz_u64 lz_shared[64];  // block reductions: 32 values of up to 16 bytes"] \
            if shared else []
        return self.header(role) + [opening] + body + self.out.lines + ["}"]

    # -- statements -----------------------------------------------------------------------
    def statements(self, body) -> None:
        for stmt in body:
            self.dtypes[stmt.name] = stmt.dtype
            t = sc.ctype(stmt.dtype)
            if stmt.op == "load":
                buf, index = stmt.args
                if buf in self.params:
                    value = buf
                else:
                    value = f"{buf}[{index_code(index, self.names)}]"
                if stmt.dtype.kind == "b":
                    value = f"({value} != 0)"
            elif stmt.op == "const":
                value = sc.literal(stmt.args[0], stmt.dtype)
            elif stmt.op == "index":
                value = f"(lz_i64)({index_code(stmt.args[0], self.names)})"
            else:
                args = [ident(a) for a in stmt.args]
                dts = [self.dtypes[a] for a in stmt.args]
                if stmt.op == "select":
                    dts = dts[1:]
                value = sc.expression(stmt.op, args, dts, stmt.dtype)
            self.out.add(f"const {t} {ident(stmt.name)} = {value};", origin_comment(stmt.origin))

    def phase_body(self, phase) -> None:
        """A phase's statements at one point, after its nested reductions at that point."""
        for nested in phase.nested:
            self.nested_reduction(nested)
        self.statements(phase.body)

    def nested_reduction(self, phase) -> None:
        """A reduction nested in a point of its consumer's loop (``Phase.nested``: a
        distance's sum over coordinates inside the argmin over centres): this thread runs
        its inner loops serially, in order, and binds its results for the body."""
        outer_tag, self.tag = self.tag, f"n{self.nests}_"
        self.nests += 1
        self.declare_accumulators(phase)
        for loop in phase.inner:
            var = self.names[loop.var]
            self.out.open(f"for (lz_idx {var} = 0; {var} < {index_code(loop.extent, self.names)}; ++{var})")
        self.phase_body(phase)
        self.fold(phase)
        for _ in phase.inner:
            self.out.close()
        self.bind_results(phase)
        self.tag = outer_tag

    def stores(self, stores) -> None:
        dtypes = {b.name: b.dtype for b in self.kernel.buffers}
        for store in stores:
            value = ident(store.value)
            if dtypes[store.buffer].kind == "b":
                value = f"(lz_u8){value}"
            line = f"{store.buffer}[{index_code(store.index, self.names)}] = {value};"
            if store.mask is not None:
                line = f"if ({ident(store.mask)}) {line}"
            self.out.add(line)

    def unflatten(self, flat: str, loops) -> None:
        """Bind ``loops``' variables from a flat index over them (the last one fastest)."""
        if not loops:
            return
        if len(loops) == 1:
            self.out.add(f"const lz_idx {self.names[loops[0].var]} = {flat};")
            return
        self.out.add(f"lz_idx {flat}_rest = {flat};")
        for loop in reversed(loops[1:]):
            extent = index_code(loop.extent, self.names)
            self.out.add(f"const lz_idx {self.names[loop.var]} = {flat}_rest % ({extent});")
            self.out.add(f"{flat}_rest /= ({extent});")
        self.out.add(f"const lz_idx {self.names[loops[0].var]} = {flat}_rest;")

    def extent(self, loops) -> str:
        return " * ".join(f"({index_code(loop.extent, self.names)})" for loop in loops) or "1"

    # -- reductions -----------------------------------------------------------------------
    def accumulator_dtype(self, red) -> np.dtype:
        """float32 sums and products accumulate in float64 (``LoopStrategy.float_block``:
        float32 sums stay as accurate as NumPy's pairwise ones)."""
        dt = np.dtype(red.dtype)
        if dt.kind == "f" and dt.itemsize < 8 and red.combine in ("add", "multiply"):
            return F64
        return dt

    def declare_accumulators(self, phase) -> None:
        for k, red in enumerate(phase.reductions):
            if red.combine in ARG_COMBINES:
                vt = sc.ctype(red.value_dtype)
                self.out.add(f"lz_arg<{vt}> lz_acc{self.tag}{k} = {{{sc.literal(0, red.value_dtype)}, "
                             f"LZ_NO_POSITION}};", f"{red.combine}: {origin_comment(red.origin)}")
                continue
            acc_dt = self.accumulator_dtype(red)
            t = sc.ctype(acc_dt)
            combine = sc.expression(lookup_combine(red.combine).scalar_op, ["a", "b"],
                                    [acc_dt, acc_dt], acc_dt)
            self.out.add(f"const auto lz_combine{self.tag}{k} = []({t} a, {t} b) {{ return {combine}; }};")
            start = sc.literal(identity(red.combine, red.dtype), acc_dt)
            self.out.add(f"{t} lz_acc{self.tag}{k} = {start};", f"{red.combine}: {origin_comment(red.origin)}")

    def fold(self, phase) -> None:
        """Fold this point's values into the thread's accumulators."""
        for k, red in enumerate(phase.reductions):
            guard = f"if ({ident(red.mask)}) " if red.mask else ""
            if red.combine in ARG_COMBINES:
                beats = f"lz_arg_beats<{str(red.combine == 'argmax').lower()}>"
                value, position = ident(red.value), ident(red.index)
                cond = f"{beats}({value}, {position}, lz_acc{self.tag}{k})"
                if red.mask:
                    cond = f"{ident(red.mask)} && {cond}"
                self.out.add(f"if ({cond}) {{ lz_acc{self.tag}{k}.value = {value}; "
                             f"lz_acc{self.tag}{k}.position = {position}; }}")
                continue
            value = sc.cast(ident(red.value), red.dtype, self.accumulator_dtype(red))
            self.out.add(f"{guard}lz_acc{self.tag}{k} = lz_combine{self.tag}{k}(lz_acc{self.tag}{k}, {value});")

    def tree(self, phase) -> None:
        """Combine the block's accumulators (every thread gets the results)."""
        for k, red in enumerate(phase.reductions):
            if red.combine in ARG_COMBINES:
                t = f"lz_arg<{sc.ctype(red.value_dtype)}>"
                op = f"lz_arg_op<{str(red.combine == 'argmax').lower()}>()"
            else:
                t, op = sc.ctype(self.accumulator_dtype(red)), f"lz_combine{self.tag}{k}"
            self.out.add(f"lz_acc{self.tag}{k} = lz_block_reduce(lz_acc{self.tag}{k}, {op}, ({t}*)lz_shared);")

    def bind_results(self, phase) -> None:
        for k, red in enumerate(phase.reductions):
            self.dtypes[red.result] = red.dtype
            if red.combine in ARG_COMBINES:
                value = f"(lz_acc{self.tag}{k}.position == LZ_NO_POSITION ? 0 : lz_acc{self.tag}{k}.position)"
            else:
                value = sc.cast(f"lz_acc{self.tag}{k}", self.accumulator_dtype(red), red.dtype)
            self.out.add(f"const {sc.ctype(red.dtype)} {ident(red.result)} = {value};")

    def thread_zero_stores(self, stores, scatters=()) -> None:
        if stores or scatters:
            self.out.open("if (threadIdx.x == 0)")
            self.stores(stores)
            self.scatters(scatters)
            self.out.close()

    def scatters(self, scatters) -> None:
        """``copy[offset + index] = combine(copy[offset + index], value)`` where the mask
        holds, into this part's private copy (``copy``: its 8-byte scratch slots)."""
        for scatter in scatters:
            target = self.kernel.targets[scatter.target]
            dt, t = target.dtype, sc.ctype(target.dtype)
            self.out.open(f"if ({ident(scatter.mask)})" if scatter.mask else "")
            self.out.add(f"{t}* const slot = ({t}*)(copy + {index_code(target.offset, self.names)} + "
                         f"(lz_idx){ident(scatter.index)});")
            value = sc.cast(ident(scatter.value), self.dtypes[scatter.value], dt)
            combined = sc.expression(lookup_combine(target.combine).scalar_op, ["*slot", value],
                                     [dt, dt], dt)
            self.out.add(f"*slot = {combined};", f"{target.combine} into {target.buffer}")
            self.out.close()

    # -- the forms ------------------------------------------------------------------------
    def points(self) -> list:
        """A map kernel: a grid-stride loop over the flattened outer loops."""
        k, out = self.kernel, self.out
        out.add(f"const lz_idx points = {self.extent(k.outer)};")
        out.open("for (lz_idx flat = (lz_idx)blockIdx.x * blockDim.x + threadIdx.x; "
                 "flat < points;\n       flat += (lz_idx)blockDim.x * gridDim.x)")
        self.unflatten("flat", k.outer)
        for phase in k.phases:
            self.phase_body(phase)
            self.stores(phase.stores)
        out.close()
        return self.function(k.name, "map")

    def row_body(self) -> None:
        """One row's phases, inside a loop over rows: a barrier where a phase reads what an
        earlier one stored, and one at the end when the next row reuses shared memory."""
        k, out = self.kernel, self.out
        self.unflatten("row", k.outer)
        written: set = set()
        for p, phase in enumerate(k.phases):
            if _loads(phase) & written:
                out.add("__syncthreads();  // (an earlier phase stored what this one reads)")
            self.row_phase(p, phase)
            written |= {s.buffer for s in phase.stores}
        if any(p.reductions for p in k.phases) or len(k.phases) > 1:
            out.add("__syncthreads();  // (the next row's phases reuse lz_shared and rows' data)")

    def rows(self) -> list:
        """One block per point of the outer loops; threads stride over each phase."""
        k, out = self.kernel, self.out
        out.add(f"const lz_idx rows = {self.extent(k.outer)};")
        out.open("for (lz_idx row = blockIdx.x; row < rows; row += gridDim.x)")
        self.row_body()
        out.close()
        return self.function(k.name, "rows", shared=any(p.reductions for p in k.phases))

    def row_phase(self, p: int, phase) -> None:
        out = self.out
        if not phase.inner and not phase.reductions:     # one value per row: every thread
            self.phase_body(phase)                       # computes it, thread 0 stores it
            self.thread_zero_stores(phase.stores, phase.scatters)
            return
        out.add(f"// phase {p} ({'reduce' if phase.reductions else 'map'})")
        self.tag = f"{p}_" if len(self.kernel.phases) > 1 else ""
        self.declare_accumulators(phase)
        out.open(f"for (lz_idx point = threadIdx.x; point < {self.extent(phase.inner)}; "
                 "point += blockDim.x)")
        self.unflatten("point", phase.inner)
        self.phase_body(phase)
        self.fold(phase)
        if not phase.reductions:
            self.stores(phase.stores)
        out.close()
        if phase.reductions:
            self.tree(phase)
            self.bind_results(phase)
            self.thread_zero_stores(phase.stores)

    def split_part(self) -> list:
        """A full reduction's parts: each block reduces a grid-strided slice of the pass
        and thread 0 leaves the block's accumulators in its scratch slots."""
        phase, out = self.kernel.phases[0], self.out
        slots = self.kernel.strategy.split_slots
        self.declare_accumulators(phase)
        out.open(f"for (lz_idx point = (lz_idx)blockIdx.x * blockDim.x + threadIdx.x; "
                 f"point < {self.extent(phase.inner)};\n       point += (lz_idx)blockDim.x * gridDim.x)")
        self.unflatten("point", phase.inner)
        self.phase_body(phase)
        self.fold(phase)
        out.close()
        self.tree(phase)
        out.open("if (threadIdx.x == 0)")
        out.add(f"lz_u64* const slots = scratch + (lz_i64)blockIdx.x * {slots};")
        for (k, red), j in zip(enumerate(phase.reductions), _slot_numbers(phase)):
            if red.combine in ARG_COMBINES:
                out.add(f"*({sc.ctype(red.value_dtype)}*)(slots + {j}) = lz_acc{self.tag}{k}.value;")
                out.add(f"*(lz_i64*)(slots + {j + 1}) = lz_acc{self.tag}{k}.position;")
            else:
                out.add(f"*({sc.ctype(self.accumulator_dtype(red))}*)(slots + {j}) = lz_acc{self.tag}{k};")
        out.close()
        return self.function(f"{self.kernel.name}_part", "split part",
                             extra=["lz_u64* __restrict__ scratch"], shared=True)

    def split_finish(self) -> list:
        """One block: the parts' accumulators combined in a fixed tree, then the stores
        and the per-result map phases."""
        phase, out = self.kernel.phases[0], self.out
        slots = self.kernel.strategy.split_slots
        self.declare_accumulators(phase)
        out.open("for (lz_i64 part = threadIdx.x; part < parts; part += blockDim.x)")
        out.add(f"const lz_u64* const slots = scratch + part * {slots};")
        for (k, red), j in zip(enumerate(phase.reductions), _slot_numbers(phase)):
            if red.combine in ARG_COMBINES:
                t = sc.ctype(red.value_dtype)
                out.add(f"lz_arg<{t}> other{k} = {{*(const {t}*)(slots + {j}), "
                        f"*(const lz_i64*)(slots + {j + 1})}};")
                out.add(f"lz_acc{self.tag}{k} = lz_arg_op<{str(red.combine == 'argmax').lower()}>()"
                        f"(lz_acc{self.tag}{k}, other{k});")
            else:
                t = sc.ctype(self.accumulator_dtype(red))
                out.add(f"lz_acc{self.tag}{k} = lz_combine{self.tag}{k}(lz_acc{self.tag}{k}, *(const {t}*)(slots + {j}));")
        out.close()
        self.tree(phase)
        self.bind_results(phase)
        self.thread_zero_stores(phase.stores)
        for later in self.kernel.phases[1:]:
            self.phase_body(later)
            self.thread_zero_stores(later.stores)
        return self.function(f"{self.kernel.name}_finish", "split finish",
                             extra=["const lz_u64* __restrict__ scratch", "const lz_i64 parts"],
                             shared=True)


    def scatter_part(self) -> list:
        """A kernel with scatter targets, part by part: block ``b`` sets its private copy
        (``scratch`` slots ``b * total ...``) to each target's identity, then runs the
        kernel's phases over its contiguous slice of the flattened outer loops, in order
        (rows as in the rows form; thread 0 scatters, so each copy sees its slice's
        indices in NumPy's order)."""
        k, out = self.kernel, self.out
        total = index_code(k.scatter_slots, self.names)
        out.add(f"lz_u64* const copy = scratch + (lz_i64)blockIdx.x * ({total});")
        for target in k.targets:
            start = sc.literal(identity(target.combine, target.dtype), target.dtype)
            t = sc.ctype(target.dtype)
            out.open(f"for (lz_idx j = threadIdx.x; j < {index_code(target.size, self.names)}; "
                     "j += blockDim.x)")
            out.add(f"*({t}*)(copy + {index_code(target.offset, self.names)} + j) = {start};")
            out.close()
        out.add("__syncthreads();  // (the copy is set before thread 0 scatters into it)")
        out.add(f"const lz_i64 rows = {self.extent(k.outer)};")
        out.add("const lz_i64 first = rows * blockIdx.x / gridDim.x, "
                "last = rows * (blockIdx.x + 1) / gridDim.x;")
        out.open("for (lz_idx row = first; row < last; ++row)")
        self.row_body()
        out.close()
        return self.function(f"{k.name}_part", "scatter part",
                             extra=["lz_u64* __restrict__ scratch"],
                             shared=any(p.reductions for p in k.phases))

    def scatter_finish(self) -> list:
        """Each target's point: its base value (the target's ``init`` phase) combined with
        the parts' copies in part order, a grid-stride loop over the target's points."""
        k, out = self.kernel, self.out
        total = index_code(k.scatter_slots, self.names)
        for target in k.targets:
            init, t = target.init, sc.ctype(target.dtype)
            (store,) = init.stores
            out.open(f"for (lz_idx flat = (lz_idx)blockIdx.x * blockDim.x + threadIdx.x; "
                     f"flat < {self.extent(init.inner)};\n       flat += (lz_idx)blockDim.x * gridDim.x)")
            self.unflatten("flat", init.inner)
            self.phase_body(init)
            at = f"{index_code(target.offset, self.names)} + {index_code(store.index, self.names)}"
            out.add(f"{t} value = {ident(target.value)};")
            out.open("for (lz_i64 part = 0; part < parts; ++part)")
            other = f"*(const {t}*)(scratch + part * ({total}) + {at})"
            combined = sc.expression(lookup_combine(target.combine).scalar_op, ["value", other],
                                     [target.dtype, target.dtype], target.dtype)
            out.add(f"value = {combined};")
            out.close()
            out.add(f"{store.buffer}[{index_code(store.index, self.names)}] = "
                    f"{'(lz_u8)' if target.dtype.kind == 'b' else ''}value;", f"{target.combine}.at")
            out.close()
        return self.function(f"{k.name}_finish", "scatter finish",
                             extra=["const lz_u64* __restrict__ scratch", "const lz_i64 parts"])


def _loads(phase) -> set:
    return {s.args[0] for s in phase.body if s.op == "load"}


def _slot_numbers(phase) -> list:
    """The first scratch slot of each reduction (arg-reductions take two: value, position)."""
    out, j = [], 0
    for red in phase.reductions:
        out.append(j)
        j += 2 if red.combine in ARG_COMBINES else 1
    return out


def kernel_functions(kernel: Kernel) -> list:
    """``[(function name, role)]`` the runtime launches for ``kernel``, in order."""
    form = grid_shape(kernel).form
    if form in ("split", "scatter"):
        return [(f"{kernel.name}_part", f"{form} part"), (f"{kernel.name}_finish", f"{form} finish")]
    return [(kernel.name, form)]


def render_kernel(kernel: Kernel) -> str:
    """The CUDA C of one kernel template (no prelude)."""
    form = grid_shape(kernel).form
    if form == "split":
        text = KernelRenderer(kernel).split_part() + [""] + KernelRenderer(kernel).split_finish()
    elif form == "points":
        text = KernelRenderer(kernel).points()
    elif form == "rows":
        text = KernelRenderer(kernel).rows()
    elif form == "scatter":
        text = KernelRenderer(kernel).scatter_part() + [""] + KernelRenderer(kernel).scatter_finish()
    else:
        raise UnsupportedKernel(f"kernel {kernel.name}: the {form!r} form is not rendered "
                                "for CUDA yet")
    return "\n".join(text)


def render_module(kernels, index_bits: int) -> str:
    """One CUDA module holding ``kernels`` (templates), with the prelude and ``lz_idx``
    of ``index_bits`` (32 or 64) bits."""
    if index_bits not in (32, 64):
        raise ValueError(f"index_bits is 32 or 64, not {index_bits!r}")
    parts = [prelude(), f"typedef lz_i{index_bits} lz_idx;  // index arithmetic width", ""]
    parts += [render_kernel(k) + "\n" for k in kernels]
    return "\n".join(parts)


def prelude() -> str:
    """The text of ``prelude.cuh`` (NumPy's semantics for CUDA C)."""
    return resources.files(__package__).joinpath("prelude.cuh").read_text()
