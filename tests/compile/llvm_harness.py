"""Run lazynum on the llvm backend inside a test and look at what it compiled.

``on_llvm()`` routes every sync to ``lazynum.backends.llvm`` (whatever
``LAZYNUM_BACKEND`` says) and records each compiled ``Program``, so tests can assert
kernel counts for the canonical fusion patterns.
"""
from __future__ import annotations

import contextlib

import numpy as np

import lazynum as lnp
import lazynum.backends as backends
import lazynum.backends.llvm as llvm_backend
from lazynum.runtime import compile_cache


@contextlib.contextmanager
def on_llvm():
    """Inside the block, syncs run on the llvm backend; yields the list of programs compiled."""
    programs = []
    original_get, original_compile = backends.get, llvm_backend.compile

    def recording_compile(cut):
        program = original_compile(cut)
        programs.append(program)
        original_run = program.run

        def recording_run(inputs, sizes, sites=None):
            program.last_call = (list(inputs), tuple(sizes))
            return original_run(inputs, sizes, sites)
        program.run = recording_run
        return program

    backends.get = lambda name=None: llvm_backend
    llvm_backend.compile = recording_compile
    compile_cache.clear_memory()
    try:
        yield programs
    finally:
        backends.get, llvm_backend.compile = original_get, original_compile
        compile_cache.clear_memory()


def compiled(fn, *arrays):
    """``(value, program)``: ``fn(lnp, *lazy arrays)`` computed on llvm, and its program."""
    with on_llvm() as programs:
        value = np.asarray(fn(lnp, *[lnp.asarray(a) for a in arrays]))
    return value, programs[-1]
