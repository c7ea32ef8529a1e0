"""Distributed inputs: a Dask array as a graph leaf that holds no data in this process.

``from_dask(x)`` records a ``dask_source`` leaf: its shape and dtype are the Dask array's,
it stays pending (no buffer), and a sync whose cut reaches one runs on Dask
(``lazynum.distributed.execute``).  The Dask array itself is kept here, keyed by a token
the node carries in its attrs: attrs must stay hashable, printable and free of
references to large objects (``expr/sampling.py`` pins generator handles the same way).
The entry lives as long as the node does.

Shapes are static ints: the client never compiles a cut that reads a distributed input
(the blocks' programs, built on the workers, have symbolic sizes of their own).
"""
from __future__ import annotations

import itertools
import math
import sys
import weakref

import numpy as np

from ..expr import dtypes, node as nodes
from ..expr.registry import NoGradient, register

_arrays: dict = {}                 # token -> dask.array.Array
_tokens = itertools.count(1)


def _never_shaped(args, attrs):
    raise TypeError("distributed inputs are created with lazynum.from_dask, not apply()")


def _not_here(arrays, attrs):
    raise RuntimeError(f"the distributed input {attrs[0]} has no data in this process: a cut "
                       "that reads it runs on Dask (lazynum.distributed)")


DASK_SOURCE = register(
    "dask_source", "leaf", shape=_never_shaped, dtype=_never_shaped, reference=_not_here,
    doc="A chunked Dask array (attrs[0]: its registry token); its blocks stay in the cluster.")
DASK_SOURCE.vjp = NoGradient("a distributed input: data, not an operation")


def is_dask_array(value) -> bool:
    """Whether ``value`` is a ``dask.array.Array`` (never imports Dask itself)."""
    module = sys.modules.get("dask.array")
    return module is not None and isinstance(value, module.Array)


def source_node(array) -> "nodes.Node":
    """A pending ``dask_source`` leaf for the Dask array ``array`` (see module docstring)."""
    if any(math.isnan(c) for dim in array.chunks for c in dim):
        raise ValueError("lazynum.from_dask: the Dask array has unknown chunk sizes; call "
                         "its compute_chunk_sizes() first")
    dtype = dtypes.check(np.dtype(array.dtype), "a Dask array")
    token = f"dask{next(_tokens)}:{array.name}"
    node = nodes.Node(DASK_SOURCE, (), (token,), tuple(int(d) for d in array.shape), dtype)
    _arrays[token] = array
    weakref.finalize(node, _arrays.pop, token, None)
    return node


def array_of(node):
    """The Dask array behind a ``dask_source`` node."""
    return _arrays[node.attrs[0]]
