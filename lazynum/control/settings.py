"""Configuration: one table of settings, backed by environment variables.

Every setting has an environment variable, a default and a parser.  Code reads
``config.get().name``; users override for a block with ``with lazynum.config(...)``.
The README documents the same table (``describe()`` prints it).

Threads: the environment gives the process-wide settings; a ``config`` block is the
calling thread's own (a per-thread stack), so a thread started inside a block runs with
the process-wide settings until it enters its own.  The runtime caches a few settings
read on every traced op per thread (``on_change`` runs in the thread whose settings
changed); ``reload_from_environment`` reaches another thread's caches at its next sync.
"""
from __future__ import annotations

import contextlib
import functools
import os
import threading
from dataclasses import dataclass, fields, replace

VALID_BACKENDS = ("llvm", "numpy", "cuda")   # backends that exist in this build
VALID_CUDA_DEVICES = ("cupy", "emulator")
VALID_SYNC_MODES = ("allow", "warn", "raise")
VALID_LOGS = ("graph", "sync", "fallback", "flush", "kernels", "cache", "recompiles", "fusion")
VALID_COMPILE_POLICIES = ("background", "eager")
VALID_HEAP_POLICIES = ("keep", "system")


def _parse_backend(text: str) -> str:
    name = text.strip().lower()
    if name in VALID_BACKENDS:
        return name
    raise ValueError(f"LAZYNUM_BACKEND={text!r} is not a backend; valid backends: "
                     f"{', '.join(VALID_BACKENDS)}")


def _parse_cuda_device(text: str) -> str:
    name = text.strip().lower()
    if name not in VALID_CUDA_DEVICES:
        raise ValueError(f"LAZYNUM_CUDA_DEVICE={text!r}: expected one of {', '.join(VALID_CUDA_DEVICES)}")
    return name


def _parse_emulator_order(text) -> str:
    order = str(text).strip().lower()
    if order in ("forward", "reversed") or order.isdigit():
        return order
    raise ValueError(f"LAZYNUM_CUDA_EMULATOR_ORDER={text!r}: expected forward, reversed or a "
                     "non-negative integer seed")


def _parse_sync(text: str) -> str:
    mode = text.strip().lower()
    if mode not in VALID_SYNC_MODES:
        raise ValueError(f"LAZYNUM_SYNC={text!r}: expected one of {', '.join(VALID_SYNC_MODES)}")
    return mode


def _parse_logs(text) -> frozenset:
    if isinstance(text, (set, frozenset, list, tuple)):
        items = [str(t) for t in text]
    else:
        items = [t for t in str(text).replace(" ", "").split(",") if t]
    unknown = [t for t in items if t not in VALID_LOGS and t != "all"]
    if unknown:
        raise ValueError(f"LAZYNUM_LOGS: unknown log topic(s) {unknown}; valid: {', '.join(VALID_LOGS)}, all")
    return frozenset(VALID_LOGS) if "all" in items else frozenset(items)


def _parse_compile(text: str) -> str:
    policy = text.strip().lower()
    if policy not in VALID_COMPILE_POLICIES:
        raise ValueError(f"LAZYNUM_COMPILE={text!r}: expected one of {', '.join(VALID_COMPILE_POLICIES)}")
    return policy


def _parse_heap(text: str) -> str:
    policy = text.strip().lower()
    if policy not in VALID_HEAP_POLICIES:
        raise ValueError(f"LAZYNUM_HEAP={text!r}: expected one of {', '.join(VALID_HEAP_POLICIES)}")
    return policy


def _parse_positive_int(text) -> int:
    value = int(text)
    if value <= 0:
        raise ValueError(f"expected a positive integer, got {text!r}")
    return value


def _parse_bool(text) -> bool:
    if isinstance(text, bool):
        return text
    lowered = str(text).strip().lower()
    if lowered in ("1", "true", "on", "yes"):
        return True
    if lowered in ("0", "false", "off", "no"):
        return False
    raise ValueError(f"expected 1/0 (true/false, on/off), got {text!r}")


def _parse_count(text) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(f"expected a count >= 0, got {text!r}")
    return value


def _parse_limit(text) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(f"LAZYNUM_RECOMPILE_LIMIT must be >= 0 (0 = never warn), got {text!r}")
    return value


def _parse_limit_blocks(text) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(f"LAZYNUM_CUDA_MAX_BLOCKS must be >= 0 (0 = the device's choice), got {text!r}")
    return value


def _parse_threads(text) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(f"LAZYNUM_THREADS must be >= 0 (0 = all cores), got {text!r}")
    return value


@dataclass(frozen=True)
class Settings:
    """The current settings; see ``SETTINGS_TABLE`` for their meaning."""
    backend: str = "llvm"
    compile: str = "background"
    sync: str = "allow"
    logs: frozenset = frozenset()
    threads: int = 0                  # 0 = all cores (see effective_threads)
    cache_dir: str = "auto"
    dynamic_shapes: bool = True
    recompile_limit: int = 8
    flush_nodes: int = 50_000
    flush_bytes: int = 2 << 30
    dask_scheduler: str = ""          # "" = Dask's current scheduler
    dask_gather_bytes: int = 512 << 20
    heap: str = "keep"
    cuda_device: str = "cupy"
    cuda_emulator_order: str = "forward"
    cuda_max_blocks: int = 0          # 0 = the device's choice
    immediate_below: int = 131072      # 1 MiB of float64: see README, the immediate tier


# name -> (environment variable, parser, description)
SETTINGS_TABLE = {
    "backend": ("LAZYNUM_BACKEND", _parse_backend,
                "Which backend runs synced graphs: " + " | ".join(VALID_BACKENDS) + " (cuda: "
                "fused CUDA kernels on the device LAZYNUM_CUDA_DEVICE names, docs/cuda.md)."),
    "compile": ("LAZYNUM_COMPILE", _parse_compile,
                "When a compiled backend compiles a new program: background (it runs at once as "
                "NumPy calls; its second run plans it, or, when planning is costly, a background "
                "thread does once its runs have cost as much; it switches at once when its "
                "kernel templates are compiled, else they compile on a background thread and "
                "later runs use them; a program whose one interpreted run would cost more than "
                "compiling compiles first) or eager (every new program compiles before it runs)."),
    "sync": ("LAZYNUM_SYNC", _parse_sync,
             "What an implicit sync does: allow, warn (a warning naming the line) or raise "
             "(SyncError). Explicit `.sync()`/`lazynum.sync()` are always allowed."),
    "logs": ("LAZYNUM_LOGS", _parse_logs,
             "Comma-separated log topics printed to stderr: " + ", ".join(VALID_LOGS) + ", all."),
    "threads": ("LAZYNUM_THREADS", _parse_threads, "Worker threads for compiled kernels (0 = all cores)."),
    "cache_dir": ("LAZYNUM_CACHE_DIR", str,
                  "Directory of the persistent compile cache: auto (the per-user cache, "
                  "$XDG_CACHE_HOME/lazynum or ~/.cache/lazynum), off, or a path."),
    "dynamic_shapes": ("LAZYNUM_DYNAMIC_SHAPES", _parse_bool,
                       "Input sizes >= 2 are symbolic, so one program serves every size "
                       "(1); 0 makes every size static (a program per size)."),
    "recompile_limit": ("LAZYNUM_RECOMPILE_LIMIT", _parse_limit,
                        "Warn once when one sync line has compiled more than this many "
                        "programs (0 = never)."),
    "flush_nodes": ("LAZYNUM_FLUSH_NODES", _parse_positive_int,
                    "Pending-graph size (nodes a thread traced since its last sync) that "
                    "triggers an automatic flush."),
    "flush_bytes": ("LAZYNUM_FLUSH_BYTES", _parse_positive_int,
                    "Pending-graph output bytes (of one thread) that trigger an automatic flush."),
    "dask_scheduler": ("LAZYNUM_DASK_SCHEDULER", lambda text: str(text).strip(),
                       "Where syncs of distributed arrays run: empty (Dask's current scheduler: "
                       "a distributed Client if one exists, else Dask's local threads), a "
                       "scheduler address (tcp://host:8786) or threads, processes, synchronous."),
    "dask_gather_bytes": ("LAZYNUM_DASK_GATHER_BYTES", _parse_positive_int,
                          "Largest distributed result a sync brings into this process "
                          "(GatherLimitError above it: keep it distributed with x.to_dask())."),
    "immediate_below": ("LAZYNUM_IMMEDIATE_BELOW", _parse_count,
                        "The immediate tier: an operation whose inputs are all computed and "
                        "whose inputs and result have at most this many elements each runs at "
                        "once as the NumPy call the interpreter tier would make (no graph, no "
                        "sync: small arrays in loops cost what NumPy costs); 0 = off (every op "
                        "is recorded)."),
    "heap": ("LAZYNUM_HEAP", _parse_heap,
             "The C heap's policy for array buffers, applied once at import (glibc only): keep "
             "(blocks under 4 MiB come from the heap and up to 64 MiB of freed memory is kept "
             "for reuse: no page faults on every new array in a loop) or system (the C "
             "library's defaults)."),
    "cuda_device": ("LAZYNUM_CUDA_DEVICE", _parse_cuda_device,
                    "Where LAZYNUM_BACKEND=cuda runs its kernels: cupy (a GPU through CuPy) or "
                    "emulator (the same CUDA C compiled for the CPU, threads of a block as "
                    "fibers: a verification tool, not fast)."),
    "cuda_emulator_order": ("LAZYNUM_CUDA_EMULATOR_ORDER", _parse_emulator_order,
                            "The order in which the emulator runs blocks and resumes threads: "
                            "forward, reversed, or an integer seed (a fresh permutation at "
                            "every scheduling round), so a missing __syncthreads shows up."),
    "cuda_max_blocks": ("LAZYNUM_CUDA_MAX_BLOCKS", _parse_limit_blocks,
                        "The most blocks a CUDA launch uses (0 = as many as the work needs on "
                        "a GPU, 4 on the emulator): grid-stride loops cover the rest."),
}


def _from_environment() -> Settings:
    values = {}
    for name, (env, parse, _) in SETTINGS_TABLE.items():
        raw = os.environ.get(env)
        if raw not in (None, ""):
            values[name] = parse(raw)
    return Settings(**values)


_state = threading.local()          # .stack: this thread's config blocks
_global = [None]                    # the process-wide settings (read lazily: a race reads twice)
# Callbacks run (in the calling thread) whenever its active settings change: the runtime
# caches a few per-op values per thread.  Filled at import, never changed afterwards.
on_change: list = []


def _changed() -> None:
    for callback in on_change:
        callback()


def get() -> Settings:
    """Return the active settings (environment, then any ``config`` blocks)."""
    stack = getattr(_state, "stack", None)
    if stack:
        return stack[-1]
    if _global[0] is None:
        _global[0] = _from_environment()
    return _global[0]


@contextlib.contextmanager
def config(**overrides):
    """Override settings inside a ``with`` block, for the calling thread only.

    Other threads keep their own settings: a thread started inside the block runs with
    the process-wide ones (the environment) until it enters a block of its own.

    Parameters
    ----------
    **overrides
        Setting names from the README's table (``backend``, ``sync``, ``logs``, ...), with
        values in the same form as their environment variables (or already parsed).

    Examples
    --------
    >>> import lazynum as lnp
    >>> with lnp.config(sync="raise"):
    ...     pass
    """
    known = {f.name for f in fields(Settings)}
    parsed = {}
    for name, value in overrides.items():
        if name not in known:
            raise TypeError(f"config() got an unknown setting {name!r}; known: {sorted(known)}")
        parse = SETTINGS_TABLE[name][1]
        parsed[name] = parse(value) if isinstance(value, str) or name == "logs" else value
    new = replace(get(), **parsed)
    stack = getattr(_state, "stack", None)
    if stack is None:
        stack = _state.stack = []
    stack.append(new)
    _changed()
    try:
        yield new
    finally:
        stack.pop()
        _changed()


def reload_from_environment() -> Settings:
    """Re-read the environment variables (for tests and long-lived processes)."""
    _global[0] = _from_environment()
    _changed()
    return _global[0]


def effective_threads() -> int:
    """Worker threads to use: ``LAZYNUM_THREADS``, or every core when it is 0."""
    return get().threads or _cores()


@functools.lru_cache(maxsize=None)
def _cores() -> int:
    return os.cpu_count() or 1      # (a system call: asked once, not at every launch)


def describe() -> str:
    """The settings table as Markdown (the README carries the same table)."""
    rows = ["| setting | environment variable | default | meaning |", "|---|---|---|---|"]
    defaults = Settings()
    for name, (env, _, doc) in SETTINGS_TABLE.items():
        default = getattr(defaults, name)
        if isinstance(default, frozenset):
            default = ",".join(sorted(default)) or "(none)"
        elif default == "":
            default = "(empty)"
        rows.append(f"| `{name}` | `{env}` | `{default}` | {doc} |")
    return "\n".join(rows)
