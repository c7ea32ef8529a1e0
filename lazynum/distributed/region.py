"""Blockwise regions: the part of a cut that runs as one lazynum program per output block.

While a cut is translated (``partition``), every value computed block by block is a
``Blockwise``: a step of the translation's one ``Region``, with, per dim, the *index axis*
it runs along (a blockwise loop index: a size and its chunks) or None for a dim of length
1.  Inputs are Dask arrays read along index axes; steps are primitives on earlier values.
Only when a value leaves the blockwise world (a tree reduction's partials, a Dask
algorithm's operand, a result) is it *materialized*: the steps it needs become a
``blocks.Program`` and one ``dask.array.blockwise`` task per output block runs it.

Index axes are shared by value: a dim of a Dask input gets the axis of its size and its
position among the input's dims of that size, so ``a - b`` and ``2*a + b*b - a/3`` read
``a`` and ``b`` along the same loops; an input chunked differently is rechunked to the
axis's chunks.  When an op aligns a value with a different axis of the same extent (a
vector broadcast against the second of two equal dims), the value's steps are re-emitted
along that axis (``along``), which costs nothing at run time.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import blocks


class Blockwise(NamedTuple):
    """A value computed inside the region: step ``ref`` (or input ``-1 - ref``)."""
    ref: int
    axes: tuple           # per dim: an index axis id, or None for a dim of length 1
    dtype: np.dtype


class Flat(NamedTuple):
    """The C-order flattening of ``inner`` (a boolean selection's data or mask), kept
    unflattened while only elementwise ops and full reductions read it."""
    inner: Blockwise


class Deferred(NamedTuple):
    """A 0-d input whose Dask array is made only when a program reading it is materialized
    (a reduction's result: its group may still take members, ``reductions``)."""
    name: str
    value: object         # what ``Region.resolve`` turns into the Dask array
    dtype: np.dtype


class Region:
    """The translation's blockwise steps, inputs and index axes (see module docstring)."""

    def __init__(self, backend: str, label: str):
        self.backend = backend
        self.label = label
        self.sizes: list = []          # index axis -> extent
        self.chunks: list = []         # index axis -> chunks (a tuple of ints)
        self._canonical: dict = {}     # (extent, occurrence) -> index axis
        self.inputs: list = []         # (dask array, axes, window or None)
        self._input_refs: dict = {}    # (array name, axes, window) -> ref
        self.steps: list = []          # (step tuple, axes)
        self._along: dict = {}         # (ref, mapping) -> ref re-emitted along other axes
        self._materialized: dict = {}  # (ref, axes) -> dask array
        self.resolve = None            # Deferred -> its Dask array (set by the translation)

    # --- index axes -----------------------------------------------------------------------
    def new_axis(self, extent: int, chunks: tuple) -> int:
        self.sizes.append(int(extent))
        self.chunks.append(tuple(int(c) for c in chunks))
        return len(self.sizes) - 1

    def canonical_axes(self, array, chunks=None) -> tuple:
        """Index axes for a Dask array's dims (by extent and occurrence; None for 1).

        ``array`` may be a shape when ``chunks`` gives the chunks of a new axis."""
        shape = getattr(array, "shape", array)
        seen: dict = {}
        axes = []
        for extent, chunks in zip(shape, array.chunks if chunks is None else chunks):
            if extent == 1:
                axes.append(None)
                continue
            occurrence = seen[extent] = seen.get(extent, -1) + 1
            key = (int(extent), occurrence)
            if key not in self._canonical:
                self._canonical[key] = self.new_axis(extent, chunks)
            axes.append(self._canonical[key])
        return tuple(axes)

    def single_chunk(self, axis) -> bool:
        return axis is None or len(self.chunks[axis]) == 1

    # --- inputs and steps -----------------------------------------------------------------
    def add_input(self, array, axes, window=None) -> Blockwise:
        """``array`` read along ``axes`` (rechunked to them where its chunks differ).

        ``window``: per dim, ``(offset, extra)``: each block of ``array`` is ``extra``
        longer than the axis's block (an overlap with its neighbours, ``halo``) and the
        value reads ``block[offset:offset + axis block]``; its chunks are the caller's."""
        axes = tuple(axes)
        wanted = {d: self.chunks[a] for d, a in enumerate(axes)
                  if a is not None and tuple(array.chunks[d]) != self.chunks[a]}
        if wanted and window is None:           # (a Deferred input is 0-d: never here)
            array = array.rechunk(wanted)
        key = (array.name, axes, window)
        ref = self._input_refs.get(key)
        if ref is None:
            self.inputs.append((array, axes, window))
            ref = self._input_refs[key] = -len(self.inputs)
        return Blockwise(ref, axes, np.dtype(array.dtype))

    def step(self, step: tuple, axes, dtype) -> Blockwise:
        self.steps.append((step, tuple(axes)))
        return Blockwise(len(self.steps) - 1, tuple(axes), np.dtype(dtype))

    def shape_of(self, value: Blockwise) -> tuple:
        return tuple(1 if a is None else self.sizes[a] for a in value.axes)

    # --- re-emitting a value along other axes ---------------------------------------------
    def along(self, value: Blockwise, mapping: dict) -> Blockwise:
        """``value`` with its index axes renamed by ``mapping`` (equal extents and chunks)."""
        mapping = {a: b for a, b in mapping.items() if a != b}
        if not mapping:
            return value
        return Blockwise(self._along_ref(value.ref, mapping), _renamed(value.axes, mapping),
                         value.dtype)

    def _along_ref(self, ref: int, mapping: dict) -> int:
        key = (ref, tuple(sorted(mapping.items())))
        found = self._along.get(key)
        if found is not None:
            return found
        if ref < 0:
            array, axes, window = self.inputs[-1 - ref]
            new = self.add_input(array, _renamed(axes, mapping), window).ref
        else:
            (step, axes) = self.steps[ref]
            new = self.step(self._renamed_step(step, mapping), _renamed(axes, mapping),
                            np.bool_).ref
        self._along[key] = new
        return new

    def _renamed_step(self, step, mapping):
        if step[0] == "op":
            return step[:3] + (tuple(self._along_ref(r, mapping) for r in step[3]),)
        if step[0] == "reshape":
            return ("reshape", _renamed(step[1], mapping), self._along_ref(step[2], mapping))
        return step

    # --- materialization ------------------------------------------------------------------
    def materialize(self, value: Blockwise, partial_axes=()):
        """One ``dask.array.blockwise`` task per block of ``value`` (see module docstring).

        ``partial_axes`` are value dims whose blocks each hold one partial result (a tree
        reduction's chunk step): their chunks are 1 per block."""
        key = (value.ref, value.axes, tuple(partial_axes))
        found = self._materialized.get(key)
        if found is not None:
            return found
        if value.ref < 0 and not partial_axes:
            array, axes, window = self.inputs[-1 - value.ref]
            if axes == value.axes and window is None:
                return self._array(array)
        out = self._blockwise((value.ref,), value.axes, partial_axes, value.dtype)
        self._materialized[key] = out
        return out

    def materialize_fields(self, values, partial_axes):
        """Several values along the same axes computed by one task per block: a Dask array
        of a structured dtype, field ``r<k>`` being ``values[k]`` (the partial results of
        reductions that read the same blocks: one pass over the data for all of them)."""
        dtype = np.dtype([(f"r{k}", v.dtype) for k, v in enumerate(values)])
        return self._blockwise(tuple(v.ref for v in values), values[0].axes, partial_axes,
                               dtype)

    def _blockwise(self, refs, value_axes, partial_axes, dtype):
        import dask.array as da
        from dask.base import tokenize
        program, inputs, letters = self._program(refs)
        out_ind, new_axes = [], {}
        for a in value_axes:
            if a is None:                    # a dim of length 1 the inputs do not have
                new_axes[f"n{len(new_axes)}"] = 1
                out_ind.append(f"n{len(new_axes) - 1}")
            else:
                out_ind.append(letters[a])
        inputs = [(self._array(array), axes, window) for array, axes, window in inputs]
        args, singles = [], 0
        for array, axes, _ in inputs:
            index = []
            for a in axes:                   # an input's dims of length 1: one block each
                index.append(letters[a] if a is not None else f"s{singles}")
                singles += a is None
            args.extend((array, tuple(index)))
        # the output's chunks are its axes' (a windowed input's blocks are longer), and the
        # inputs are aligned already (Dask's unify_chunks would undo an overlap)
        adjust = {out_ind[d]: self.chunks[a] for d, a in enumerate(value_axes) if a is not None}
        adjust.update({out_ind[d]: 1 for d in partial_axes if value_axes[d] is not None})
        token = tokenize(program, [array.name for array, _, _ in inputs], value_axes, adjust)
        return da.blockwise(blocks.run_block, tuple(out_ind), *args, program=program,
                            dtype=dtype, new_axes=new_axes or None,
                            adjust_chunks=adjust, concatenate=True, align_arrays=False,
                            name=f"lazynum-{self.label}-{token}",
                            meta=np.empty((0,) * len(value_axes), dtype))

    def _array(self, array):
        return self.resolve(array.value) if isinstance(array, Deferred) else array

    def deferred_inputs(self, refs) -> list:
        """The ``Deferred`` inputs the values ``refs`` read."""
        return [self.inputs[-1 - r][0] for r in self._needed(refs)
                if r < 0 and isinstance(self.inputs[-1 - r][0], Deferred)]

    def _needed(self, refs) -> set:
        needed, stack = set(), list(refs)
        while stack:
            r = stack.pop()
            if r in needed:
                continue
            needed.add(r)
            if r >= 0:
                step = self.steps[r][0]
                stack.extend(step[3] if step[0] == "op" else
                             [step[2]] if step[0] == "reshape" else [])
        return needed

    def _program(self, refs: tuple):
        """The steps ``refs`` need, renumbered, with their inputs and axis letters (a
        program of one output, or of a tuple of outputs: ``blocks.Program``)."""
        needed = self._needed(refs)
        input_refs = sorted((r for r in needed if r < 0), reverse=True)   # -1, -2, ...
        step_refs = sorted(r for r in needed if r >= 0)
        renumber = {r: -1 - k for k, r in enumerate(input_refs)}
        renumber.update({r: k for k, r in enumerate(step_refs)})
        inputs = [self.inputs[-1 - r] for r in input_refs]
        letters: dict = {}
        for _, axes, _ in inputs:
            for a in axes:
                if a is not None and a not in letters:
                    letters[a] = f"i{len(letters)}"
        steps = tuple(_renumbered(self.steps[r][0], renumber, letters) for r in step_refs)
        program = blocks.Program(
            inputs=tuple(tuple(None if a is None else letters[a] for a in axes)
                         for _, axes, _ in inputs),
            steps=steps, backend=self.backend,
            output=renumber[refs[0]] if len(refs) == 1 else tuple(renumber[r] for r in refs),
            windows=tuple(window for _, _, window in inputs))
        return program, inputs, letters


def _renamed(axes, mapping) -> tuple:
    return tuple(mapping.get(a, a) if type(a) is int else a for a in axes)


def _renumbered(step, renumber, letters):
    if step[0] == "op":
        return step[:3] + (tuple(renumber[r] for r in step[3]),)
    if step[0] == "reshape":
        return ("reshape", tuple(1 if a is None else letters[a] for a in step[1]),
                renumber[step[2]])
    return step
