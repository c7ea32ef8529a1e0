"""The CUDA backend (issue 17), first stage: CUDA C rendered from the same plan and kernel
IR the llvm backend renders, verified by compiling every kernel through NVRTC.

- ``codegen``: kernel templates -> CUDA C (grid-stride maps, block-per-row reductions,
  split-plus-finish full reductions), in the forms ``compile.grid_shape`` decides;
- ``scalar_code`` and ``prelude.cuh``: the scalar ops with NumPy's semantics;
- ``capabilities``: what the renderer compiles (the scheduler's capability object);
- ``nvrtc``: CUDA C -> cubin (no driver needed);
- ``runtime``: the host side over CuPy, written against CuPy's documented API and **not
  yet run on a device** (see docs/cuda.md).

``LAZYNUM_BACKEND=cuda`` is not selectable yet: ``control.settings.PLANNED_BACKENDS``.
Nothing here imports CuPy at module level.
"""
from __future__ import annotations

from .codegen import kernel_functions, render_kernel, render_module

__all__ = ["kernel_functions", "render_kernel", "render_module"]
