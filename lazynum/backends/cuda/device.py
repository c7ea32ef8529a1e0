"""The device seam: everything the CUDA runtime asks of a device, in six calls.

``Device`` is the interface; ``runtime.current_device()`` gives the one
``LAZYNUM_CUDA_DEVICE`` selects:
- ``cupy_device.CupyDevice`` (``cupy``, the default): a GPU through CuPy: memory from CuPy's pool,
  modules the cubin ``nvrtc.compile_cubin`` makes loaded with ``cupy.RawModule``, launches
  on CuPy's current stream.  CuPy is imported only here, only when selected.
- ``emulator.EmulatorDevice`` (``emulator``): the same CUDA C compiled for the host, threads
  of a block as fibers (``emulator.h``).

The runtime (``runtime.py``) uses nothing else, so one code path drives both: what the
emulator runs is what the GPU would run, launch for launch.  Kernel arguments follow the
rendered signatures: device arrays for pointers, NumPy scalars of the parameter's exact
type for values (CuPy passes a Python int as int64 whatever the parameter is).
"""
from __future__ import annotations



class DeviceUnavailable(RuntimeError):
    """``LAZYNUM_BACKEND=cuda`` cannot run here; the message names what is missing."""


class LaunchError(RuntimeError):
    """A module did not compile or a launch failed (the message says which and why)."""


class Device:
    """What the runtime needs from a device (see the module docstring).

    Attributes: ``name``; ``arch`` (part of a module's cache key); ``default_max_blocks``
    (the most blocks a launch uses when ``LAZYNUM_CUDA_MAX_BLOCKS`` is 0; None: as many as
    the work needs).
    """
    name = "device"
    arch = ""
    default_max_blocks = None

    def empty(self, shape, dtype):
        """An uninitialized device array."""
        raise NotImplementedError

    def to_device(self, array):
        """A C-contiguous device copy of host array ``array``."""
        raise NotImplementedError

    def to_host(self, buffer):
        """A host (NumPy) copy of device array ``buffer``."""
        raise NotImplementedError

    def compile(self, source: str, functions):
        """The module of CUDA C ``source`` holding ``functions`` (names)."""
        raise NotImplementedError

    def launch(self, module, function: str, grid: int, block: int, args) -> None:
        """Launch ``function`` of ``module`` on ``grid`` blocks of ``block`` threads."""
        raise NotImplementedError

    def synchronize(self) -> None:
        """Wait until every launch so far has finished."""
        raise NotImplementedError
