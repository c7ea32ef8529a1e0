"""Nested containers of arrays ("pytrees"): tuples, lists and dicts of leaves.

``grad`` accepts and returns gradients in the structure of its arguments.  A leaf is
anything that is not a tuple, list, dict or None (None is an empty subtree, as in JAX).
Dicts flatten in sorted key order (insertion order if the keys do not sort).
"""
from __future__ import annotations

_CONTAINERS = (tuple, list, dict)


class TreeDef:
    """The structure of a flattened tree: rebuilt by ``unflatten``."""
    __slots__ = ("kind", "keys", "children")

    def __init__(self, kind, keys, children):
        self.kind = kind            # "leaf", "none", tuple, list, dict (or a tuple subclass)
        self.keys = keys
        self.children = children

    def __repr__(self):
        if self.kind == "leaf":
            return "*"
        if self.kind == "none":
            return "None"
        return f"{getattr(self.kind, '__name__', self.kind)}({', '.join(map(repr, self.children))})"


_LEAF = TreeDef("leaf", None, ())
_NONE = TreeDef("none", None, ())


def flatten(tree):
    """``(leaves, treedef)``: the leaves in depth-first order and the structure."""
    leaves = []
    return leaves, _flatten(tree, leaves)


def _flatten(tree, leaves):
    # Depth of user containers is small: recursion is fine here (graphs are walked iteratively).
    if tree is None:
        return _NONE
    if isinstance(tree, dict):
        keys = _sorted_keys(tree)
        return TreeDef(dict, keys, tuple(_flatten(tree[k], leaves) for k in keys))
    if isinstance(tree, (tuple, list)):
        return TreeDef(type(tree), None, tuple(_flatten(item, leaves) for item in tree))
    leaves.append(tree)
    return _LEAF


def _sorted_keys(tree: dict) -> tuple:
    """Keys in sorted order (two dicts with equal keys flatten alike, as in JAX); in
    insertion order when they do not sort."""
    try:
        return tuple(sorted(tree))
    except TypeError:
        return tuple(tree)


def unflatten(treedef: TreeDef, leaves):
    """The tree of ``treedef``'s structure holding ``leaves`` (in flatten's order)."""
    it = iter(leaves)
    out = _build(treedef, it)
    if next(it, _END) is not _END:
        raise ValueError("too many leaves for the tree structure")
    return out


_END = object()


def _build(treedef, it):
    kind = treedef.kind
    if kind == "leaf":
        return next(it)
    if kind == "none":
        return None
    children = [_build(child, it) for child in treedef.children]
    if kind is dict:
        return dict(zip(treedef.keys, children))
    if kind is list:
        return children
    if kind is tuple:
        return tuple(children)
    try:                              # namedtuples and other tuple subclasses
        return kind(*children)
    except TypeError:
        return kind(children)


def same_structure(a: TreeDef, b: TreeDef) -> bool:
    sequences = (tuple, list)
    kinds_match = a.kind == b.kind or (a.kind in sequences and b.kind in sequences)
    if not kinds_match or a.keys != b.keys or len(a.children) != len(b.children):
        return False
    return all(same_structure(x, y) for x, y in zip(a.children, b.children))
