"""Compiled kernel templates, process-wide: each template is compiled by LLVM once.

A template (``compile.kernel_template``) is named by a digest of its structure, so a name
means the same code in every program.  ``compiled(kernels)`` returns the machine code of
each template of a plan, compiling only the ones no program has compiled yet (each in its
own LLVM module: its object code is what a stored program carries for it); ``loaded``
returns a stored template's code, linking its object code only when this process has not
compiled that template itself.  Gauss elimination's update step at every column, in every
trip count's program, is one entry here.

Threads: lookups and insertions are under ``_lock``; LLVM runs outside it (``jit``
serializes LLVM itself), so a sync never waits for another thread's compile to look up a
template that is ready.  Two threads compiling the same template keep the first result.
"""
from __future__ import annotations

import ctypes
import sys
import threading
import time

from ...compile.kernel_template import canonical_text
from ...control import telemetry
from . import codegen, jit

KERNEL_SIGNATURE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                    ctypes.c_int64, ctypes.c_int64)

_lock = threading.Lock()
_codes: dict = {}           # template name -> KernelCode


class KernelCode:
    """One template's object code and its loaded functions (``name``, and ``name.part`` /
    ``name.finish`` when its reduction splits across threads)."""

    def __init__(self, name, obj, machine, source=""):
        self.name = name
        self.obj = obj
        self.source = source        # its LLVM IR, when compiled in this process
        self.machine = machine      # keeps the code alive
        self.functions = {fn: KERNEL_SIGNATURE(address)
                          for fn, address in machine.addresses.items()}


def function_names(kernel) -> list:
    """The functions a template's module defines."""
    if kernel.targets:          # scatter targets: parts and a finishing step only
        return [f"{kernel.name}.part", f"{kernel.name}.finish"]
    names = [kernel.name]
    if kernel.strategy.split_slots:
        names += [f"{kernel.name}.part", f"{kernel.name}.finish"]
    return names


def lookup(name: str):
    with _lock:
        return _codes.get(name)


def _keep(code: KernelCode) -> KernelCode:
    with _lock:
        return _codes.setdefault(code.name, code)


def render(kernel) -> str:
    """The LLVM IR text of one template's module."""
    machine = jit.target_machine()
    return codegen.module_text([kernel], None, machine.triple, str(machine.target_data))


def compiled(kernels) -> dict:
    """Template name -> ``KernelCode`` for each of ``kernels`` (templates with strategies),
    compiling those not compiled before.  (One LLVM module per template: a Ctrl-C waits for
    one template's compile at most.)"""
    out, start = {}, time.perf_counter()
    missing = sum(lookup(k.name) is None for k in kernels)
    for kernel in kernels:
        code = lookup(kernel.name) or _from_store(kernel)
        if code is None:
            text = render(kernel)
            _, obj = jit.compile_module(text)
            code = _keep(KernelCode(kernel.name, obj, jit.load_object(obj, function_names(kernel)),
                                    text))
            telemetry.counters["kernels_compiled"] += 1
            if telemetry.enabled("kernels"):
                telemetry.log("kernels", f"compiled template {kernel.name}")
            if _store[0] is not None:
                _store[0].save(kernel.name, canonical_text(kernel), obj)
            _note_if_long(time.perf_counter() - start, missing)
        else:
            telemetry.counters["kernels_reused"] += 1
        out[kernel.name] = code
    return out


# The persistent store of templates (set by the runtime, which owns the disk cache): an
# object with ``load(name, key_text) -> bytes | None`` (verified against the full key) and
# ``save(name, key_text, obj)``.  A new process compiles no template an earlier one stored.
_store: list = [None]


def use_store(store) -> None:
    _store[0] = store


def _from_store(kernel):
    store = _store[0]
    if store is None:
        return None
    obj = store.load(kernel.name, canonical_text(kernel))
    if obj is None:
        return None
    try:
        return _keep(KernelCode(kernel.name, obj, jit.load_object(obj, function_names(kernel))))
    except ValueError as exc:       # verified bytes that are still not this host's code
        telemetry.log("cache", f"stored template {kernel.name} unusable: {exc}")
        return None


LONG_COMPILE_SECONDS = 2.0
_noted = []


def _note_if_long(elapsed: float, missing: int) -> None:
    """Once per process, on stderr: a compile a user's sync waits for is taking long."""
    if (elapsed < LONG_COMPILE_SECONDS or _noted
            or threading.current_thread().name == "lazynum-compiler"):   # nobody waits on it
        return
    _noted.append(True)
    print(f"lazynum: compiling {missing} new kernel templates for the sync at "
          f"{telemetry.user_frame()} has taken {elapsed:.1f} s so far. Each template compiles "
          "once per process and is stored with its program (LAZYNUM_CACHE_DIR); with "
          "LAZYNUM_COMPILE=background new programs run as NumPy calls while they compile.",
          file=sys.stderr)


def loaded(name: str, functions, obj: bytes) -> KernelCode:
    """A stored template's code: this process's own when it has compiled it, else ``obj``
    linked (``jit.load_object`` verifies it first; ValueError when it is not object code
    defining ``functions``)."""
    code = lookup(name)
    if code is not None and set(functions) <= set(code.functions):
        return code
    return _keep(KernelCode(name, obj, jit.load_object(obj, functions)))


def clear() -> None:
    """Forget every compiled template (tests; programs holding one keep it alive)."""
    with _lock:
        _codes.clear()
