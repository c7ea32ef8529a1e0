"""Reductions across blocks: tree reductions whose partials share one task per block.

A reduction over axes the blocks split is a ``dask.array.reduction``: a chunk step (the
region's program with the partial reduction fused in: one task per input block computes
the producer chain and its block's sum, max, ...) and NumPy's ``ufunc.reduce`` combining
partials (``blocks.combine``).

Several reductions often read the same blocks: ``a.sum(), a.max(), a.min()``, or a masked
``x[x > t].sum()``, its ``mean()`` and the count ``(x > t).sum()``.  So a reduction is not
materialized when it is translated: it joins the *open group* of reductions with the same
input axes and reduced dims (``add`` returns a ``Reduced`` placeholder), and the group is
made when one of its results is first read (``array``): one program with an output per
member, one task per block returning the partials as the fields of a structured array,
one tree whose combine folds each field with its own ufunc, and a field read per result.
A group closes when it is made; later reductions with the same key open a new one.

``pass_order`` orders a cut so that every reduction whose input needs no other reduction
comes before anything that reads a reduction's result: those all join the first groups
(a cut's "pass" over the data), whatever order the user wrote them in.  A reduction that
needs another one's result (``var``'s squared deviations need the mean) is a second
pass, necessarily.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import blocks
from .region import Blockwise


class Reduced(NamedTuple):
    """Member ``index`` of the reduction group ``group``: a Dask array once the group is
    made."""
    group: int
    index: int


class _Member(NamedTuple):
    partial: Blockwise        # the partial reduction, keepdims-shaped, along the input axes
    name: str                 # the reduction primitive (reduce_sum, reduce_max, ...)
    dtype: np.dtype
    rank: int                 # the result's rank


def pass_order(order) -> list:
    """``order`` (a topological order) stably sorted by the number of reductions on the
    longest path to each node: still topological (a node's count is at least each of its
    arguments'), with every first-pass reduction ahead of any reader of one."""
    level: dict = {}
    for node in order:
        level[node.id] = max((level.get(a.id, 0) + (a.op.kind == "reduce") for a in node.args),
                             default=0)
    return sorted(order, key=lambda node: level[node.id])


class TreeReductions:
    """The cut's reduction groups (see module docstring)."""

    def __init__(self, region):
        self.region = region
        self._groups: list = []        # group -> (dims, [members])
        self._open: dict = {}          # (input axes, dims) -> open group
        self._arrays: dict = {}        # group -> the members' Dask arrays

    def add(self, partial: Blockwise, dims: tuple, name: str, dtype, rank: int) -> Reduced:
        key = (partial.axes, dims)
        group = self._open.get(key)
        if group is None:
            group = self._open[key] = len(self._groups)
            self._groups.append((dims, []))
        members = self._groups[group][1]
        members.append(_Member(partial, name, np.dtype(dtype), rank))
        return Reduced(group, len(members) - 1)

    def array(self, value: Reduced):
        """The Dask array of a reduction's result (its group is made on first use)."""
        arrays = self._arrays.get(value.group)
        if arrays is None:
            arrays = self._arrays[value.group] = self._make(value.group)
        return arrays[value.index]

    def _make(self, group: int) -> list:
        import dask.array as da
        dims, members = self._groups[group]
        key = (members[0].partial.axes, dims)
        if self._open.get(key) == group:
            del self._open[key]
        if len(members) == 1:
            (member,) = members
            partials = self.region.materialize(member.partial, partial_axes=dims)
            combine = blocks.combiner(member.name)
            dtype, label = member.dtype, member.name
        else:
            partials = self.region.materialize_fields([m.partial for m in members], dims)
            combine = blocks.fields_combiner(tuple(m.name for m in members))
            dtype, label = partials.dtype, "reductions"
        rank = members[0].rank
        reduced = da.reduction(partials, blocks.keep, combine, axis=dims, keepdims=False,
                               dtype=dtype, combine=combine, concatenate=True,
                               name=f"lazynum-{label}-{partials.name[-32:]}",
                               meta=np.empty((0,) * rank, dtype))
        if len(members) == 1:
            return [reduced]
        return [reduced[f"r{k}"] for k in range(len(members))]
