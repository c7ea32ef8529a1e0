"""One sync function: every computation of pending graph goes through ``sync_nodes``.

A sync records why it happened (``item``, ``__array__``, ``print``, ``bool``, ``explicit``,
...) and the first user frame, honours ``LAZYNUM_SYNC=allow|warn|raise``, cuts the pending
graph that the requested nodes need, adds the pending nodes of live arrays that share
that graph (so nothing is computed twice), runs the backend, and realizes the results:
realized nodes drop their arguments, so graphs never outlive their sync.
"""
from __future__ import annotations

import threading
import time
import warnings
import weakref

from .. import backends
from ..control import settings as config, telemetry as metrics
from ..expr import graph, node as node_mod, symbolic
from . import collector, compile_cache, fp_errors, unread_checks, writes


class SyncError(RuntimeError):
    """Raised by an implicit sync while ``LAZYNUM_SYNC=raise``."""


# One sync at a time: two threads syncing the same pending graph must not both compute it.
# Live arrays are registered per thread (``node.TraceState.live``): a sync looks only at
# its own thread's, so it never computes, nor reads the views of, another thread's arrays.
_lock = threading.RLock()

# Set by lazynum.distributed (a higher layer) once a distributed input exists: ``route(nodes,
# reason, site)`` computes on Dask the nodes that read one and returns the rest;
# ``local(nodes)`` keeps those this process may compute (co-live arrays, flushes).
distributed_route = None
distributed_local = None


def register_live(array) -> None:
    node_mod.thread.state.live.append(weakref.ref(array))


def _live_pending_nodes() -> list:
    """Pending nodes held by this thread's live arrays (and prune its registry).

    A window's storage value counts too: computing the shared value once lets every view of
    it be index math on a buffer instead of recomputing the producer graph per view.
    """
    live = node_mod.thread.state.live
    nodes, keep = [], []
    for ref in live:
        array = ref()
        if array is None:
            continue
        held = array._pending_nodes()
        if held:
            nodes.extend(held)
            keep.append(ref)
    live[:] = keep
    return nodes if distributed_local is None else distributed_local(nodes)


def _sharing(order: list, candidates: list) -> list:
    """Candidates whose pending graph reaches a pending node of ``order`` (the targets' cut).

    Node ids grow with creation and a node's arguments are older than it, so a walk down
    from a candidate can stop at ids below the oldest needed node: the cost is bounded by
    the nodes recorded since then, not by everything pending.
    """
    needed = {node.id for node in order}
    if not needed:
        return []
    oldest = min(needed)
    reaches: dict = {}          # node id -> does its pending graph reach `needed`?
    return [c for c in candidates if _reaches(c, needed, oldest, reaches)]


def _reaches(root, needed, oldest, reaches) -> bool:
    stack = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if node.id in reaches:
            continue
        if node.id in needed:
            reaches[node.id] = True
            continue
        args = [a for a in node.args if a.buffer is None and a.id >= oldest]
        if expanded:
            reaches[node.id] = any(reaches.get(a.id, False) for a in args)
            continue
        stack.append((node, True))
        stack.extend((a, False) for a in args if a.id not in reaches)
    return reaches[root.id]


def _check_policy(reason: str, site: str, explicit: bool) -> None:
    if explicit:
        return
    mode = config.get().sync
    if mode == "raise":
        raise SyncError(f"implicit sync ({reason}) at {site} while LAZYNUM_SYNC=raise")
    if mode == "warn":
        filename, _, line = site.rpartition(":")
        warnings.warn_explicit(f"lazynum: implicit sync ({reason}) at {site}", RuntimeWarning,
                               filename or site, int(line) if line.isdigit() else 0)


def sync_nodes(nodes, reason: str, explicit: bool = False) -> None:
    """Compute every pending node in ``nodes`` (and co-live sharers) and realize them."""
    if all(n.buffer is not None for n in nodes):
        if node_mod.thread.state.checks:
            _sync_dropped_checks(metrics.user_frame())
        return
    site = metrics.user_frame()
    _check_policy(reason, site, explicit)
    orphans = node_mod.take_orphaned_checks()
    unread = _unread(orphans, nodes) if orphans else ()
    if distributed_route is not None:       # outside the lock: Dask's threads sync blocks
        nodes = distributed_route(nodes, reason, site)
    with _lock:
        if unread:
            _run_unread(unread, site)
        # Chosen under the lock: another thread's sync may have computed a shared node
        # while this one waited, and a computed node is no target (nor in the order).
        targets = list({n.id: n for n in nodes if n.buffer is None}.values())
        if not targets:
            _sync_dropped_checks(site)
            return
        metrics.record_sync(reason, site)
        try:
            order = graph.toposort(targets)
            extras = _co_live_extras(targets, order)
            whole = graph.toposort(extras, order) if extras else order
            _run_dropped(whole, site)
            try:
                _run(targets + extras, reason, site, whole)
            except Exception:
                if not extras:
                    raise
                _run(targets, reason, site, order)   # a co-live failure must not blame this sync
        except Exception as exc:
            failed = getattr(exc, "lazynum_failed_node", None)
            if failed is not None:
                writes.undo(failed)          # the failing write leaves its array as it was
            _forget_orphans(targets)         # a failed check raises once
            raise
        finally:
            _after_sync()


def _unread(checks, nodes) -> list:
    """The orphaned run-time checks (``node.orphan_checks``) no live array and no node of
    this sync reads; one that is still read raises when its reader is computed, as any value
    does, so it waits for a later sync."""
    reachable = {n.id for n in graph.toposort(_live_pending_nodes() + list(nodes))}
    node_mod.thread.state.orphans.extend(c for c in checks if c.id in reachable)
    return [c for c in checks if c.id not in reachable]


def _run_unread(checks, site) -> None:
    """Compute unread checks in a run of their own, before this sync's, so their graph never
    joins (nor changes the key of) the program the sync asked for.  A failing one raises
    here, naming its op and the line that made it, once."""
    pending = [c for c in checks if c.buffer is None]
    if pending:
        try:
            _run(pending, "unread_check", site)
        except Exception:
            unread_checks.forget(graph.toposort(pending))    # a failed check raises once
            raise


def _run_dropped(cut, site) -> None:
    """Run first the checks whose readers were all dropped (``runtime.unread_checks``)."""
    if node_mod.thread.state.checks:
        dropped = unread_checks.dropped(cut, _live_pending_nodes)
        if dropped:
            _run_unread(dropped, site)


def _sync_dropped_checks(site) -> None:
    """A sync with nothing of its own to compute still runs the dropped checks."""
    with _lock:
        dropped = unread_checks.dropped((), _live_pending_nodes)
        if dropped:
            try:
                _run_unread(dropped, site)
            finally:
                _after_sync()


def _forget_orphans(targets) -> None:
    """A failed sync's orphaned checks were its to raise: later syncs do not run them again."""
    state = node_mod.thread.state
    if state.orphans or state.checks:
        order = graph.toposort(targets)
        ids = {n.id for n in order}
        state.orphans = [c for c in state.orphans if c.id not in ids]
        unread_checks.forget(order)


def _co_live_extras(targets, order) -> list:
    chosen = {t.id for t in targets}
    extras = []
    for node in _sharing(order, _live_pending_nodes()):
        if node.id not in chosen:
            chosen.add(node.id)
            extras.append(node)
    return extras


def _run(outputs: list, reason: str, site: str, order=None) -> None:
    start = time.perf_counter()
    if order is None:
        order = graph.toposort(outputs)
    node_mod.forget_pending(len(order))
    if metrics.enabled("graph"):
        metrics.log("graph", f"sync ({reason}) at {site}:\n" + graph.format_graph(outputs))
    with fp_errors.collecting() as fp_log:
        values = compile_cache.execute(backends.get(), order, outputs, site)
    fp_errors.settle(fp_log, order, outputs, site)     # warns, or raises before realizing
    for node, value in zip(outputs, values):
        node.realize(value)
    if node_mod.thread.state.checks:
        unread_checks.forget(order)        # computed (passed), if only as intermediates
    metrics.counters["nodes_computed"] += len(order)
    elapsed = time.perf_counter() - start
    metrics.timers["sync"] += elapsed
    if metrics.enabled("sync"):
        metrics.log("sync", f"{reason} at {site}: {len(order)} nodes, {len(outputs)} outputs, "
                            f"{elapsed * 1e3:.2f} ms")


def _after_sync() -> None:
    collector.restore()
    writes.prune()
    unread_checks.note_readers()
    node_mod.clear_interned()
    symbolic.new_trace()
    _refresh_cached_settings()
    metrics.mark_trace_start()


def _refresh_cached_settings() -> None:
    # The calling thread's settings, into its own tracing state (config blocks are per-thread).
    settings = config.get()
    node_mod.use_settings(settings)
    symbolic.set_dynamic(settings.dynamic_shapes)


def flush_all(reason: str = "auto_flush", extra=()) -> None:
    """Compute every live pending array (the automatic flush of a growing graph).

    A live array whose graph fails (a bad index only the data reveals) must not make every
    later op fail: on error, only the new node's own graph is computed, and whatever fails
    stays pending, to raise at the sync that asks for it.
    """
    site = metrics.user_frame()
    metrics.record_flush(reason, site)
    metrics.log("flush", f"{reason} at {site}: pending graph reached its limit")
    with _lock:
        _flush([n for n in extra if n.buffer is None], reason, site)


def _flush(fresh, reason, site) -> None:
    try:
        nodes = _live_pending_nodes() + (fresh if distributed_local is None
                                         else distributed_local(fresh))
        if nodes:
            metrics.record_sync(reason, site)
            try:
                _run(nodes, reason, site)
            except Exception:  # noqa: BLE001 - isolated: retried on the new node alone
                _run_isolated(fresh, reason, site)
    finally:
        node_mod.reset_pending()
        _after_sync()


def _run_isolated(nodes, reason, site) -> None:
    try:
        if nodes:
            _run(nodes, reason, site)
    except Exception:  # noqa: BLE001 - the error belongs to the sync that needs this value
        pass


node_mod.flush_hook = lambda new_node: flush_all("auto_flush", (new_node,))
config.on_change.append(_refresh_cached_settings)
_refresh_cached_settings()
