"""``comparing.ComparingDevice``: every launch on two devices, what each kernel wrote
compared.  On a GPU it is the GPU against the emulator; here two emulators, one of them
compiling a module with a barrier deleted, show that it names the kernel that differs."""
from __future__ import annotations

import numpy as np

import lazynum
from lazynum.backends.cuda import runtime
from lazynum.backends.cuda.comparing import ComparingDevice, difference
from lazynum.backends.cuda.emulator import EmulatorDevice
from lazynum.runtime import compile_cache

from .plans import traced_always

_FINAL_BARRIER = "    if (lane == 0) shared[0] = v;\n  }\n  __syncthreads();\n"


class _WithoutFinalBarrier(EmulatorDevice):
    """An emulator compiling every module with lz_block_reduce's last barrier deleted."""

    def compile(self, source, functions):
        assert _FINAL_BARRIER in source
        return super().compile(source.replace(_FINAL_BARRIER, _FINAL_BARRIER.replace(
            "  __syncthreads();\n", "")), functions)


def _program(m, x, i):
    e = m.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True), (x * 2.0 + 1.0).T, m.bincount(i, minlength=7), x.sum()


def _run_on(device, monkeypatch):
    monkeypatch.setitem(runtime._devices, "emulator", device)
    rng = np.random.default_rng(3)
    x, i = rng.standard_normal((5, 600)), rng.integers(0, 7, 900)
    compile_cache.clear_memory()
    with lazynum.config(backend="cuda", cuda_device="emulator", cuda_max_blocks=2,
                        cuda_emulator_order="reversed"), traced_always():
        results = _program(lazynum, *map(lazynum.asarray, (x, i)))
        lazynum.sync(*results)
        program = compile_cache.most_recent().program
    for got, want in zip(results, _program(np, x, i)):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)
    return program


def test_equal_devices_agree_on_every_kernel(monkeypatch):
    device = ComparingDevice(EmulatorDevice(), EmulatorDevice())
    program = _run_on(device, monkeypatch)
    assert set(device.differences) == set(program.functions)
    assert all(d == 0.0 for d in device.differences.values()), device.differences


def test_the_kernel_that_differs_is_named(monkeypatch):
    device = ComparingDevice(EmulatorDevice(), _WithoutFinalBarrier())
    program = _run_on(device, monkeypatch)      # results are the primary's: still right
    differing = {f for f, d in device.differences.items() if d > 1e-6}
    softmax = [f for f in program.functions if program.shapes.get(f) and program.shapes[f].form == "rows"]
    assert differing and differing <= set(softmax)


def test_difference_treats_nans_and_integers():
    assert difference(np.array([1.0, np.nan]), np.array([1.0, np.nan])) == 0.0
    assert difference(np.array([1.0, 2.0]), np.array([1.0, np.nan])) == np.inf
    assert difference(np.array([3.0]), np.array([2.0])) == 0.5
    assert difference(np.array([1, 2]), np.array([1, 3])) == 1.0
