"""Counters and decision records: what was traced, synced, flushed and why.

Every sync, fallback and automatic flush is recorded with its reason and the first
user frame (file:line) so ``metrics_report()`` answers "what ran, and why?".

Threads: the counters are process-wide totals over every thread.  Each counter has one
writer at a time: those a sync updates (``counters[...] +=`` in the runtime and backends)
are written under the runtime's sync lock (syncs run one at a time); the rest, the site
tables and the reports are under this module's ``_lock``.  The key sets never change after
import (``timers`` holds every phase from the start), so reading them while a sync writes
a value is safe.
"""
from __future__ import annotations

import collections
import itertools
import os
import sys
import threading
import time

from . import settings as _config

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # lazynum/

# Node ids double as the traced-op counter: ops_traced = ids handed out since reset.
# (next() on itertools.count is one C call: atomic under the GIL, so ids are unique.)
node_ids = itertools.count(1)
# Ops the immediate tier ran at once (``runtime/immediate``), counted the same way: tracing
# threads run them concurrently, without the sync lock.
immediate_ids = itertools.count(0)
_baseline = {"node_id": 0, "immediate": 0}
_lock = threading.Lock()

COUNTER_NAMES = (
    "syncs", "fallbacks", "auto_flushes", "nodes_computed", "bytes_allocated",
    "compiles", "cache_hits", "cache_misses", "kernels_launched",
    "cache_hits_memory", "cache_hits_disk", "cache_misses_disk", "disk_writes",
    "interpreted_runs", "background_compiles", "kernels_compiled", "kernels_reused",
    "distributed_syncs", "dask_tasks", "dask_bytes_gathered",
)
TIMER_NAMES = ("hash", "compile", "run", "sync", "trace")
counters = dict.fromkeys(COUNTER_NAMES, 0)
timers = collections.Counter(dict.fromkeys(TIMER_NAMES, 0.0))
sync_sites = collections.Counter()      # (reason, "file:line") -> count
fallback_sites = collections.Counter()  # (function name, "file:line") -> count
flush_sites = collections.Counter()     # (reason, "file:line") -> count
recompile_sites = collections.Counter()  # (why, "file:line") -> count
recompile_counts = collections.Counter()  # "file:line" -> programs compiled for that sync


def _peek_next_id(count=node_ids) -> int:
    # itertools.count exposes its next value only through repr: "count(N)".
    return int(repr(count)[6:-1])


# code filename -> is it a lazynum module? (abspath is slow; a memo: racing threads at
# worst compute one entry twice)
_inside_package: dict = {}


def user_frame() -> str:
    """``file:line`` of the innermost frame outside the lazynum package."""
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        inside = _inside_package.get(filename)
        if inside is None:
            inside = _inside_package[filename] = os.path.abspath(filename).startswith(_PACKAGE_DIR)
        if not inside:
            return f"{filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "<lazynum>"


def log(topic: str, message: str) -> None:
    """Print ``message`` to stderr when ``topic`` is enabled in ``LAZYNUM_LOGS``."""
    if topic in _config.get().logs:
        print(f"[lazynum:{topic}] {message}", file=sys.stderr)


def enabled(topic: str) -> bool:
    return topic in _config.get().logs


def metrics() -> dict:
    """Return the counters as a dict.

    Keys: ``ops_traced`` (graph nodes recorded), ``ops_immediate`` (of those, the ones the
    immediate tier computed at once: ``LAZYNUM_IMMEDIATE_BELOW``), ``syncs``, ``fallbacks`` (NumPy functions
    computed eagerly on synced data), ``auto_flushes``, ``nodes_computed``, ``bytes_allocated``,
    ``compiles``, ``cache_hits``, ``cache_misses`` (``cache_hits_memory``/``cache_hits_disk``,
    ``cache_misses_disk``, ``disk_writes`` split them by store), ``kernels_launched``,
    ``interpreted_runs`` (runs of a new program on the interpreter tier while its kernels
    compile in the background: ``LAZYNUM_COMPILE``), ``background_compiles``,
    ``kernels_compiled`` (kernel templates LLVM compiled: each is compiled once per process
    and serves every program using it) and ``kernels_reused`` (templates a new program
    found compiled already), and
    ``time_<phase>_s`` for the phases ``hash`` (signature of each sync's graph), ``compile``
    (misses), ``run`` (executing programs), ``sync`` (all of a sync: hash, lookup, compile,
    run) and ``trace`` (host time between syncs, which includes the user's own Python).
    """
    with _lock:
        out = {"ops_traced": _peek_next_id() - _baseline["node_id"],
               "ops_immediate": _peek_next_id(immediate_ids) - _baseline["immediate"]}
        out.update(counters)
        for name, seconds in timers.items():
            out[f"time_{name}_s"] = seconds
    return out


def reset_metrics() -> None:
    """Zero every counter and forget the recorded sync/fallback/flush sites."""
    with _lock:
        _baseline["node_id"] = _peek_next_id()
        _baseline["immediate"] = _peek_next_id(immediate_ids)
        for name in counters:
            counters[name] = 0
        for name in timers:
            timers[name] = 0.0
        sync_sites.clear()
        fallback_sites.clear()
        flush_sites.clear()
        recompile_sites.clear()
        recompile_counts.clear()


class _TraceClock(threading.local):
    """When the calling thread's current trace began (its last sync, or its first use)."""

    def __init__(self):
        self.start = time.perf_counter()


_trace_clock = _TraceClock()


def mark_trace_start() -> None:
    """A sync ended: host time from here to this thread's next sync counts as tracing."""
    _trace_clock.start = time.perf_counter()


def record_sync(reason: str, site: str) -> None:
    traced = time.perf_counter() - _trace_clock.start
    with _lock:
        counters["syncs"] += 1
        timers["trace"] += traced
        sync_sites[(reason, site)] += 1


def record_fallback(name: str, site: str) -> None:
    with _lock:
        counters["fallbacks"] += 1
        fallback_sites[(name, site)] += 1
    log("fallback", f"{name} has no lazy implementation: synced and computed with NumPy at {site}")


def record_flush(reason: str, site: str) -> None:
    with _lock:
        counters["auto_flushes"] += 1
        flush_sites[(reason, site)] += 1


def record_recompile(site: str, reason: str) -> None:
    """A compile at the sync ``site``, with why the cache had no program for it."""
    with _lock:
        recompile_sites[(reason, site)] += 1
        recompile_counts[site] += 1


def _section(title, sites):
    lines = [title]
    if not sites:
        lines.append("  (none)")
    for (what, site), count in sites.most_common():
        lines.append(f"  {count:6d}  {what:<14s} {site}" if len(what) <= 14
                     else f"  {count:6d}  {site}: {what}")
    return lines


def metrics_report() -> str:
    """A readable report: counters, syncs by reason and source line, fallbacks, flushes."""
    m = metrics()
    with _lock:        # copies: another thread may record a new site meanwhile
        syncs, fallbacks = sync_sites.copy(), fallback_sites.copy()
        flushes, recompiles = flush_sites.copy(), recompile_sites.copy()
    lines = ["lazynum metrics", "  " + "  ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                               for k, v in m.items())]
    lines += _section("syncs (reason, first user frame):", syncs)
    lines += _section("fallbacks to NumPy (function, first user frame):", fallbacks)
    lines += _section("automatic flushes (reason, first user frame):", flushes)
    lines += _section("compiles (why the cache missed, sync line):", recompiles)
    return "\n".join(lines)
