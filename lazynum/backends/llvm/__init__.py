"""The compiled CPU backend (``LAZYNUM_BACKEND=llvm``): fused kernels through llvmlite.

Contract (see ``lazynum.backends``): ``compile(cut) -> Program`` once per cache miss;
``Program.run(inputs, sizes, sites)`` at every replay; ``Program.to_bytes()`` and
``load(data)`` for the persistent cache.  The pipeline is ``lazynum.compile`` (scheduling,
kernel IR, lowering) followed by ``codegen`` (LLVM IR) and ``jit`` (O3, machine code).
"""
from __future__ import annotations

import functools
import hashlib
import pathlib

from . import jit, kernel_cache, serialize
from .program import Prepared, Program, build, finish, prepare

NAME = "llvm"
# Bumped whenever generated code or the serialized format changes meaning.
ARTIFACT_VERSION = "llvm-program-2"


def artifact_tag() -> str:
    """What cached object code depends on: format version, the source of everything that
    generates it (scheduler, lowerings, codegen), LLVM, the CPU and its features."""
    return f"{ARTIFACT_VERSION}|{_source_digest()}|{jit.toolchain_id()}"


@functools.lru_cache(maxsize=None)
def _source_digest() -> str:
    root = pathlib.Path(__file__).resolve().parents[2]
    digest = hashlib.blake2b(digest_size=12)
    for folder in ("backends/llvm", "compile", "expr"):
        for path in sorted((root / folder).glob("*.py")):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def compile(cut) -> Program:  # noqa: A001 - the backend contract's name
    """Compile one cut of the pending graph (see ``lazynum.compile.cut.Cut``)."""
    return build(cut)


# ``compile`` in two halves, for background compilation (``runtime.compile_cache``):
# ``prepare(cut)`` plans on the calling thread; ``finish(prepared)`` runs LLVM on the kernel
# templates not compiled yet (``Prepared.missing``) and may run on another thread.


def use_kernel_store(store) -> None:
    """Where compiled kernel templates persist (``runtime.compile_cache.KernelStore``)."""
    kernel_cache.use_store(store)


def load(data: bytes) -> Program:
    """Rebuild a ``Program`` from ``Program.to_bytes()``; ValueError when malformed."""
    return serialize.restore(data, Program, kernel_cache.loaded)


__all__ = ["NAME", "ARTIFACT_VERSION", "Prepared", "Program", "artifact_tag", "compile", "finish",
           "load", "prepare", "use_kernel_store"]
