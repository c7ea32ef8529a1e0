"""Stencils over shifted slices: one overlap exchange per base, one task per output block.

``a[1:-1, 1:-1] + a[2:, 1:-1] + a[:-2, 1:-1] + ...`` reads several windows of one base
``a`` of the same shape at different starts.  Read as Dask slices, each window's blocks
straddle the base's blocks, and every shifted operand is rechunked to common chunks (a
few tasks per block per window, and their pieces moved between workers).  Instead, before
a cut is translated, ``plan`` finds each base's windows; the first time one is read inside
the blockwise region, ``extended`` makes, once per base, the base cropped to the windows'
union and overlapped (``dask.array.overlap.overlap``) so that each block also holds the
next ``depth`` elements of its neighbour along every dim where the windows' starts differ.
Every window is then a region input over that one array, read in each task at its own
offset into the block (``blocks.Program.windows``: a NumPy view, nothing copied): the
stencil is one fused task per output block, plus Dask's exchange of the overlaps.

Output block ``j`` along a dim covers window indices ``[o_j, o_j + c_j)``; window ``k``
(start ``s_k``, the union's start ``lo``, ``depth = max s_k - lo``) reads base indices
``lo + (s_k - lo) + [o_j, o_j + c_j)``: all inside ``crop[o_j : o_j + c_j + depth]``, the
overlapped block ``j`` (the last block takes its ``depth`` extra elements as chunk size:
no neighbour after it).  Dask's overlap takes its halo from the next block only, so every
block after the first must hold at least ``depth`` elements; where one does not, the
windows are read the Dask way (rechunked slices), never wrongly.
"""
from __future__ import annotations

from typing import NamedTuple

from . import views


class HaloGroup(NamedTuple):
    """The windows of shape ``shape`` over one base node."""
    base: object          # the base node
    shape: tuple          # the windows' shape
    lo: tuple             # per dim: the smallest start
    depth: tuple          # per dim: the largest start minus the smallest


class Window(NamedTuple):
    """A view node read as a window of its halo group; ``strided`` reads it the Dask way."""
    group: HaloGroup
    offset: tuple         # per dim: the window's start minus the group's
    strided: views.Strided


def plan(order) -> dict:
    """View node id -> ``Window``, for every base that two windows of one shape read at
    different starts (plain step-1 slices of every dim, each at least 2 long)."""
    found: dict = {}
    for node in order:
        starts = _window_starts(node)
        if starts is not None:
            found.setdefault((node.args[0].id, node.shape), []).append((node, starts))
    windows = {}
    for members in found.values():
        if len({starts for _, starts in members}) < 2:
            continue
        first = members[0][0]
        rank = len(first.shape)
        lo = tuple(min(starts[d] for _, starts in members) for d in range(rank))
        depth = tuple(max(starts[d] for _, starts in members) - lo[d] for d in range(rank))
        group = HaloGroup(first.args[0], tuple(first.shape), lo, depth)
        for node, starts in members:
            strided = views.classify(node.args[0].shape, node.attrs)[1]
            windows[node.id] = Window(group, tuple(s - l for s, l in zip(starts, lo)), strided)
    return windows


def _window_starts(node):
    """The starts of a view that is ``base[s0:s0 + n0, s1:s1 + n1, ...]``, else None."""
    if node.op.name != "view" or any(int(d) < 2 for d in node.shape):
        return None
    kind = views.classify(node.args[0].shape, node.attrs)
    if kind is None or kind[0] != "strided":
        return None
    strided = kind[1]
    if any(e != "base" for e in strided.expand) or \
            strided.order != tuple(range(len(strided.order))) or \
            not all(isinstance(i, slice) and i.step == 1 for i in strided.index):
        return None
    return tuple(i.start for i in strided.index)


def extended(base_array, group: HaloGroup, chunks: tuple):
    """The base cropped to the group's windows and overlapped for output ``chunks`` (per
    dim, the windows' chunks), or None where Dask's overlap cannot serve them (module
    docstring)."""
    import dask.array as da
    if any(c < d for cs, d in zip(chunks, group.depth) for c in cs[1:-1]):
        return None
    crop = base_array[tuple(slice(lo, lo + n + d)
                            for lo, n, d in zip(group.lo, group.shape, group.depth))]
    target = tuple(cs[:-1] + (cs[-1] + d,) for cs, d in zip(chunks, group.depth))
    if crop.chunks != target:
        crop = crop.rechunk(target)
    depth = {k: (0, d) for k, d in enumerate(group.depth)    # one chunk: no neighbours
             if d and len(target[k]) > 1}
    out = da.overlap.overlap(crop, depth=depth, boundary="none")
    want = tuple(tuple(c + d for c in cs) for cs, d in zip(chunks, group.depth))
    return out if out.chunks == want else None
