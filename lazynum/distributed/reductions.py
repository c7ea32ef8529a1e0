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
    partials: tuple           # keepdims-shaped partial values along the input axes
    name: str                 # the reduction primitive (reduce_sum, ...) or "moments"
    dtype: np.dtype           # the result's
    rank: int                 # the result's rank
    finish: object            # None, or a function of the folded fields' Dask arrays


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
        region.resolve = self.array    # a 0-d result read in the region: made when needed
        self._groups: list = []        # group -> (dims, [members])
        self._open: dict = {}          # (input axes, dims) -> open group
        self._folded: dict = {}        # group -> per member, its folded fields' arrays
        self._arrays: dict = {}        # Reduced -> its Dask array

    def add(self, partials, dims: tuple, name: str, dtype, rank: int, finish=None) -> Reduced:
        """A reduction whose partial values (one, or a ``"moments"`` triple) are ``partials``,
        combined over ``dims``; ``finish`` maps the folded arrays to the result."""
        for deferred in self.region.deferred_inputs([p.ref for p in partials]):
            self.array(deferred.value)         # its group must be made first: it is closed
        key = (partials[0].axes, dims)
        group = self._open.get(key)
        if group is None:
            group = self._open[key] = len(self._groups)
            self._groups.append((dims, []))
        members = self._groups[group][1]
        members.append(_Member(tuple(partials), name, np.dtype(dtype), rank, finish))
        return Reduced(group, len(members) - 1)

    def rank(self, value: Reduced) -> int:
        return self._groups[value.group][1][value.index].rank

    def dtype(self, value: Reduced) -> np.dtype:
        return self._groups[value.group][1][value.index].dtype

    def array(self, value: Reduced):
        """The Dask array of a reduction's result (its group is made on first use)."""
        found = self._arrays.get(value)
        if found is None:
            folded = self._folded.get(value.group)
            if folded is None:
                folded = self._folded[value.group] = self._make(value.group)
            member = self._groups[value.group][1][value.index]
            fields = folded[value.index]
            found = fields[0] if member.finish is None else member.finish(*fields)
            self._arrays[value] = found
        return found

    def _make(self, group: int) -> list:
        """Per member, the Dask arrays of its folded fields."""
        import dask.array as da
        dims, members = self._groups[group]
        key = (members[0].partials[0].axes, dims)
        if self._open.get(key) == group:
            del self._open[key]
        rank = members[0].rank
        if len(members) == 1 and len(members[0].partials) == 1:
            (member,) = members
            partials = self.region.materialize(member.partials[0], partial_axes=dims)
            combine = blocks.combiner(member.name)
            dtype, label = member.dtype, member.name
        else:
            values = [p for m in members for p in m.partials]
            partials = self.region.materialize_fields(values, dims)
            items, first = [], 0
            for m in members:
                items.append((m.name, tuple(range(first, first + len(m.partials)))))
                first += len(m.partials)
            combine = blocks.fields_combiner(tuple(items))
            dtype, label = partials.dtype, "reductions"
        reduced = da.reduction(partials, blocks.keep, combine, axis=dims, keepdims=False,
                               dtype=dtype, combine=combine, concatenate=True,
                               name=f"lazynum-{label}-{partials.name[-32:]}",
                               meta=np.empty((0,) * rank, dtype))
        if dtype.names is None:
            return [(reduced,)]
        out, first = [], 0
        for m in members:
            out.append(tuple(reduced[f"r{k}"] for k in range(first, first + len(m.partials))))
            first += len(m.partials)
        return out
