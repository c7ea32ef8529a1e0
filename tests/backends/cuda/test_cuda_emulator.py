"""The CPU emulator's execution model (``emulator.h``): barriers, warp shuffles, thread
orders, and the errors it raises where a GPU would hang or give undefined results.

The emulator compiles the CUDA C the renderer writes, unchanged; these tests also run
hand-written kernels through the same device seam, and a renderer's module with a
barrier of its block reduction deleted, to show that the scheduling orders expose it.
"""
from __future__ import annotations

import numpy as np
import pytest

import lazynum
from lazynum.backends.cuda import codegen
from lazynum.backends.cuda.device import LaunchError
from lazynum.backends.cuda.emulator import EmulatorDevice
from lazynum.runtime import compile_cache

from .plans import traced_always

WARP_SUMS = r'''
extern "C" __global__ void warp_sums(const double* __restrict__ x, double* __restrict__ out) {
  double v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
  if (threadIdx.x % 32 == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}
extern "C" __global__ void block_reverse(const int* __restrict__ x, int* __restrict__ out) {
  __shared__ int tile[1024];
  tile[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}
extern "C" __global__ void divergent_barrier(int* __restrict__ out) {
  if (threadIdx.x < 32) __syncthreads();
  out[threadIdx.x] = 1;
}
extern "C" __global__ void partial_shuffle(int* __restrict__ out) {
  int v = threadIdx.x;
  if (threadIdx.x % 32 < 16) v = __shfl_down_sync(0xffffffffu, v, 1);
  out[threadIdx.x] = v;
}
extern "C" __global__ void one_past_the_end(int* __restrict__ out) {
  out[threadIdx.x + 1] = 7;
}
'''
FUNCTIONS = ["warp_sums", "block_reverse", "divergent_barrier", "partial_shuffle",
             "one_past_the_end"]


@pytest.fixture(scope="module")
def device():
    return EmulatorDevice()


@pytest.fixture(scope="module")
def module(device):
    return device.compile(WARP_SUMS, FUNCTIONS)


@pytest.mark.parametrize("order", ["forward", "reversed", "99"])
def test_shuffles_and_barriers_give_cudas_results_in_every_order(device, module, order):
    x = np.arange(3 * 128, dtype=np.float64) ** 1.5
    sums = device.empty((3 * 4,), np.float64)
    ints = np.arange(3 * 128, dtype=np.int32)
    reversed_ = device.empty(ints.shape, np.int32)
    with lazynum.config(cuda_emulator_order=order):
        device.launch(module, "warp_sums", 3, 128, [device.to_device(x), sums])
        device.launch(module, "block_reverse", 3, 128, [device.to_device(ints), reversed_])
    np.testing.assert_allclose(device.to_host(sums), x.reshape(-1, 32).sum(axis=1), rtol=1e-15)
    np.testing.assert_array_equal(device.to_host(reversed_), ints.reshape(3, 128)[:, ::-1].ravel())


def test_a_barrier_some_threads_never_reach_is_an_error_not_a_hang(device, module):
    out = device.empty((64,), np.int32)
    with pytest.raises(LaunchError, match="barrier divergence"):
        device.launch(module, "divergent_barrier", 1, 64, [out])
    with pytest.raises(LaunchError, match="warp shuffle"):
        device.launch(module, "partial_shuffle", 1, 64, [out])
    device.launch(module, "block_reverse", 1, 32, [device.to_device(np.arange(32, dtype=np.int32)), out])


def test_a_write_outside_a_buffer_is_an_error(device, module):
    out = device.empty((32,), np.int32)
    with pytest.raises(LaunchError, match="argument 0 .* written outside its bounds"):
        device.launch(module, "one_past_the_end", 1, 32, [out])
    device.launch(module, "one_past_the_end", 1, 31, [device.empty((32,), np.int32)])


def test_an_argument_of_a_python_type_is_refused(device, module):
    with pytest.raises(TypeError, match="exact type"):
        device.launch(module, "divergent_barrier", 1, 32, [3])


# Barriers of prelude.cuh's lz_block_reduce, and the order that shows each one missing.
_FINAL = "    if (lane == 0) shared[0] = v;\n  }\n  __syncthreads();\n"
_WARPS_WRITTEN = "  if (lane == 0) shared[warp] = v;\n  __syncthreads();\n"


def _softmax_rows(x, order):
    compile_cache.clear_memory()
    with lazynum.config(backend="cuda", cuda_device="emulator", cuda_max_blocks=2,
                        cuda_emulator_order=order), traced_always():
        a = lazynum.asarray(x)
        e = lazynum.exp(a - a.max(axis=1, keepdims=True))
        return np.asarray(e / e.sum(axis=1, keepdims=True))


@pytest.mark.parametrize("barrier, catching_order", [
    (_FINAL, "reversed"),            # other warps read the result before warp 0 wrote it
    (_WARPS_WRITTEN, "forward"),     # warp 0 reads the warps' results before they wrote them
])
def test_a_deleted_barrier_of_the_block_reduction_changes_the_result(monkeypatch, barrier,
                                                                     catching_order):
    prelude = codegen.prelude()
    assert barrier in prelude
    monkeypatch.setattr(codegen, "prelude", lambda: prelude.replace(
        barrier, barrier.replace("  __syncthreads();\n", "")))
    x = np.random.default_rng(5).standard_normal((5, 700))
    e = np.exp(x - x.max(axis=1, keepdims=True))
    want = e / e.sum(axis=1, keepdims=True)
    got = _softmax_rows(x, catching_order)
    assert np.abs(got - want).max() > 1e-3
    monkeypatch.undo()
    np.testing.assert_allclose(_softmax_rows(x, catching_order), want, rtol=1e-13)
