"""Golden texts: the CUDA C the renderer writes for canonical plans, compared line by line.

A changed text is a changed kernel: read the diff, and when it is intended regenerate with
``LAZYNUM_UPDATE_GOLDEN=1 python -m pytest tests/backends/cuda/test_cuda_golden.py``.
(The plans come from the scheduler and the lowering, so a change there shows up here too.)
"""
from __future__ import annotations

import os
import pathlib

import pytest

from lazynum.backends.cuda import render_kernel

from .plans import CANONICAL, plan_of

GOLDEN = pathlib.Path(__file__).parent / "golden"
NAMES = ["fused_elementwise_f32", "row_softmax_f32", "argmax_axis1", "full_max_and_mean",
         "transposed_view", "int32_floor_divide_modulo", "bool_masks", "casts", "sum_axis0",
         "kmeans_sums"]


def _text(name) -> str:
    fn, *arrays = CANONICAL[name]
    kernels = plan_of(fn, *arrays).kernels
    return "\n\n".join(render_kernel(k) for k in kernels) + "\n"


@pytest.mark.parametrize("name", NAMES)
def test_generated_cuda_matches_its_golden_text(name):
    path = GOLDEN / f"{name}.cu"
    text = _text(name)
    if os.environ.get("LAZYNUM_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert text.splitlines() == path.read_text().splitlines()


def test_kernels_name_the_users_ops_in_comments():
    text = _text("row_softmax_f32")
    for op in ("reduce_max", "subtract", "exp", "reduce_sum", "divide"):
        assert f"// {op}" in text or f"//   from {op}" in text
    assert "expf(" in text                   # float32 math stays float32
    assert "const float* __restrict__ in0" in text


def test_index_width_is_the_modules_choice():
    from lazynum.backends.cuda import render_module
    fn, *arrays = CANONICAL["transposed_view"]
    kernels = plan_of(fn, *arrays).kernels
    assert "typedef lz_i32 lz_idx;" in render_module(kernels, 32)
    assert "typedef lz_i64 lz_idx;" in render_module(kernels, 64)
    with pytest.raises(ValueError):
        render_module(kernels, 16)
