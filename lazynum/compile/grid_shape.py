"""How a kernel maps onto a grid of thread blocks: the decisions a GPU renderer reads.

A renderer only renders (``compile.loop_strategy`` holds the CPU's loop-order decisions);
this module decides, from the kernel IR alone, what a GPU backend needs beyond them:

- *The form* (``GridShape.form``):
  ``"points"``: a map kernel (outer loops, no inner loops, no reductions): every thread
  of the grid strides over the flattened outer index (a grid-stride loop), so any grid
  size covers any extent;
  ``"rows"``: a kernel whose phases have inner loops or reductions (``x.sum(axis=1)``,
  softmax, layernorm, a column sum): one block per point of the flattened outer loops
  (blocks stride over rows), the block's threads stride over each phase's flattened inner
  loops, and each reduction is per-thread accumulators, then warp shuffles, then shared
  memory, in a fixed tree (reproducible for a block size);
  ``"split"``: a full reduction (``LoopStrategy.split_slots``: one reduction pass with no
  outer loop): a part kernel whose blocks each reduce a grid-strided slice of the pass into
  ``split_slots`` 8-byte scratch slots, and a one-block finishing kernel that combines the
  parts in a fixed tree (no float atomics: the same input gives the same bits);
  ``"scatter"``: a kernel with scatter targets (the CUDA renderer writes one thread per part,
  in order, no atomics: deterministic, not yet fast; scatters from a phase with inner loops
  are not rendered).
- *Threads per block* (``threads``) and, for ``"split"``, the most parts (``max_parts``):
  a fixed number, so a result depends on the input only, never on the device.
- *Index width* (``index_bits``): 32-bit index arithmetic when every element count and
  extent a launch touches is below ``INDEX32_LIMIT``, else 64-bit.  It is decided per
  launch from run-time sizes, so it belongs in a compiled program's cache key.
"""
from __future__ import annotations

from dataclasses import dataclass

# 2**30, not 2**31: an index is a sum of terms that may have mixed signs (a reversed view
# reads ``offset - i``), so its partial sums need a factor of 2 of headroom in an int32.
INDEX32_LIMIT = 1 << 30
THREADS = 256           # a multiple of the warp size (32): block reductions assume it
MAX_PARTS = 1024        # the finishing block combines at most this many parts


@dataclass(frozen=True)
class GridShape:
    """How one kernel runs on a grid (see the module docstring)."""
    form: str
    threads: int = THREADS
    max_parts: int = 0


def grid_shape(kernel) -> GridShape:
    """The grid form of ``kernel`` (a ``kernel_ir.Kernel`` with its ``strategy`` set)."""
    if kernel.targets:
        return GridShape("scatter")
    if kernel.strategy is not None and kernel.strategy.split_slots:
        return GridShape("split", max_parts=MAX_PARTS)
    if kernel.outer and not any(p.inner or p.reductions for p in kernel.phases):
        return GridShape("points")
    return GridShape("rows")


def parts_for(work: int, shape: GridShape) -> int:
    """How many parts a ``"split"`` kernel runs for ``work`` points: enough that each
    thread has a few points, at most ``max_parts``; a function of ``work`` alone."""
    per_part = shape.threads * 4
    return max(1, min(shape.max_parts, -(-work // per_part)))


def index_bits(counts) -> int:
    """32 when every element count / extent in ``counts`` (ints) is below
    ``INDEX32_LIMIT``, else 64."""
    return 32 if all(abs(int(c)) < INDEX32_LIMIT for c in counts) else 64
