"""Loop-order decisions for one kernel, made before any backend sees it.

A renderer only renders: which order a kernel's loops run in, whether a full reduction
splits across threads and the block sizes of blocked accumulation are decided here, from
the kernel IR alone, and travel with the kernel as its ``LoopStrategy``.  The llvm
renderer (``backends/llvm/codegen``) writes the code each decision asks for; a GPU
renderer reads the same fields.

- *Column order* (``column_order``): a reduction over leading axes (``x.sum(axis=0)``,
  column statistics) runs with the reduced loops outside a block of ``column_block`` outer
  points, one accumulator each, so every row is read contiguously and the per-point loop
  vectorizes.  Extents are symbolic, so such kernels carry both orders and pick at run
  time: a thread with fewer than ``column_min`` points runs row order.
- *Short rows* (``short_rows``): a row-wise kernel (one outer loop; every phase a
  reduction or a map over the same one inner loop, or a per-row map: softmax, its
  backward, a cross-entropy over 10 classes) whose rows turn out shorter than
  ``short_rows`` at run time runs in column order too: a block of ``column_block`` rows at a
  time, each phase's inner loop outside and the rows inside, one accumulator per row.  A
  row of 10 float32 classes fills no vector (its loop runs as the vectorizer's scalar
  remainder, a vector math call per element); 64 rows side by side do.  Longer rows, or a
  thread with fewer than ``column_min`` rows, run in row order.
- *Split reductions* (``split_slots``): one reduction pass with no outer loop (``x.sum()``,
  a masked count and sum), followed only by per-result maps, splits its first loop across
  threads; each part leaves its accumulators in ``split_slots`` scratch slots (8 bytes
  each) and a finishing step combines the parts in order.
- *Clamp-free middle* (``clamp_ranges``): a map kernel whose innermost loop reads through
  clamped indexes (a write into a box reads its value clamped into the box:
  ``compile.lowering.KernelBuilder.region_index``) runs that loop in three parts: before,
  inside and after the range where every clamp of its variable is idle.  Inside, the
  renderer reads each clamp as its argument, so loads are contiguous and the loop
  vectorizes; the parts around it are the box's borders.
- *Private copies* (``scatter_copies_max``): a kernel with scatter targets
  (``kernel_ir.ScatterTarget``: bincount, add.at, histogram counts) splits its outer loop
  across threads, each part scattering into its own copy of the targets (initialized to the
  combine's identity), when all targets together take at most this many 8-byte slots;
  a finishing step combines base, part 0, part 1, ... in that order, so a result depends
  only on the number of parts.  Larger targets run as one part (one copy; a sum in NumPy's
  index order after the base).
- *Blocked float accumulation* (``float_block``): float32 sums and products combine each
  block of that many consecutive inner elements in their own type, and the block results
  in float64, so long float32 sums stay as accurate as NumPy's pairwise summation.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import index_expr as ix
from .kernel_ir import ARG_COMBINES

FLOAT_BLOCK = 1024
# A block of points spans a whole row where it can: a row split into blocks is read in
# strided pieces, one pass per block (one thread, column sums: (20000, 500) float64
# 9.8 -> 2.9 ms from 64 to 2048 points, NumPy 4.7 ms; (8192, 256) float32 0.53 -> 0.31
# ms, NumPy 0.34 ms).  Accumulators take 16 KiB a reduction at 2048 (float64).
COLUMN_BLOCK = 2048
# Short rows re-read their block once a phase: 256 rows of up to 16 points stay in L1
# (a (8192, 10) float32 softmax: 0.60 ms at 64 rows, 0.57 at 256, 0.75 at 2048).
SHORT_ROW_BLOCK = 256
COLUMN_MIN = 16          # fewer points per thread than this: row order
# Rows shorter than this run in column order (see the module docstring): 16 float32
# lanes, one AVX-512 vector; measured on a (8192, 10) float32 softmax: 1.6 ms in row
# order (numpy 1.2 ms).
SHORT_ROWS = 16
# Private copies up to 2**16 slots (512 KiB a part): they stay in a core's L2 while the
# points stream through; larger targets (a gradient scattered into a big array) would
# cost more to clear and combine than the parallel scatter saves.
SCATTER_COPIES_MAX = 1 << 16


@dataclass(frozen=True)
class LoopStrategy:
    """How a kernel's loops run (see the module docstring)."""
    column_order: bool = False
    split_slots: int = 0
    float_block: int = FLOAT_BLOCK
    column_block: int = COLUMN_BLOCK
    column_min: int = COLUMN_MIN
    clamp_ranges: tuple = ()    # (var, ((start, stop), ...)): where var's clamps are idle
    scatter_copies_max: int = 0     # kernels with scatter targets: see the module docstring
    short_rows: int = 0         # rows shorter than this run in column order (0: never)

    def describe(self) -> str:
        parts = []
        if self.clamp_ranges:
            parts.append("innermost loop split around its clamp-free middle")
        if self.column_order:
            parts.append(f"column order in blocks of {self.column_block} points "
                         f"(row order below {self.column_min} points a thread)")
        if self.short_rows:
            parts.append(f"rows shorter than {self.short_rows} in column order by blocks of "
                         f"{self.column_block} rows (row order below {self.column_min} rows a thread)")
        if self.split_slots:
            parts.append(f"split across threads ({self.split_slots} scratch slots a part)")
        if self.scatter_copies_max:
            parts.append(f"scatters into private copies per part (up to "
                         f"{self.scatter_copies_max} slots), combined in part order")
        return "; ".join(parts) or "row order"


def choose(kernel) -> LoopStrategy:
    """The strategy for ``kernel``."""
    if kernel.targets:          # (row order, no split reduction: the parts are the split)
        return LoopStrategy(clamp_ranges=clamp_ranges(kernel), scatter_copies_max=SCATTER_COPIES_MAX)
    columns = column_order(kernel)
    short = not columns and short_row_order(kernel)
    return LoopStrategy(column_order=columns, split_slots=split_slots(kernel),
                        clamp_ranges=clamp_ranges(kernel), short_rows=SHORT_ROWS if short else 0,
                        column_block=SHORT_ROW_BLOCK if short else COLUMN_BLOCK)


def clamp_ranges(kernel) -> tuple:
    """``(var, ranges)`` for a map kernel whose innermost loop ``var`` appears in clamps
    (``ix.clamp``), each ``clamp(var + rest, high)`` idle for ``var`` in ``[-rest,
    high - rest + 1)``; ``()`` when there is none, or one the split cannot serve (``var``
    under another clamp, a ``//`` or a ``%``, or with another coefficient)."""
    if not kernel.outer or any(p.reductions or p.inner for p in kernel.phases):
        return ()
    var = kernel.outer[-1].var
    clamps = set()
    for phase in kernel.phases:
        indexes = [s.args[-1] for s in phase.body if s.op in ("load", "index")]
        for index in indexes + [s.index for s in phase.stores]:
            clamps |= {a for a in ix.composite_atoms(index) if a[0] == "clamp"}
    ranges = []
    for _, argument, high in clamps:
        if ("v", var) not in ix.all_atoms(argument):
            continue
        split = ix.coefficient(argument, var)
        if split is None or split[0] != ix.as_index(1) or ("v", var) in ix.all_atoms(high):
            return ()
        rest = split[1]
        ranges.append((-rest, high - rest + 1))
    return (var, tuple(sorted(ranges, key=repr))) if ranges else ()


def _unit_stride(index: ix.Index, var: int) -> bool:
    return any(m == (("v", var),) and c == 1 for m, c in index.terms)


def column_order(kernel) -> bool:
    """Whether the kernel reduces over leading axes: one outer loop, phases that are
    reductions over inner loops or per-point maps, the first a reduction, and a load that
    is contiguous along the outer loop but not along any reduced loop (a column sum)."""
    if len(kernel.outer) != 1 or not kernel.phases or not kernel.phases[0].reductions:
        return False
    if any(r.combine in ARG_COMBINES for p in kernel.phases for r in p.reductions):
        return False                # arg-reductions keep row order (two accumulators each)
    if any(p.nested for p in kernel.phases):
        return False                # (a nested reduction per point: its loop is the inner one)
    if any(bool(phase.reductions) != bool(phase.inner) for phase in kernel.phases):
        return False
    outer = kernel.outer[0].var
    for phase in kernel.phases:
        if phase.reductions and _reads_columns(phase, outer):
            return True
    return False


def _reads_columns(phase, outer) -> bool:
    inner = [loop.var for loop in phase.inner]
    for stmt in phase.body:
        if stmt.op != "load" or not isinstance(stmt.args[-1], ix.Index):
            continue
        index = stmt.args[-1]
        touched = {a[1] for a in index.atoms() if a[0] == "v"}
        if (_unit_stride(index, outer) and touched & set(inner)
                and not any(_unit_stride(index, v) for v in inner)):
            return True
    return False


def short_row_order(kernel) -> bool:
    """Whether the kernel is row-wise in the form column order can run when its rows are
    short: one outer loop, every phase's inner loops the same one loop or none, reductions
    (no arg-reductions, none nested) only over that loop, no scatters."""
    if len(kernel.outer) != 1 or not kernel.phases:
        return False
    rows = [p.inner[0].extent for p in kernel.phases if p.inner]
    if not rows or any(r != rows[0] for r in rows) or any(len(p.inner) > 1 for p in kernel.phases):
        return False
    for phase in kernel.phases:
        if phase.nested or phase.scatters or (phase.reductions and not phase.inner):
            return False
        if any(r.combine in ARG_COMBINES for r in phase.reductions):
            return False
    return True


def split_slots(kernel) -> int:
    """Scratch slots per part when the kernel's work splits across threads, else 0 (the
    kernel runs whole, on one thread)."""
    if kernel.outer or not kernel.phases:
        return 0
    first, rest = kernel.phases[0], kernel.phases[1:]
    if not first.reductions or not first.inner or any(p.reductions or p.inner for p in rest):
        return 0
    return sum(2 if r.combine in ARG_COMBINES else 1 for r in first.reductions)
