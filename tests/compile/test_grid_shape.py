"""compile.grid_shape: a kernel's GPU grid form, its parts and its index width."""
from __future__ import annotations

from lazynum.compile.grid_shape import (INDEX32_LIMIT, MAX_PARTS, THREADS, GridShape,
                                        grid_shape, index_bits, parts_for)

from ..backends.cuda.plans import CANONICAL, plan_of


def _forms(name):
    fn, *arrays = CANONICAL[name]
    return [grid_shape(k).form for k in plan_of(fn, *arrays).kernels]


def test_forms_follow_the_kernels_structure():
    assert _forms("fused_elementwise") == ["points"]
    assert _forms("row_softmax") == ["rows"]
    assert _forms("sum_axis0") == ["rows"]
    assert _forms("full_sum") == ["split"]


def test_threads_are_whole_warps():
    assert THREADS % 32 == 0 and GridShape("rows").threads == THREADS


def test_parts_depend_on_the_work_alone():
    split = GridShape("split", max_parts=MAX_PARTS)
    assert parts_for(0, split) == 1
    assert parts_for(THREADS * 4, split) == 1
    assert parts_for(THREADS * 4 + 1, split) == 2
    assert parts_for(10 ** 12, split) == MAX_PARTS


def test_index_width_is_32_bits_only_below_the_limit():
    assert index_bits([10, 2 ** 20, -5]) == 32
    assert index_bits([INDEX32_LIMIT - 1]) == 32
    assert index_bits([INDEX32_LIMIT]) == 64
    assert index_bits([3, -INDEX32_LIMIT]) == 64
    assert index_bits([]) == 32
