"""Syncs that read distributed inputs run on Dask; ``to_dask`` keeps a result there.

``install()`` (called when the first distributed input is made, so a program that never
uses Dask pays nothing) gives the runtime two hooks:

- ``sync.distributed_route(nodes, reason, site)``: the nodes whose pending graph reaches a
  distributed input are translated (``partition``), computed with one ``dask.compute``
  on Dask's current scheduler (or ``LAZYNUM_DASK_SCHEDULER``), and realized; the rest go
  on to the ordinary in-process sync.  It runs before the runtime's sync lock is taken:
  Dask's local schedulers run the block programs on threads of this process, and each of
  them syncs its own small graph.
- ``sync.distributed_local(nodes)``: what a co-live sync or an automatic flush may compute
  in this process (never a distributed array: it would be gathered unasked).

A result larger than ``dask_gather_bytes`` is refused with ``GatherLimitError`` before
anything runs: keep it distributed with ``x.to_dask()``.
"""
from __future__ import annotations

import threading

import numpy as np

from ..control import settings, telemetry as metrics
from ..expr import graph
from ..runtime import sync as runtime_sync
from . import source
from .partition import Translation

_clients: dict = {}                   # scheduler address -> distributed.Client
_clients_lock = threading.Lock()


class GatherLimitError(ValueError):
    """A sync would bring a distributed result larger than ``dask_gather_bytes`` into
    this process."""


def install() -> None:
    """Route syncs through this module (idempotent; see module docstring)."""
    runtime_sync.distributed_local = local_only
    runtime_sync.distributed_route = route


def reads_distributed(node, memo=None) -> bool:
    """Whether ``node``'s pending graph reaches a distributed input."""
    memo = {} if memo is None else memo
    stack = [node]
    while stack:
        top = stack[-1]
        if top.id in memo:
            stack.pop()
            continue
        if top.buffer is not None:
            memo[top.id] = False
            stack.pop()
            continue
        if top.op is source.DASK_SOURCE:
            memo[top.id] = True
            stack.pop()
            continue
        pending = [a for a in top.args if a.id not in memo]
        if pending:
            stack.extend(pending)
            continue
        memo[top.id] = any(memo[a.id] for a in top.args)
        stack.pop()
    return memo[node.id]


def local_only(nodes) -> list:
    memo: dict = {}
    return [n for n in nodes if not reads_distributed(n, memo)]


def route(nodes, reason: str, site: str) -> list:
    """Compute the distributed ``nodes`` on Dask; return the others (module docstring)."""
    memo: dict = {}
    distributed = [n for n in nodes if n.buffer is None and reads_distributed(n, memo)]
    if not distributed:
        return nodes
    compute(list({n.id: n for n in distributed}.values()), reason, site)
    return [n for n in nodes if n.buffer is None]


def compute(targets, reason: str, site: str) -> None:
    """One ``dask.compute`` of ``targets``; each is realized with its NumPy value."""
    limit = settings.get().dask_gather_bytes
    for node in targets:
        nbytes = node.size * node.dtype.itemsize
        if nbytes > limit:
            raise GatherLimitError(
                f"lazynum.distributed: the sync at {site} ({reason}) would gather a "
                f"{node.dtype}{list(node.shape)} array ({nbytes:,} bytes) into this process, "
                f"above dask_gather_bytes={limit:,}. Keep it distributed with x.to_dask() "
                f"(then store it, e.g. .to_zarr()), reduce it first, or raise the limit "
                f"(LAZYNUM_DASK_GATHER_BYTES, lazynum.config(dask_gather_bytes=...)).")
    translation = Translation(graph.toposort(targets), site, settings.get().backend)
    arrays = [translation.to_dask(translation.value(n)) for n in targets]
    import dask
    metrics.record_sync(reason, site)
    metrics.counters["distributed_syncs"] += 1
    metrics.counters["dask_tasks"] += _task_count(arrays)
    values = dask.compute(*arrays, **scheduler_options())
    with runtime_sync._lock:
        for node, value in zip(targets, values):
            if node.buffer is None:
                value = np.asarray(value).astype(node.dtype, copy=False).reshape(node.shape)
                value.flags.writeable = False       # a leaf's buffer is never written
                metrics.counters["dask_bytes_gathered"] += value.nbytes
                node.realize(value)


def to_dask(node):
    """The Dask array of ``node``'s value: distributed when its graph reads a distributed
    input (nothing is computed), else the value computed here as one chunk."""
    import dask.array as da
    if node.buffer is not None or not reads_distributed(node):
        if node.buffer is None:
            runtime_sync.sync_nodes([node], "to_dask", explicit=True)
        return da.from_array(node.buffer, chunks=node.buffer.shape or (), name=False)
    site = metrics.user_frame()
    translation = Translation(graph.toposort([node]), site, settings.get().backend)
    return translation.to_dask(translation.value(node))


def _task_count(arrays) -> int:
    import dask
    from dask.base import collections_to_expr
    try:
        return len(collections_to_expr(arrays, optimize_graph=True).__dask_graph__())
    except Exception:  # noqa: BLE001 - a count for the metrics only: never fail a sync on it
        return sum(len(a.__dask_graph__()) for a in arrays)


def scheduler_options() -> dict:
    """``dask.compute``'s scheduler: the ``dask_scheduler`` setting, or Dask's current one
    (a ``distributed.Client`` made by the user, else Dask's local threads)."""
    name = settings.get().dask_scheduler
    if not name:
        return {}
    if "://" not in name:
        return {"scheduler": name}             # threads, processes, synchronous
    with _clients_lock:
        client = _clients.get(name)
        if client is None:
            from distributed import Client
            client = _clients[name] = Client(name, set_as_default=False)
    return {"scheduler": client}
