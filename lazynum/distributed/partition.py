"""A cut that reads distributed inputs, translated into a Dask graph.

The pending nodes are walked in dependency order and each gets a value:

- a lazynum ``Node``: nothing distributed reaches it; this process computes it (with
  lazynum, when a distributed value needs it: a Python scalar or small array operand);
- ``Dist``: a Dask array (a distributed input, a tree reduction's result, the result of
  one of Dask's own algorithms: matmul, einsum, concatenate, cumsum, rechunking views);
- ``region.Blockwise`` / ``region.Flat``: computed block by block inside the region.

Elementwise ops (ufuncs, casts, ``where``) with Python scalars and small operands,
reshapes that only add or drop length-1 axes, and reductions over axes a block holds whole
(a row softmax over row blocks) stay in the region, so a chain of them is one task per
block.  A reduction across blocks is a tree reduction whose chunk step is the region's
program with the partial reduction fused in.  A boolean selection reduced as a whole
(``x[x > t].mean()``) reads the flattened data and mask as a ``Flat``: reduced under the
mask per block, never compacted, never gathered.  Anything else raises
``NotImplementedError`` naming the op and the line: a wrong result is never an option.
"""
from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from ..expr import node as nodes
from ..expr.shapes import broadcast_shapes
from ..runtime.sync import sync_nodes
from . import algorithms, blocks, halo, source, spread, views
from .reductions import Reduced, TreeReductions, pass_order
from .region import Blockwise, Deferred, Flat, Region


class Dist(NamedTuple):
    """A value that is a Dask array."""
    array: object


class Translation:
    """One cut's values (see module docstring); ``to_dask`` gives any of them as Dask."""

    def __init__(self, order, site: str, backend: str):
        self.site = site
        self.region = Region(backend, _label(site))
        self.values: dict = {}
        self.windows = halo.plan(order)     # stencils' shifted slices (``halo``)
        self._extended: dict = {}           # (halo group, chunks) -> overlapped base
        self.reductions = TreeReductions(self.region)
        for node in pass_order(order):
            self.values[node.id] = self._translate(node)

    def value(self, node):
        return self.values.get(node.id, node)

    # --- the walk -------------------------------------------------------------------------
    def _translate(self, node):
        if node.op is source.DASK_SOURCE:
            return Dist(source.array_of(node))
        args = [self.value(a) for a in node.args]
        if all(isinstance(v, nodes.Node) for v in args):
            return node                   # computed here, by lazynum, when needed
        args = [Dist(self.reductions.array(v))
                if isinstance(v, Reduced) and self.reductions.rank(v) else v for v in args]
        kind, name = node.op.kind, node.op.name
        if kind == "elementwise" or name == "assert_all":   # a check passes its value on
            return self._elementwise(node, args)
        if name in ("argmax", "argmin"):
            return self._arg_reduction(node, args[0])
        if kind == "reduce":
            return self._reduction(node, args[0])
        if name == "view":
            return self._view(node, args[0])
        handler = algorithms.HANDLERS.get(name)
        if handler is None:
            raise self.unsupported(node)
        try:
            out = handler(node, [self.to_dask(v, a) for v, a in zip(args, node.args)])
        except algorithms.Unsupported as why:
            raise self.unsupported(node, str(why)) from None
        return Dist(out if out.dtype == node.dtype else out.astype(node.dtype))

    def unsupported(self, node, why: str = "") -> NotImplementedError:
        return NotImplementedError(
            f"lazynum.distributed: {node.op.name!r} on a distributed array has no Dask form"
            f"{why} (the sync at {self.site}). Hand the operand to Dask with x.to_dask(), or "
            f"gather it into this process with lazynum.asarray(x.to_dask().compute()).")

    # --- elementwise ----------------------------------------------------------------------
    def _elementwise(self, node, args):
        shapes = [a.shape for a in node.args]
        if tuple(node.shape) != tuple(broadcast_shapes(*shapes)):
            raise self.unsupported(node, " (its result is not its operands' broadcast shape)")
        if any(isinstance(v, Flat) for v in args):
            flat = self._flat_elementwise(node, args)
            if flat is not None:
                return flat
            args = [Dist(self.to_dask(v)) if isinstance(v, Flat) else v for v in args]
        rank = len(node.shape)
        out_axes = [None] * rank
        for v in args:
            if isinstance(v, Blockwise):
                for o, a in _aligned(v.axes, rank):
                    if a is not None and out_axes[o] is None:
                        out_axes[o] = a
        refs = tuple(self._operand(a, v, out_axes).ref for a, v in zip(node.args, args))
        return self.region.step(("op", node.op.name, node.attrs, refs), out_axes, node.dtype)

    def _flat_elementwise(self, node, args):
        """The op on the unflattened values when every array operand is the same flattening
        or a single value (0-d, or of shape (1,): ``var``'s keepdims mean of a selection)."""
        inner = {v.inner.axes for v in args if isinstance(v, Flat)}
        others = [a for a, v in zip(node.args, args) if not isinstance(v, Flat)]
        if len(inner) != 1 or any(tuple(a.shape) not in ((), (1,)) for a in others):
            return None
        axes = inner.pop()
        refs = tuple(v.inner.ref if isinstance(v, Flat) else self._operand(a, v, []).ref
                     for a, v in zip(node.args, args))
        return Flat(self.region.step(("op", node.op.name, node.attrs, refs), axes, node.dtype))

    def _operand(self, arg, v, out_axes: list) -> Blockwise:
        """Operand ``v`` (of node ``arg``) read along ``out_axes`` (aligned at the right)."""
        region = self.region
        if isinstance(v, nodes.Node) and not arg.shape:
            return self._scalar(v)
        if isinstance(v, Reduced):
            return self._reduced(v)
        if isinstance(v, halo.Window):
            read = self._window(v, out_axes)
            if read is not None:
                return read
            v = Dist(self.to_dask(v))
        if isinstance(v, Blockwise):
            mapping = {a: out_axes[o] for o, a in _aligned(v.axes, len(out_axes))
                       if a is not None and a != out_axes[o]}
            if all(region.chunks[a] == region.chunks[b] for a, b in mapping.items()):
                return region.along(v, mapping)
            v = Dist(region.materialize(v))
        array = v.array if isinstance(v, Dist) else self.to_dask(v, arg, out_axes)
        canonical = region.canonical_axes(array)
        axes = []
        for (o, a), d in zip(_aligned(canonical, len(out_axes)), array.shape):
            if d == 1:
                axes.append(None)
                continue
            if out_axes[o] is None:
                out_axes[o] = a
            axes.append(out_axes[o])
        return region.add_input(array, axes)

    def _scalar(self, node) -> Blockwise:
        """A 0-d operand computed here: a Python-scalar parameter of the block program."""
        if node.op is nodes.SCALAR or node.buffer is not None:
            value = node.buffer
        elif node.op.name == "literal":
            return self.region.step(("op", "literal", node.attrs, ()), (), node.dtype)
        else:
            value = _computed(node)
        return self.region.step(("scalar", value.item(), value.dtype.str), (), node.dtype)

    def _blockwise(self, arg, v) -> Blockwise:
        """Any distributed value as a region value along its own axes."""
        if isinstance(v, Blockwise):
            return v
        if isinstance(v, Reduced):
            return self._reduced(v)
        if isinstance(v, halo.Window):
            read = self._window(v, [None] * len(v.group.shape))
            if read is not None:
                return read
        array = self.to_dask(v, arg)
        return self.region.add_input(array, self.region.canonical_axes(array))

    def blockwise_value(self, arg, v) -> Blockwise:
        """Distributed value ``v`` (of node ``arg``) as a region value along its own axes."""
        return self._blockwise(arg, v)

    def _reduced(self, v: Reduced) -> Blockwise:
        """A 0-d reduction result read in the region, its group still open to members that
        do not read it (``reductions``); a larger one as its Dask array."""
        if self.reductions.rank(v):
            return self._blockwise(None, Dist(self.reductions.array(v)))
        deferred = Deferred(f"lazynum-reduced-{v.group}-{v.index}", v, self.reductions.dtype(v))
        return self.region.add_input(deferred, ())

    def _window(self, window, out_axes: list):
        """A stencil's shifted slice as a window into its overlapped base (``halo``), read
        along ``out_axes`` (aligned at the right; unset ones are set); None where the
        overlap cannot serve those axes' chunks."""
        group = window.group
        base = self.to_dask(self.value(group.base), group.base)
        natural = base[tuple(slice(lo, lo + n) for lo, n in zip(group.lo, group.shape))].chunks
        axes = []
        for (o, a) in _aligned(self.region.canonical_axes(group.shape, natural), len(out_axes)):
            if out_axes[o] is None:
                out_axes[o] = a
            axes.append(out_axes[o])
        chunks = tuple(self.region.chunks[a] for a in axes)
        key = (group, chunks)
        if key not in self._extended:
            self._extended[key] = halo.extended(base, group, chunks)
        extended = self._extended[key]
        if extended is None:
            return None
        return self.region.add_input(extended, axes, tuple(zip(window.offset, group.depth)))

    # --- reductions -----------------------------------------------------------------------
    def _reduction(self, node, v):
        attrs = node.attrs
        if isinstance(v, Flat) and node.shape == ():        # a selection reduced whole
            v = v.inner
            attrs = (tuple(range(len(v.axes))),)
        else:
            v = self._blockwise(node.args[0], v)
        dims = tuple(attrs[0])
        region = self.region
        kept = tuple(a for d, a in enumerate(v.axes) if d not in dims)
        if all(region.single_chunk(v.axes[d]) for d in dims):      # whole rows in a block
            return region.step(("op", node.op.name, attrs, (v.ref,)), kept, node.dtype)
        if not blocks.can_combine(node.op.name):
            raise self.unsupported(node, " across blocks")
        moments = spread.match(self, node)
        if moments is not None:
            return moments
        partial = region.step(("op", node.op.name, attrs, (v.ref,)), kept, node.dtype)
        partial = spread.keepdims(region, partial, v.axes, dims)
        return self.reductions.add((partial,), dims, node.op.name, node.dtype, len(node.shape))

    def _arg_reduction(self, node, v):
        axis = node.attrs[0]
        if not isinstance(v, Flat):
            v = self._blockwise(node.args[0], v)
            if self.region.single_chunk(v.axes[axis]):
                kept = tuple(a for d, a in enumerate(v.axes) if d != axis)
                return self.region.step(("op", node.op.name, node.attrs, (v.ref,)), kept,
                                        node.dtype)
        import dask.array as da
        function = da.argmax if node.op.name == "argmax" else da.argmin
        return Dist(function(self.to_dask(v, node.args[0]), axis=axis).astype(node.dtype))

    # --- views ----------------------------------------------------------------------------
    def _view(self, node, v):
        base = node.args[0]
        kind = views.classify(base.shape, node.attrs)
        if kind is None:
            raise self.unsupported(node, f" (the layout {node.attrs} is not a slice, "
                                         "transpose, broadcast or reshape)")
        what, detail = kind
        if base.op.name == "sort" and len(base.shape) == 1 and what == "strided" \
                and algorithms.end_slice(base.shape[0], detail.index[0]) \
                and detail.expand == ("base",):     # one end of a 1-D sort: a top-k
            source_node = base.args[0]
            array = self.to_dask(self.value(source_node), source_node)
            return Dist(algorithms.top_k(array, detail.index[0]))
        if node.id in self.windows and not isinstance(v, Flat):
            return self.windows[node.id]
        if what == "expand" and not isinstance(v, Flat):
            v = self._blockwise(base, v)
            kept = iter(a for a in v.axes if a is not None)
            axes = tuple(None if d == 1 else next(kept) for d in node.shape)
            return self.region.step(("reshape", axes, v.ref), axes, node.dtype)
        if what == "ravel" and not isinstance(v, Flat):
            return Flat(self._blockwise(base, v))
        array = self.to_dask(v, base)
        if what == "strided":
            return Dist(views.apply_strided(array, detail))
        return Dist(array.reshape(tuple(int(d) for d in node.shape)))

    # --- leaving the region ---------------------------------------------------------------
    def to_dask(self, v, node=None, out_axes=()):
        """Value ``v`` as a Dask array (a value computed here is chunked like the region's
        axes it will be read along, ``out_axes`` aligned at the right)."""
        if isinstance(v, Dist):
            return v.array
        if isinstance(v, Reduced):
            return self.reductions.array(v)
        if isinstance(v, Blockwise):
            return self.region.materialize(v)
        if isinstance(v, Flat):
            return self.region.materialize(v.inner).reshape(-1)
        if isinstance(v, halo.Window):
            base = v.group.base
            return views.apply_strided(self.to_dask(self.value(base), base), v.strided)
        import dask.array as da
        value = _computed(v)
        chunks = []
        for (o, _), d in zip(_aligned(range(value.ndim), len(out_axes) or value.ndim),
                             value.shape):
            axis = out_axes[o] if out_axes and d != 1 else None
            chunks.append(self.region.chunks[axis] if axis is not None else (d,))
        return da.from_array(value, chunks=tuple(chunks), name=False)


def _computed(node) -> np.ndarray:
    """The value of a node this process computes (a lazynum sync of its own)."""
    if node.buffer is None:
        sync_nodes([node], "dask_operand", explicit=True)
    return node.buffer


def _aligned(axes, rank: int):
    """(output dim, axis) for ``axes`` aligned at the right of ``rank`` output dims."""
    offset = rank - len(axes)
    return [(offset + k, a) for k, a in enumerate(axes)]


def _label(site: str) -> str:
    """A Dask key prefix naming the user's line (the dashboard groups tasks by it)."""
    filename, _, line = site.rpartition(":")
    stem = re.sub(r"\W+", "_", filename.rsplit("/", 1)[-1].removesuffix(".py")) or "lazynum"
    return f"{stem}_{line}" if line.isdigit() else stem
