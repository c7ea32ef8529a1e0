"""Every kernel the CUDA renderer writes for the canonical programs compiles through NVRTC
for sm_90 and sm_80 with the runtime's options (``nvrtc.OPTIONS``), at both index widths,
and ptxas reports no spills.  NVRTC needs no GPU and no driver: the ``nvidia-cuda-nvrtc``
wheel of the ``test`` extra provides it."""
from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from lazynum.backends.cuda import kernel_functions, render_module
from lazynum.backends.cuda import nvrtc
from lazynum.backends.cuda.codegen import UnsupportedKernel, render_kernel
from lazynum.compile.grid_shape import grid_shape

from .plans import CANONICAL, plan_of

_plans: dict = {}


def _plan(name):
    if name not in _plans:
        fn, *arrays = CANONICAL[name]
        _plans[name] = plan_of(fn, *arrays)
    return _plans[name]


def test_nvrtc_is_installed_and_recent():
    assert nvrtc.version() >= (12, 0)


@pytest.mark.parametrize("name", sorted(CANONICAL))
def test_every_kernel_compiles_for_sm90_and_sm80(name):
    plan = _plan(name)
    assert plan.kernels, f"{name}: no kernel to compile"
    for bits in (32, 64):
        source = render_module(plan.kernels, bits)
        for arch in nvrtc.ARCHITECTURES:
            cubin = nvrtc.compile_cubin(source, arch)
            assert cubin[:4] == b"\x7fELF"
            for kernel in plan.kernels:      # every function the runtime launches is there
                for function, _ in kernel_functions(kernel):
                    assert function.encode() in cubin


@pytest.mark.parametrize("name", ["fused_elementwise", "black_scholes", "black_scholes_f32",
                                  "row_softmax", "layernorm_f32", "argmax_axis1",
                                  "full_max_and_mean", "transposed_view",
                                  "int_floor_divide_modulo"])
def test_canonical_kernels_do_not_spill(name):
    source = render_module(_plan(name).kernels, 64)
    _, log = nvrtc.compile_with_log(source, "sm_90", nvrtc.OPTIONS + ("--ptxas-options=-v",))
    reports = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
    assert reports, log
    assert all(stores == "0" and loads == "0" for stores, loads in reports), log


def test_a_compile_error_carries_nvrtc_log():
    with pytest.raises(nvrtc.CompileError, match="undefined"):
        nvrtc.compile_cubin('extern "C" __global__ void k() { missing_name(); }')


def test_the_canonical_programs_cover_every_grid_form():
    forms = {grid_shape(k).form for name in CANONICAL for k in _plan(name).kernels}
    assert forms == {"points", "rows", "split", "scatter"}


def test_a_scatter_from_a_phase_with_inner_loops_is_refused_by_name():
    plan = _plan("bincount_weights")
    (kernel,) = [k for k in plan.kernels if k.targets]
    phase = next(p for p in kernel.phases if p.scatters)
    broken = dataclasses.replace(kernel, phases=[dataclasses.replace(phase, inner=kernel.outer)])
    broken.strategy = kernel.strategy
    with pytest.raises(UnsupportedKernel, match="scatters from a phase with inner loops"):
        render_kernel(broken)
