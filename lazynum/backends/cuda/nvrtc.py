"""CUDA C -> cubin through NVRTC, called directly (ctypes on ``libnvrtc``).

One compile path for tests and the runtime: ``compile_cubin(source, arch)`` with
``OPTIONS``, so the tests that compile every generated kernel compile exactly what a
device would load.  NVRTC needs no driver and no GPU.  The library comes from the
``nvidia-cuda-nvrtc`` wheel (``nvidia/cu13/lib/libnvrtc.so.13``), else the system's
(``LAZYNUM_NVRTC`` names a file to use instead).

Options: C++17 (lambdas for the reduction combines), ``--fmad=false`` (``a*b + c`` rounds
twice, as NumPy's loops do; the kernels are memory-bound, so contraction buys little),
denormals kept (``-ftz=false``) and IEEE division and square root (NVRTC's defaults,
stated so a change of defaults cannot change results).
"""
from __future__ import annotations

import ctypes
import glob
import os
import threading

OPTIONS = ("--std=c++17", "--fmad=false", "-ftz=false", "-prec-div=true", "-prec-sqrt=true",
           "--device-as-default-execution-space")
ARCHITECTURES = ("sm_90", "sm_80")
_lock = threading.Lock()
try:                            # the nvidia-cuda-nvrtc wheel (a namespace package)
    import nvidia as _nvidia_wheels
    _WHEEL_ROOTS = list(_nvidia_wheels.__path__)
except ImportError:
    _WHEEL_ROOTS = []
_library = None


class NvrtcUnavailable(RuntimeError):
    """No NVRTC library could be loaded (install ``nvidia-cuda-nvrtc``)."""


class CompileError(RuntimeError):
    """NVRTC refused the source; the message holds its log."""


def _candidates() -> list:
    named = os.environ.get("LAZYNUM_NVRTC")
    if named:
        return [named]
    found = []
    for root in _WHEEL_ROOTS:
        found += sorted(glob.glob(os.path.join(root, "cu*", "lib", "libnvrtc.so*")))
    found = [f for f in found if "builtins" not in f]
    return found + ["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"]


def library() -> ctypes.CDLL:
    """The loaded NVRTC library; ``NvrtcUnavailable`` naming what was tried."""
    global _library
    with _lock:
        if _library is None:
            tried = []
            for path in _candidates():
                try:
                    _library = ctypes.CDLL(path)
                    break
                except OSError as exc:
                    tried.append(f"{path} ({exc})")
            else:
                raise NvrtcUnavailable("no NVRTC library: pip install nvidia-cuda-nvrtc "
                                       f"(tried {'; '.join(tried)})")
        return _library


def version() -> tuple:
    """NVRTC's (major, minor)."""
    major, minor = ctypes.c_int(), ctypes.c_int()
    _check(library().nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)), "nvrtcVersion")
    return major.value, minor.value


def _check(status: int, what: str) -> None:
    if status != 0:
        lib = library()
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        raise CompileError(f"{what}: {lib.nvrtcGetErrorString(status).decode()}")


def compile_cubin(source: str, arch: str = "sm_90", options=OPTIONS,
                  name: str = "lazynum.cu") -> bytes:
    """The cubin of ``source`` for ``arch`` (``sm_90``); ``CompileError`` with NVRTC's log."""
    return compile_with_log(source, arch, options, name)[0]


def compile_with_log(source: str, arch: str = "sm_90", options=OPTIONS,
                     name: str = "lazynum.cu") -> tuple:
    """``(cubin, log)``: NVRTC's log holds ptxas' report when ``options`` ask for it
    (``--ptxas-options=-v``: registers and spill stores per kernel)."""
    lib = library()
    program = ctypes.c_void_p()
    _check(lib.nvrtcCreateProgram(ctypes.byref(program), source.encode(), name.encode(), 0,
                                  None, None), "nvrtcCreateProgram")
    try:
        flags = [f"--gpu-architecture={arch}".encode()] + [o.encode() for o in options]
        status = lib.nvrtcCompileProgram(program, len(flags), (ctypes.c_char_p * len(flags))(*flags))
        if status != 0:
            raise CompileError(f"NVRTC failed for {arch}:\n{_log(lib, program)}")
        size = ctypes.c_size_t()
        _check(lib.nvrtcGetCUBINSize(program, ctypes.byref(size)), "nvrtcGetCUBINSize")
        cubin = ctypes.create_string_buffer(size.value)
        _check(lib.nvrtcGetCUBIN(program, cubin), "nvrtcGetCUBIN")
        return cubin.raw, _log(lib, program)
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(program))


def _log(lib, program) -> str:
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(program, log)
    return log.value.decode(errors="replace")
