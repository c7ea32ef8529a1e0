"""User-facing sync and graph inspection: ``lazynum.sync``, ``graph_text``, ``graph_dot``."""
from __future__ import annotations

from ..array import extension
from ..array.arraytype import ndarray
from ..expr import graph
from ..runtime import sync_nodes


def _nodes(arrays):
    out = []
    for a in arrays:
        if isinstance(a, (list, tuple)):
            out.extend(_nodes(a))
        elif isinstance(a, ndarray):
            out.append(a._n())
        elif extension.is_extension(a):        # e.g. a bounded array's data and run-time sizes
            out.extend(_nodes(a.__lazynum_sync_arrays__()))
    return out


def sync(*arrays):
    """Compute the given arrays now, in one run (an explicit sync); returns them."""
    sync_nodes(_nodes(arrays), "explicit", explicit=True)
    return arrays[0] if len(arrays) == 1 else arrays


def graph_text(*arrays) -> str:
    """The pending graph behind ``arrays`` as readable text (nothing is computed).

    A bounded array is listed first as ``bounded: float64[<=N] = data %a, sizes %b``.
    """
    lines = [f"  {a.__lazynum_graph_line__()}" for a in arrays if extension.is_extension(a)]
    return "\n".join(lines + [graph.format_graph(_nodes(arrays))]) if lines else \
        graph.format_graph(_nodes(arrays))


def graph_dot(*arrays) -> str:
    """The pending graph behind ``arrays`` as Graphviz dot text."""
    return graph.to_dot(_nodes(arrays))


def graph_hash(*arrays) -> str:
    """The structural hash of the pending graph (what the compile cache keys on)."""
    return graph.graph_hash(_nodes(arrays))
