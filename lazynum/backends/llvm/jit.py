"""LLVM in-process: target machine for the host, O3 with the new pass manager, MCJIT.

llvmlite 0.50 (LLVM 22): there is no ``llvm.binding.initialize()``; native target and asm
printer are initialized once.  The optimizer is the new pass manager's default O3
pipeline for the host CPU and its features.  Transcendentals reach libmvec through
``vector_math`` (one variant per function and dtype, named in each call's
``vector-function-abi-variant``), so the vector body, the remainder and every thread compute
an element alike; ``use_libmvec`` maps the intrinsics the vectorizer leaves behind.
Object code holds no run-time addresses, so it can be stored and reloaded; ``load_object``
bounds-checks it (``object_check``) before LLVM reads it, since LLVM's loader crashes the
process on truncated object code.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import functools
import re
import sys
import threading

import llvmlite.binding as llvm

from .object_check import check as check_object

LIBMVEC = "libmvec.so.1"
# LLVM work (parsing into the global context, optimizing, emitting, linking) runs one call at
# a time: a background compile (runtime.compile_cache) and a sync's own may overlap.
_lock = threading.RLock()


@functools.lru_cache(maxsize=None)
def _initialized() -> bool:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    try:
        llvm.load_library_permanently(ctypes.util.find_library("mvec") or LIBMVEC)
        llvm.set_option("lazynum", "-vector-library=LIBMVEC")
        has_mvec = True
    except RuntimeError:
        has_mvec = False     # no libmvec: transcendentals stay scalar libm calls
    ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6", mode=ctypes.RTLD_GLOBAL)
    return has_mvec


def new_target_machine():
    """A target machine for the host CPU and its features (AVX2/AVX-512 where present).

    An MCJIT engine takes ownership of the one it is given, so each engine gets its own.
    The large code model: objects are loaded by separate engines at addresses that may be
    more than 2 GB apart (from each other, from libm/libmvec, from their constants), and
    the small model's 32-bit PC-relative relocations would abort LLVM's RuntimeDyld
    (``isInt<32>(RealOffset)``) after enough compiles in one process.
    """
    _initialized()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    return target.create_target_machine(cpu=llvm.get_host_cpu_name(),
                                        features=llvm.get_host_cpu_features().flatten(),
                                        opt=3, reloc="pic", codemodel="large")


@functools.lru_cache(maxsize=None)
def target_machine():
    """The shared target machine for optimizing and emitting object code."""
    return new_target_machine()


@functools.lru_cache(maxsize=None)
def host_has(feature: str) -> bool:
    """Whether this CPU has ``feature`` (an LLVM feature name, e.g. ``f16c``)."""
    _initialized()
    return llvm.get_host_cpu_features().get(feature, False)


def toolchain_id() -> str:
    """What object code depends on: LLVM version, CPU and its features (a cache key part)."""
    _initialized()
    return (f"llvm{'.'.join(map(str, llvm.llvm_version_info))}:{llvm.get_process_triple()}:"
            f"{llvm.get_host_cpu_name()}:{llvm.get_host_cpu_features().flatten()}")


def optimize(text: str):
    """Parse and verify ``text``; run the O3 pipeline; return the optimized module."""
    tm = target_machine()
    module = llvm.parse_assembly(text)
    module.verify()
    pto = llvm.create_pipeline_tuning_options(speed_level=3)
    pto.loop_vectorization = True
    pto.slp_vectorization = True
    pto.loop_interleaving = True
    pto.loop_unrolling = True
    builder = llvm.create_pass_builder(tm, pto)
    pm = builder.getModulePassManager()
    pm.run(module, builder)
    return module


class Machine:
    """Loaded object code: the addresses of its kernels (kept alive with the engine)."""

    def __init__(self, engine, names):
        self.engine = engine
        self.addresses = {name: engine.get_function_address(name) for name in names}
        missing = sorted(name for name, address in self.addresses.items() if not address)
        if missing:     # calling address 0 would kill the process
            raise ValueError(f"object code defines no kernel {', '.join(missing)}")

    def __del__(self):
        # Disposing an engine frees a module of LLVM's global context: never while another
        # thread (the background compiler) parses into that context.
        engine, lock = getattr(self, "engine", None), _lock
        if engine is None or lock is None or sys.is_finalizing():   # at exit: leave it
            return
        with lock:
            engine.close()


@functools.lru_cache(maxsize=None)
def host_object_header() -> bytes:
    """The ELF header of object code this process emits: what loaded code must match."""
    with _lock:
        module = llvm.parse_assembly("")
        module.triple = llvm.get_process_triple()
        return target_machine().emit_object(module)[:64]


def load_object(obj: bytes, names) -> Machine:
    """Link object code into a fresh MCJIT engine; ValueError, before LLVM reads a byte, when
    it is not in-bounds object code for this host (see ``object_check``)."""
    check_object(obj, host_object_header())
    return _link(obj, names)


def _link(obj: bytes, names) -> Machine:
    tm = new_target_machine()
    with _lock:
        host = llvm.parse_assembly("")
        host.triple = llvm.get_process_triple()
        engine = llvm.create_mcjit_compiler(host, tm)
        engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        engine.finalize_object()
        return Machine(engine, names)


# Vector math intrinsics the loop vectorizer leaves behind, and their libmvec names.
# (llvmlite builds its TargetLibraryInfo without a vector library, so LLVM would lower
# them to one scalar libm call per lane; glibc's variants follow the x86 vector ABI.)
_MVEC_FUNCTIONS = {"exp": 1, "exp2": 1, "log": 1, "log2": 1, "log10": 1, "sin": 1, "cos": 1,
                   "tan": 1, "tanh": 1, "sinh": 1, "cosh": 1, "asin": 1, "acos": 1, "atan": 1,
                   "pow": 2, "atan2": 2}
_VECTOR_INTRINSIC = re.compile(r"@llvm\.(" + "|".join(_MVEC_FUNCTIONS) + r")\.v(\d+)f(32|64)\b")


@functools.lru_cache(maxsize=None)
def _vector_isas() -> dict:
    """Vector width in bits -> libmvec ISA letter, for what this CPU runs."""
    features = llvm.get_host_cpu_features()
    isas = {128: "b"}
    if features.get("avx2"):
        isas[256] = "d"
    if features.get("avx512f"):
        isas[512] = "e"
    return isas


def use_libmvec(text: str) -> str:
    """Replace vector math intrinsic calls by glibc libmvec's SIMD functions."""
    if not _initialized():
        return text

    def rename(match):
        name, lanes, bits = match.group(1), int(match.group(2)), int(match.group(3))
        isa = _vector_isas().get(lanes * bits)
        if isa is None:
            return match.group(0)
        suffix = "f" if bits == 32 else ""
        return f"@_ZGV{isa}N{lanes}{'v' * _MVEC_FUNCTIONS[name]}_{name}{suffix}"
    return _VECTOR_INTRINSIC.sub(rename, text)


def compile_module(text: str):
    """LLVM IR text -> (optimized module, object bytes)."""
    with _lock:
        module = optimize(text)
        ir = str(module)
        if _VECTOR_INTRINSIC.search(ir):
            module = llvm.parse_assembly(use_libmvec(ir))
        return module, target_machine().emit_object(module)
