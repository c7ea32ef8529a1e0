"""Counters and decision records: what was traced, synced, flushed and why.

Every sync, fallback and automatic flush is recorded with its reason and the first
user frame (file:line) so ``metrics_report()`` answers "what ran, and why?".
"""
from __future__ import annotations

import collections
import itertools
import os
import sys
import time

from . import settings as _config

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

# Node ids double as the traced-op counter: ops_traced = ids handed out since reset.
node_ids = itertools.count(1)
_baseline = {"node_id": 0}

COUNTER_NAMES = (
    "syncs", "fallbacks", "auto_flushes", "nodes_computed", "bytes_allocated",
    "compiles", "cache_hits", "cache_misses", "kernels_launched",
    "cache_hits_memory", "cache_hits_disk", "cache_misses_disk", "disk_writes",
)
counters = dict.fromkeys(COUNTER_NAMES, 0)
timers = collections.Counter()
sync_sites = collections.Counter()      # (reason, "file:line") -> count
fallback_sites = collections.Counter()  # (function name, "file:line") -> count
flush_sites = collections.Counter()     # (reason, "file:line") -> count
recompile_sites = collections.Counter()  # (why, "file:line") -> count
recompile_counts = collections.Counter()  # "file:line" -> programs compiled for that sync


def _peek_next_id() -> int:
    # itertools.count exposes its next value only through repr: "count(N)".
    return int(repr(node_ids)[6:-1])


_inside_package: dict = {}      # code filename -> is it a lazynum module? (abspath is slow)


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

    Keys: ``ops_traced`` (graph nodes recorded), ``syncs``, ``fallbacks`` (NumPy functions
    computed eagerly on synced data), ``auto_flushes``, ``nodes_computed``, ``bytes_allocated``,
    ``compiles``, ``cache_hits``, ``cache_misses`` (``cache_hits_memory``/``cache_hits_disk``,
    ``cache_misses_disk``, ``disk_writes`` split them by store), ``kernels_launched``, and
    ``time_<phase>_s`` for the phases ``hash`` (signature of each sync's graph), ``compile``
    (misses), ``run`` (executing programs), ``sync`` (all of a sync: hash, lookup, compile,
    run) and ``trace`` (host time between syncs, which includes the user's own Python).
    """
    out = {"ops_traced": _peek_next_id() - _baseline["node_id"]}
    out.update(counters)
    for name, seconds in timers.items():
        out[f"time_{name}_s"] = seconds
    return out


def reset_metrics() -> None:
    """Zero every counter and forget the recorded sync/fallback/flush sites."""
    _baseline["node_id"] = _peek_next_id()
    for name in counters:
        counters[name] = 0
    timers.clear()
    sync_sites.clear()
    fallback_sites.clear()
    flush_sites.clear()
    recompile_sites.clear()
    recompile_counts.clear()


_trace_start = [time.perf_counter()]


def mark_trace_start() -> None:
    """A sync ended: host time from here to the next sync counts as tracing."""
    _trace_start[0] = time.perf_counter()


def record_sync(reason: str, site: str) -> None:
    counters["syncs"] += 1
    timers["trace"] += time.perf_counter() - _trace_start[0]
    sync_sites[(reason, site)] += 1


def record_fallback(name: str, site: str) -> None:
    counters["fallbacks"] += 1
    fallback_sites[(name, site)] += 1
    log("fallback", f"{name} has no lazy implementation: synced and computed with NumPy at {site}")


def record_flush(reason: str, site: str) -> None:
    counters["auto_flushes"] += 1
    flush_sites[(reason, site)] += 1


def record_recompile(site: str, reason: str) -> None:
    """A compile at the sync ``site``, with why the cache had no program for it."""
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
    lines = ["lazynum metrics", "  " + "  ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                               for k, v in m.items())]
    lines += _section("syncs (reason, first user frame):", sync_sites)
    lines += _section("fallbacks to NumPy (function, first user frame):", fallback_sites)
    lines += _section("automatic flushes (reason, first user frame):", flush_sites)
    lines += _section("compiles (why the cache missed, sync line):", recompile_sites)
    return "\n".join(lines)
