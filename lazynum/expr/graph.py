"""Walks over the DAG: topological order, structural hash, printing, Graphviz.

All walks are iterative (explicit stacks): a 100,000-node chain must not hit Python's
recursion limit.
"""
from __future__ import annotations

import operator

from .node import Node
from .signature import signature


def toposort(roots, ordered=None) -> list:
    """Pending nodes reachable from ``roots`` in dependency order (realized nodes excluded).

    A node's arguments always exist before it, so ids (handed out at creation) are a
    topological order: collect the reachable set, then sort by id.  ``ordered`` (an earlier
    result) extends that order: its nodes are not walked again, and the result holds both.
    """
    seen = set() if ordered is None else set(ordered)
    found = [] if ordered is None else list(ordered)
    # One loop, no comprehension per node: this walk runs over every node at every sync.
    mark, keep = seen.add, found.append
    stack = [r for r in roots if r.buffer is None]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        if node in seen:
            continue
        mark(node)
        keep(node)
        for arg in node.args:
            if arg.buffer is None and arg not in seen:
                push(arg)
    found.sort(key=_node_id)        # ``ordered`` is one sorted run: a merge, not a sort
    return found


_node_id = operator.attrgetter("id")


def leaves(order) -> list:
    """Realized nodes the pending nodes in ``order`` read, in first-use order."""
    out, seen = [], set()
    for node in order:
        for arg in node.args:
            if arg.buffer is not None and arg.id not in seen:
                seen.add(arg.id)
                out.append(arg)
    return out


def _attr_text(attrs) -> str:
    return ",".join(str(a) for a in attrs)


def graph_hash(roots) -> str:
    """Structural hash of the pending graph under ``roots``: the compile cache's key.

    It is the digest of the graph's canonical signature (``signature.py``): op kinds,
    attributes, dtypes, ranks, static sizes, the symbolic structure of dynamic sizes and
    the DAG's sharing pattern.  Input data, hoisted Python scalars and the values of
    symbolic sizes are not part of it: two traces that differ only in those hash the same.
    """
    order = toposort(roots)
    return signature(order, [r for r in roots if r.buffer is None]).digest()


def _name(node: Node, names: dict) -> str:
    return names.get(node.id, f"%{node.id}")


def format_graph(roots) -> str:
    """Readable listing of the pending graph, one node per line, with user source lines."""
    order = toposort(roots)
    names = {}
    lines = []
    for leaf in leaves(order):
        names[leaf.id] = f"in{len(names)}"
        what = f" = {leaf.buffer.item()!r}" if leaf.op.name == "scalar" else ""
        lines.append(f"  {names[leaf.id]}: {leaf.dtype}{list(leaf.shape)} {leaf.op.name}{what}")
    for node in order:
        args = ", ".join(_name(a, names) for a in node.args)
        attrs = f" [{_attr_text(node.attrs)}]" if node.attrs else ""
        site = f"    # {node.site}" if node.site else ""
        lines.append(f"  %{node.id}: {node.dtype}{list(node.shape)} = {node.op.name}({args}){attrs}{site}")
    return "\n".join(lines)


def to_dot(roots) -> str:
    """The pending graph as Graphviz dot text."""
    order = toposort(roots)
    lines = ["digraph lazynum {", "  node [shape=box, fontname=monospace];"]
    for leaf in leaves(order):
        lines.append(f'  n{leaf.id} [label="{leaf.op.name}\\n{leaf.dtype}{list(leaf.shape)}", style=dashed];')
    for node in order:
        lines.append(f'  n{node.id} [label="{node.op.name}\\n{node.dtype}{list(node.shape)}"];')
        for arg in node.args:
            lines.append(f"  n{arg.id} -> n{node.id};")
    lines.append("}")
    return "\n".join(lines)
