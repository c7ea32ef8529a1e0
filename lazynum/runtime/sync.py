"""One sync function: every computation of pending graph goes through ``sync_nodes``.

A sync records why it happened (``item``, ``__array__``, ``print``, ``bool``, ``explicit``,
...) and the first user frame, honours ``LAZYNUM_SYNC=allow|warn|raise``, cuts the pending
graph that the requested nodes need, adds the pending nodes of live arrays that share
that graph (so nothing is computed twice), runs the backend, and realizes the results:
realized nodes drop their arguments, so graphs never outlive their sync.
"""
from __future__ import annotations

import time
import warnings
import weakref

from .. import backends, settings as config, telemetry as metrics
from ..expr import graph, node as node_mod


class SyncError(RuntimeError):
    """Raised by an implicit sync while ``LAZYNUM_SYNC=raise``."""


# weakrefs to arrays created with a pending node; pruned at every sync.
_live: list = []


def register_live(array) -> None:
    _live.append(weakref.ref(array))


def _live_pending_nodes() -> list:
    """Pending nodes held by live arrays (and prune the registry)."""
    nodes, keep = [], []
    for ref in _live:
        array = ref()
        if array is None:
            continue
        node = array._pending_node()
        if node is not None:
            nodes.append(node)
            keep.append(ref)
    _live[:] = keep
    return nodes


def _sharing(targets: list, candidates: list) -> list:
    """Candidates whose pending graph is connected to the targets' (union-find on ids)."""
    parent = {}

    def find(i):
        root = i
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[i] != root:
            parent[i], i = root, parent[i]
        return root

    for node in graph.toposort(targets + candidates):
        for arg in node.args:
            if arg.buffer is None:
                parent[find(node.id)] = find(arg.id)
    target_roots = {find(t.id) for t in targets}
    return [c for c in candidates if find(c.id) in target_roots]


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
    targets = list({n.id: n for n in nodes if n.buffer is None}.values())
    if not targets:
        return
    site = metrics.user_frame()
    _check_policy(reason, site, explicit)
    metrics.record_sync(reason, site)
    chosen = {t.id for t in targets}
    extras = []
    for node in _sharing(targets, _live_pending_nodes()):
        if node.id not in chosen:
            chosen.add(node.id)
            extras.append(node)
    try:
        _run(targets + extras, reason, site)
    except Exception:
        if not extras:
            raise
        _run(targets, reason, site)   # a co-live array's failure must not blame this sync
    _after_sync()


def _run(outputs: list, reason: str, site: str) -> None:
    start = time.perf_counter()
    order = graph.toposort(outputs)
    if metrics.enabled("graph"):
        metrics.log("graph", f"sync ({reason}) at {site}:\n" + graph.format_graph(outputs))
    values = backends.get().run(order, outputs)
    for node, value in zip(outputs, values):
        node.realize(value)
    metrics.counters["nodes_computed"] += len(order)
    elapsed = time.perf_counter() - start
    metrics.timers["run"] += elapsed
    metrics.log("sync", f"{reason} at {site}: {len(order)} nodes, {len(outputs)} outputs, "
                        f"{elapsed * 1e3:.2f} ms")


def _after_sync() -> None:
    node_mod.clear_interned()
    _refresh_cached_settings()


def _refresh_cached_settings() -> None:
    settings = config.get()
    node_mod.flush_limits[:] = [settings.flush_nodes, settings.flush_bytes]
    node_mod._want_sites[0] = bool(settings.logs & {"graph", "kernels"})


def flush_all(reason: str = "auto_flush", extra=()) -> None:
    """Compute every live pending array (the automatic flush of a growing graph)."""
    site = metrics.user_frame()
    metrics.record_flush(reason, site)
    metrics.log("flush", f"{reason} at {site}: pending graph reached its limit")
    nodes = _live_pending_nodes() + [n for n in extra if n.buffer is None]
    if nodes:
        metrics.record_sync(reason, site)
        _run(nodes, reason, site)
    _after_sync()


node_mod.flush_hook[0] = lambda new_node: flush_all("auto_flush", (new_node,))
config.on_change.append(_refresh_cached_settings)
_refresh_cached_settings()
