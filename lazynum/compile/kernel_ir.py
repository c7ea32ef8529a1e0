"""The backend-neutral kernel IR: what one fused loop nest computes.

A ``Kernel`` is a parallel loop nest over ``outer`` (the iteration domain every worker
splits along its first loop) followed, inside the innermost outer loop, by ``phases``.
Each phase has its own inner loops (possibly none), a straight-line ``body`` of scalar
statements, ``Reduction``s over its inner loops (independent ones share the pass: a masked
count, sum and sum of squares read the data once; each result, one scalar per outer point,
can be read by later phases: that is how softmax/layernorm run as one kernel with a few
passes over a row in cache) and ``stores``.

Statements are SSA: ``Stmt(name, op, args, dtype, origin)``.  ``op`` is ``"load"``
(args: buffer name, ``Index``), ``"const"`` (args: Python value), ``"index"`` (args:
``Index``; an int64 value), or one of ``SCALAR_OPS``: named after the NumPy ufunc it
implements (``add``, ``exp``, ``less``...) plus ``cast``, ``select`` and ``power_uniform``;
other args name earlier statements or reduction results.  The lowering refuses any other op
(``UnknownScalarOp``); a backend with no code for an op on some dtypes runs the node as an
extern NumPy call and says why (``LAZYNUM_LOGS=fusion``).  ``origin`` says which user op (and source line) the
statement came from, so printed kernels map back to the user's program.  A CPU backend
turns this into LLVM IR, a GPU backend into CUDA C; neither needs the graph.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..expr.combines import ARG_COMBINES  # noqa: F401  (what a reduction means: expr.combines)
from .index_expr import Index, format_index

# Statements that are not scalar ops: they read memory, a constant, a loop index.
STRUCTURAL_OPS = frozenset({"load", "const", "index"})

# The scalar ops a kernel statement may name (op lowerings emit them, reduction combines fold
# with them: ``expr.combines``).  Each is a NumPy ufunc of the same name on one NumPy loop's
# dtypes, except ``cast`` (astype, unsafe), ``select`` (where: bool, value, value) and
# ``power_uniform`` (float power with one exponent for the whole loop: NumPy's fast cases)
# and ``fma`` (fused multiply-add).  A complex buffer is an array of its parts (re, im):
# its loads (args: buffer, part, index) and stores (``Store.part``) name a part of element
# ``index`` (the index keeps unit strides: loops over complex data vectorize); float16 is
# loaded and stored as half and computed in float32 (``compile.wide_dtypes``).
SCALAR_OPS = frozenset({
    # arithmetic
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "negative",
    "absolute", "fabs", "sign", "reciprocal", "power", "float_power", "power_uniform",
    "maximum", "minimum", "fmax", "fmin", "copysign", "heaviside", "nextafter", "hypot",
    "logaddexp", "logaddexp2",
    # rounding
    "floor", "ceil", "trunc", "rint",
    # transcendental
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
    "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh",
    # comparison, classification, logic, bits
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "isnan", "isinf",
    "isfinite", "signbit", "logical_and", "logical_or", "logical_xor", "logical_not",
    "bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift",
    # conversion and choice
    "cast", "select",
    # a*b + c rounded once (complex multiply and abs: NumPy's loops use it)
    "fma",
})


PARTS = ("re", "im")        # a complex element's parts, as loads and stores number them


class UnknownScalarOp(Exception):
    """A lowering emitted an op the kernel IR does not define (a bug in that lowering, not
    a reason to run the node elsewhere)."""


def check_scalar_op(op: str) -> str:
    """``op`` if it is a kernel-IR scalar op; raises ``UnknownScalarOp`` naming it."""
    if op not in SCALAR_OPS:
        raise UnknownScalarOp(f"kernel-IR scalar op {op!r} is not in compile.kernel_ir.SCALAR_OPS: "
                              "a lowering must emit only listed ops (add it there and give "
                              "each backend code for it, or declare the primitive EXTERN)")
    return op


@dataclass
class Buffer:
    """A kernel parameter: an array the kernel loads from or stores to."""
    name: str
    dtype: np.dtype
    role: str               # "input", "temp" (a program intermediate) or "output"
    shape: tuple = ()       # ints / SizeSlots, for printing
    number: int = -1        # the program's value number (compile.plan): inputs first


@dataclass
class Stmt:
    name: str
    op: str
    args: tuple
    dtype: np.dtype
    origin: str = ""


@dataclass
class Store:
    buffer: str
    index: Index
    value: str
    mask: str | None = None      # a bool statement; the store happens only where it is true
    part: int | None = None      # of a complex element: 0 real, 1 imaginary (see ``PARTS``)


@dataclass
class Reduction:
    combine: str            # a name in expr.combines.COMBINES
    value: str              # the statement accumulated at every inner point
    dtype: np.dtype         # the result dtype
    result: str             # the name later phases use for the per-row result
    mask: str | None = None  # points where it is false do not contribute
    origin: str = ""
    index: str | None = None            # arg-reductions: the statement holding the position
    value_dtype: np.dtype | None = None  # arg-reductions: the compared values' dtype


@dataclass
class Scatter:
    """``out[index] = combine(out[index], value)`` into scatter target ``target`` (a
    position in ``Kernel.targets``) at a data-dependent flat ``index`` (an int64
    statement); skipped where ``mask`` (the index's range test) is false."""
    target: int
    index: str
    value: str
    mask: str | None = None


@dataclass
class ScatterTarget:
    """A buffer a kernel scatters into (``expr.indexing.SCATTER_ADD`` and its kin).  Each
    part of the kernel's outer loop accumulates into a private copy of ``size`` elements
    (8-byte slots at ``offset`` of the part's scratch, which holds ``Kernel.scatter_slots``)
    starting from the combine's identity; the finishing step runs ``init`` (a phase over
    the output's points computing the base value ``value``, with one store giving the
    flat position) and stores ``base ⊕ copy_0 ⊕ copy_1 ⊕ ...``, parts in order."""
    buffer: str
    combine: str
    dtype: np.dtype
    size: Index
    offset: Index
    init: "Phase"
    value: str


@dataclass
class Loop:
    var: int                # index variable number (``("v", var)`` in index expressions)
    extent: Index


@dataclass
class Phase:
    inner: list = field(default_factory=list)       # of Loop
    body: list = field(default_factory=list)        # of Stmt
    reductions: list = field(default_factory=list)  # of Reduction, all over ``inner``
    stores: list = field(default_factory=list)      # of Store
    scatters: list = field(default_factory=list)    # of Scatter (map phases only)
    # Reductions computed afresh at each point of this phase's loops, before its body: each
    # a Phase of its own (inner loops, body, reductions; no stores) whose results the body
    # reads by name.  A producer reduction nested in its consumer's loop: a distance matrix's
    # sum over coordinates inside the argmin over centres, never stored (``compile.schedule``).
    nested: list = field(default_factory=list)      # of Phase


def walk_phases(phases):
    """Each phase of ``phases`` and, after it, its nested phases (depth first)."""
    stack = list(reversed(phases))
    while stack:
        phase = stack.pop()
        yield phase
        stack.extend(reversed(phase.nested))


@dataclass
class Kernel:
    name: str
    buffers: list           # of Buffer, in argument order
    outer: list             # of Loop; the first one is split across threads
    phases: list            # of Phase
    sources: list = field(default_factory=list)     # "op at file:line" of the user ops fused here
    strategy: object = None     # compile.loop_strategy.LoopStrategy, set by compile.plan
    targets: list = field(default_factory=list)     # of ScatterTarget

    @property
    def scatter_slots(self) -> Index:
        """Scratch slots one part's private copies take (the targets' sizes summed)."""
        total = Index([])
        for target in self.targets:
            total = total + target.size
        return total

    def var_names(self) -> dict:
        names = {loop.var: f"o{i}" for i, loop in enumerate(self.outer)}
        for p, phase in enumerate(self.phases):
            for i, loop in enumerate(phase.inner):
                names[loop.var] = f"r{p}_{i}" if len(self.phases) > 1 else f"r{i}"
            for nested in walk_phases(phase.nested):
                for loop in nested.inner:
                    names[loop.var] = f"q{loop.var}"
        for t, target in enumerate(self.targets):
            for i, loop in enumerate(target.init.inner):
                names[loop.var] = f"t{t}_{i}"
        return names


def format_kernel(kernel: Kernel) -> str:
    """The kernel as readable text, each statement annotated with the user op it came from."""
    names = kernel.var_names()
    lines = [f"kernel {kernel.name}"]
    lines += [f"  # from {src}" for src in kernel.sources]
    if kernel.strategy is not None:
        lines.append(f"  # loops: {kernel.strategy.describe()}")
    for buf in kernel.buffers:
        dims = ", ".join(_dim_text(d) for d in buf.shape)
        lines.append(f"  {buf.role:6s} {buf.name}: {buf.dtype}[{dims}]")
    indent = "  "
    for i, loop in enumerate(kernel.outer):
        tag = "   # parallel" if i == 0 else ""
        lines.append(f"{indent}for {names[loop.var]} in [0, {format_index(loop.extent)}):{tag}")
        indent += "  "
    for p, phase in enumerate(kernel.phases):
        lines.extend(_format_phase(p, phase, indent, names, len(kernel.phases) > 1))
    for t, target in enumerate(kernel.targets):
        lines.append(f"  scatter target {t}: {target.buffer} ({target.combine}, {target.dtype}, "
                     f"{format_index(target.size)} at slot {format_index(target.offset)}), "
                     f"finished from {target.value} over:")
        lines.extend(_format_phase(t, target.init, "    ", names, False))
    return "\n".join(lines)


def _dim_text(d) -> str:
    return str(d) if isinstance(d, (int, str)) else f"n{d.index}"


def _format_phase(p, phase, indent, names, numbered):
    lines = []
    if numbered:
        what = "reduce" if phase.reductions else "map"
        lines.append(f"{indent}phase {p} ({what}):")
        indent += "  "
    row_indent = indent
    for red in phase.reductions:
        lines.append(f"{indent}{red.result}: {red.dtype} = {red.combine}.reduce over:")
    for loop in phase.inner:
        lines.append(f"{indent}for {names[loop.var]} in [0, {format_index(loop.extent)}):")
        indent += "  "
    for nested in phase.nested:
        lines.extend(_format_phase(p, nested, indent, names, False))
    for stmt in phase.body:
        lines.append(f"{indent}{_format_stmt(stmt, names)}")
    for red in phase.reductions:
        mask = f" where {red.mask}" if red.mask else ""
        at = f" at {red.index}" if red.index else ""
        lines.append(f"{indent}{red.result} <- {red.combine}({red.result}, {red.value}{at}){mask}")
    if phase.reductions:
        indent = row_indent             # a reduction's result is stored once per row
    for store in phase.stores:
        mask = f" where {store.mask}" if store.mask else ""
        part = f".{PARTS[store.part]}" if store.part is not None else ""
        lines.append(f"{indent}{store.buffer}[{format_index(store.index, names)}]{part} = "
                     f"{store.value}{mask}")
    for scatter in phase.scatters:
        mask = f" where {scatter.mask}" if scatter.mask else ""
        lines.append(f"{indent}target {scatter.target}[{scatter.index}] <- {scatter.value}{mask}")
    return lines


def _format_stmt(stmt: Stmt, names) -> str:
    if stmt.op == "load":
        part = f".{PARTS[stmt.args[1]]}" if len(stmt.args) == 3 else ""
        text = f"load {stmt.args[0]}[{format_index(stmt.args[-1], names)}]{part}"
    elif stmt.op == "index":
        text = f"index {format_index(stmt.args[0], names)}"
    elif stmt.op == "const":
        text = f"const {stmt.args[0]!r}"
    else:
        text = f"{stmt.op}({', '.join(str(a) for a in stmt.args)})"
    line = f"{stmt.name}: {stmt.dtype} = {text}"
    return f"{line:56s} # {stmt.origin}" if stmt.origin else line
