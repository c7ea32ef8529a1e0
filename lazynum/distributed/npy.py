"""``.npy`` files as Dask arrays whose tasks memory-map their own block.

``dask.array.from_array(numpy.load(path, mmap_mode="r"))`` would pickle the mapped data
into the graph when it is sent to a cluster; ``NpyFile`` pickles as its path, and each
task maps the file and reads only its block, on whichever worker runs it.
"""
from __future__ import annotations

import os

import numpy as np


class NpyFile:
    """A ``.npy`` file as an array-like Dask reads blocks from (shape, dtype, slicing)."""

    def __init__(self, path):
        self.path = os.fspath(path)
        header = np.load(self.path, mmap_mode="r")
        self.shape, self.dtype, self.ndim = header.shape, header.dtype, header.ndim
        self.fortran = header.flags.f_contiguous and not header.flags.c_contiguous
        self.mtime = os.stat(self.path).st_mtime_ns

    def __getitem__(self, index):
        return np.load(self.path, mmap_mode="r")[index]

    def __getstate__(self):
        return (self.path, self.shape, self.dtype, self.ndim, self.fortran, self.mtime)

    def __setstate__(self, state):
        self.path, self.shape, self.dtype, self.ndim, self.fortran, self.mtime = state


def npy_dask_array(path, chunks="auto"):
    """The Dask array of the ``.npy`` file ``path`` (named by its path, size and mtime)."""
    import dask.array as da
    from dask.base import tokenize
    data = NpyFile(path)
    name = "npy-" + tokenize(data.path, data.mtime, data.shape, str(data.dtype), chunks)
    return da.from_array(data, chunks=chunks, name=name, asarray=False, fancy=False,
                         meta=np.empty((0,) * data.ndim, data.dtype))
