"""The CPU emulator behind the device seam (``LAZYNUM_CUDA_DEVICE=emulator``).

It compiles the same CUDA C the GPU would load (``codegen.render_module``: prelude and
kernels, unchanged) with the host's C++ compiler, behind ``emulator.h``, a header that
defines CUDA's execution model: grid and block indices, ``__shared__`` memory,
``__syncthreads`` and warp shuffles, with the threads of a block as cooperative fibers
(see the header for the model and docs/cuda.md for what it cannot reproduce).  Device
memory is host memory that only this device hands out (``EmulatedArray``): inputs are
copied in and results copied out, as they would be to and from a GPU, so a host array
never aliases a device one.

Compiled modules are shared objects in a per-process temporary directory, cached in
memory by a digest of the full source, the compiler and its flags.
"""
from __future__ import annotations

import atexit
import ctypes
import hashlib
import os
import pathlib
import shutil
import subprocess
import tempfile
import threading
from importlib import resources

import numpy as np

from ...control import settings
from .device import Device, DeviceUnavailable, LaunchError

FLAGS = ("-std=c++17", "-O1", "-fPIC", "-shared", "-ffp-contract=off", "-fno-fast-math",
         "-U_FORTIFY_SOURCE", "-w")
ORDERS = {"forward": 0, "reversed": 1}      # else an integer: a seeded order (mode 2)
DEFAULT_MAX_BLOCKS = 4      # the emulator's grid cap when LAZYNUM_CUDA_MAX_BLOCKS is 0
# One launch at a time in the process: a module's scheduler state is global to its shared
# object, and two devices compiling the same text load the same one.
_LAUNCH_LOCK = threading.Lock()


GUARD = 64                  # canary bytes on each side of every device buffer
CANARY = 0xA5


class EmulatedArray:
    """A buffer of the emulator's device memory: ``data`` (a C-contiguous host array) in
    the middle of ``raw``, between two ``GUARD``-byte runs of ``CANARY`` that ``intact``
    checks after each launch (a kernel writing outside its buffer is an error here, where
    a GPU would corrupt memory silently)."""
    __slots__ = ("data", "raw")

    def __init__(self, shape, dtype):
        dtype = np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        self.raw = np.full(nbytes + 2 * GUARD, CANARY, np.uint8)
        self.data = self.raw[GUARD:GUARD + nbytes].view(dtype).reshape(shape)

    def intact(self) -> bool:
        return bool((self.raw[:GUARD] == CANARY).all() and (self.raw[-GUARD:] == CANARY).all())

    @property
    def shape(self) -> tuple:
        return self.data.shape

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    @property
    def ptr(self) -> int:
        return self.data.ctypes.data


class EmulatorModule:
    """A compiled module: the shared object and each kernel's launcher."""

    def __init__(self, path: pathlib.Path, functions):
        self.library = ctypes.CDLL(str(path))
        self.launchers = {name: ctypes.cast(getattr(self.library, f"lz_emu_launcher_{name}"),
                                            ctypes.c_void_p) for name in functions}
        self.library.lz_emu_launch.restype = ctypes.c_int
        self.library.lz_emu_launch.argtypes = (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint,
                                               ctypes.c_uint, ctypes.c_int, ctypes.c_ulonglong)
        self.library.lz_emu_last_error.restype = ctypes.c_char_p
        self.library.lz_emu_switch_count.restype = ctypes.c_ulonglong


class EmulatorDevice(Device):
    """The device seam's CPU implementation (see the module docstring)."""
    name = "emulator"
    default_max_blocks = DEFAULT_MAX_BLOCKS

    def __init__(self):
        self.compiler = _compiler()
        self.arch = f"emulator-{_compiler_id(self.compiler)}"
        self._modules: dict = {}
        self._lock = threading.Lock()       # (this device's module table)
        self.launches = 0                   # kernel launches so far (tests count them)

    # -- memory ---------------------------------------------------------------------------
    def empty(self, shape, dtype) -> EmulatedArray:
        return EmulatedArray(shape, dtype)

    def to_device(self, array) -> EmulatedArray:
        array = np.asarray(array)
        buffer = EmulatedArray(array.shape, array.dtype)
        buffer.data[...] = array
        return buffer

    def to_host(self, buffer: EmulatedArray) -> np.ndarray:
        return buffer.data.copy()

    # -- code -------------------------------------------------------------------------------
    def compile(self, source: str, functions) -> EmulatorModule:
        text = "\n".join([header(), source, ""] + [f"LZ_EMU_LAUNCHER({f})" for f in functions])
        digest = hashlib.blake2b((text + "|" + self.arch + "|" + " ".join(FLAGS)).encode(),
                                 digest_size=16).hexdigest()
        with self._lock:
            module = self._modules.get(digest)
            if module is None:
                module = self._modules[digest] = EmulatorModule(self._build(text, digest), functions)
        return module

    def _build(self, text: str, digest: str) -> pathlib.Path:
        folder = _module_folder()
        target = folder / f"{digest}.so"
        if target.exists():
            return target
        source = folder / f"{digest}.{os.getpid()}.cpp"
        source.write_text(text)
        partial = folder / f"{digest}.{os.getpid()}.so"
        done = subprocess.run([self.compiler, *FLAGS, str(source), "-o", str(partial)],
                              capture_output=True, text=True)
        source.unlink()
        if done.returncode != 0:
            raise LaunchError(f"the host compiler refused the emulated module:\n{done.stderr[-4000:]}")
        os.replace(partial, target)     # (atomic: a concurrent build writes the same bytes)
        return target

    def launch(self, module: EmulatorModule, function: str, grid: int, block: int, args) -> None:
        values = [_argument(a) for a in args]
        pointers = (ctypes.c_void_p * max(len(values), 1))(*[ctypes.addressof(v) for v in values])
        mode, seed = _order()
        with _LAUNCH_LOCK:
            ok = module.library.lz_emu_launch(module.launchers[function], pointers, grid, block,
                                              mode, seed)
            self.launches += 1
            if not ok:
                raise LaunchError(f"emulated launch of {function} ({grid} blocks of {block} "
                                  f"threads): {module.library.lz_emu_last_error().decode()}")
        for position, a in enumerate(args):
            if isinstance(a, EmulatedArray) and not a.intact():
                raise LaunchError(f"emulated launch of {function}: argument {position} "
                                  f"({a.dtype}{list(a.shape)}) was written outside its bounds")

    def synchronize(self) -> None:
        """Launches run to completion when called: nothing is in flight."""


def _argument(value):
    """A ctypes object holding one kernel argument's value (cuLaunchKernel's convention:
    the launcher reads each argument through a pointer to it)."""
    if isinstance(value, EmulatedArray):
        return ctypes.c_void_p(value.ptr)
    if isinstance(value, np.generic):
        return ctypes.create_string_buffer(value.tobytes(), max(value.itemsize, 1))
    raise TypeError(f"a kernel argument is a device array or a NumPy scalar of the parameter's "
                    f"exact type, not {type(value).__name__}")


def _order() -> tuple:
    text = settings.get().cuda_emulator_order
    if text in ORDERS:
        return ORDERS[text], 0
    return 2, int(text)


def header() -> str:
    """The text of ``emulator.h`` (the CUDA execution model for the host compiler)."""
    return resources.files(__package__).joinpath("emulator.h").read_text()


def _compiler() -> str:
    for name in (os.environ.get("CXX"), "g++", "clang++", "c++"):
        if name and shutil.which(name):
            return shutil.which(name)
    raise DeviceUnavailable("LAZYNUM_CUDA_DEVICE=emulator needs a C++17 compiler on PATH "
                            "(g++ or clang++, or the one CXX names)")


_ids: dict = {}


def _compiler_id(compiler: str) -> str:
    if compiler not in _ids:
        version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout
        _ids[compiler] = hashlib.blake2b(version.encode(), digest_size=6).hexdigest()
    return _ids[compiler]


_folder: list = []


def _module_folder() -> pathlib.Path:
    """Where compiled modules live: a temporary directory of this process, removed at exit
    (shared objects are native code: a directory other processes could write would be a
    way in, and the emulator is a verification tool, so it does not persist them)."""
    if not _folder:
        _folder.append(pathlib.Path(tempfile.mkdtemp(prefix="lazynum-cuda-emulator-")))
        atexit.register(shutil.rmtree, _folder[0], True)
    return _folder[0]
