"""The CUDA backend (issue 17, ``LAZYNUM_BACKEND=cuda``): CUDA C rendered from the same
plan and kernel IR the llvm backend renders, run through a device seam on a GPU (CuPy) or
on the CPU emulator.

- ``codegen``: kernel templates -> CUDA C (grid-stride maps, block-per-row reductions,
  split-plus-finish full reductions), in the forms ``compile.grid_shape`` decides;
- ``scalar_code`` and ``prelude.cuh``: the scalar ops with NumPy's semantics;
- ``capabilities``: what the renderer compiles (the scheduler's capability object);
- ``nvrtc``: CUDA C -> cubin (no driver needed);
- ``device``: the seam (alloc, copies, compile, launch, synchronize); ``cupy_device`` (a
  GPU through CuPy, not run on a GPU yet) and ``emulator`` (the same CUDA C on the CPU,
  ``emulator.h``: threads of a block as fibers) implement it, and ``comparing`` runs every
  launch on two devices and compares what each kernel wrote (a GPU against the emulator);
- ``runtime``: a plan's steps through the seam (``LAZYNUM_CUDA_DEVICE`` picks the device).

Backend contract (``lazynum.backends``): ``compile(cut)``; programs live in memory only
(``to_bytes`` raises TypeError, so the compile cache keeps them in memory).  Nothing here
imports CuPy at module level.  See docs/cuda.md.
"""
from __future__ import annotations

from .codegen import kernel_functions, render_kernel, render_module
from .runtime import compile  # noqa: A004 - the backend contract's name

NAME = "cuda"
ARTIFACT_VERSION = "cuda-program-1"


def load(data: bytes):
    """CUDA programs are not stored on disk (``Program.to_bytes`` refuses)."""
    raise ValueError("CUDA programs are kept in memory only")


__all__ = ["ARTIFACT_VERSION", "NAME", "compile", "kernel_functions", "load", "render_kernel",
           "render_module"]
