"""The device seam's GPU implementation: CuPy (``LAZYNUM_CUDA_DEVICE=cupy``, the default).

Memory comes from CuPy's memory pool (``cupy.empty``); a module is the cubin
``nvrtc.compile_cubin`` makes with the runtime's options (no ``-ftz=true`` appended, as
CuPy's own compile would), loaded with ``cupy.RawModule(path=...)``; launches go to CuPy's
current stream, and only ``synchronize`` waits for them.  CuPy is imported when this
device is made, never at module import.  Not run on a GPU yet (docs/cuda.md).
"""
from __future__ import annotations

import hashlib
import os
import tempfile

from . import nvrtc
from .device import Device, DeviceUnavailable


class CupyDevice(Device):
    """A GPU through CuPy (see the module docstring)."""
    name = "cupy"

    def __init__(self):
        try:
            import cupy
        except ImportError as exc:
            raise DeviceUnavailable(
                "LAZYNUM_BACKEND=cuda needs CuPy for the GPU (pip install -e '.[cuda]'), or "
                f"LAZYNUM_CUDA_DEVICE=emulator to run on the CPU emulator ({exc})") from None
        try:
            count = cupy.cuda.runtime.getDeviceCount()
        except Exception as exc:    # noqa: BLE001 - CUDARuntimeError: no driver, no device
            raise DeviceUnavailable(
                f"LAZYNUM_BACKEND=cuda: no usable GPU (CUDA driver or device missing: {exc}); "
                "LAZYNUM_CUDA_DEVICE=emulator runs the same kernels on the CPU emulator") from None
        if count == 0:
            raise DeviceUnavailable("LAZYNUM_BACKEND=cuda: the CUDA driver reports no GPU")
        self.cupy = cupy
        self.arch = f"sm_{cupy.cuda.Device().compute_capability}"    # ('90': sm_90)
        self._folder = tempfile.mkdtemp(prefix="lazynum-cubin-")
        self._modules: dict = {}

    def empty(self, shape, dtype):
        return self.cupy.empty(shape, dtype)

    def to_device(self, array):
        return self.cupy.array(array, order="C", copy=True)

    def to_host(self, buffer):
        return self.cupy.asnumpy(buffer)

    def compile(self, source: str, functions):
        key = hashlib.blake2b(source.encode(), digest_size=16).hexdigest()
        module = self._modules.get(key)
        if module is None:
            cubin = nvrtc.compile_cubin(source, self.arch)
            path = os.path.join(self._folder, f"{len(self._modules)}.cubin")
            with open(path, "wb") as f:
                f.write(cubin)
            module = self._modules[key] = self.cupy.RawModule(path=path)
        return module

    def launch(self, module, function: str, grid: int, block: int, args) -> None:
        module.get_function(function)((grid,), (block,), tuple(args))

    def synchronize(self) -> None:
        self.cupy.cuda.get_current_stream().synchronize()
