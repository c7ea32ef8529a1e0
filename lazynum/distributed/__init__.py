"""The same lazy program on a Dask cluster: Dask is the engine, lazynum runs in each task.

``lazynum.asarray(dask_array)`` (or ``lazynum.from_dask``) gives a lazy array whose leaf is
the Dask array's blocks, wherever they live; operations record as usual.  A sync of a
result that reads one runs on Dask (``execute``): the cut becomes a Dask graph
(``partition``) whose blockwise regions are one task per output block, each running a
fused lazynum program (``blocks``).  ``x.to_dask()`` keeps a result distributed.

Importing this package imports neither Dask nor distributed; the runtime's hooks are
installed when the first distributed input is made.
"""
from __future__ import annotations

from ..array import extension
from ..array.arraytype import ndarray, wrap
from . import execute, npy, source
from .execute import GatherLimitError

__all__ = ["from_dask", "from_npy", "from_zarr", "to_dask", "GatherLimitError"]


def from_dask(array) -> ndarray:
    """A lazy array over a Dask array's blocks (no data comes into this process).

    Parameters
    ----------
    array : dask.array.Array
        Chunked input with known chunk sizes and a dtype lazynum supports.

    Returns
    -------
    lazynum.ndarray
        Operations on it record as usual; a sync runs on Dask's current scheduler.

    Examples
    --------
    >>> import dask.array as da, lazynum as np
    >>> x = np.from_dask(da.ones((1000, 1000), chunks=250))
    >>> float(((x - 0.5) ** 2).sum())
    250000.0
    """
    return wrap(_source(array))


def _source(array):
    if not source.is_dask_array(array):          # a DataFrame, a Delayed, ...
        raise TypeError(f"lazynum converts Dask arrays, not {type(array).__name__}")
    execute.install()
    return source.source_node(array)


def from_npy(path, chunks="auto") -> ndarray:
    """A lazy distributed array over a ``.npy`` file, memory-mapped block by block.

    Parameters
    ----------
    path : str or os.PathLike
        A file written by ``numpy.save`` (readable by every worker at the same path).
    chunks : int, tuple or "auto"
        Dask chunks (``dask.array.from_array``'s meaning).
    """
    return from_dask(npy.npy_dask_array(path, chunks))


def from_zarr(url, component=None, chunks=None, storage_options=None) -> ndarray:
    """A lazy distributed array over a Zarr array, read block by block by the workers.

    Parameters
    ----------
    url : str, os.PathLike, zarr.Array or store
        Where the array is (a path or URL every worker can read, or a Zarr array).
    component : str, optional
        The array's path inside a Zarr group.
    chunks : int, tuple or "auto", optional
        Dask chunks; by default the Zarr array's own chunks (each task reads whole ones).
    storage_options : dict, optional
        Passed to the storage backend (fsspec) for remote URLs.

    Returns
    -------
    lazynum.ndarray

    Notes
    -----
    Needs the ``zarr`` package (``pip install 'lazynum[dask]'``); it is imported only
    here.  A result stays distributed with ``x.to_dask()``, and ``.to_zarr(...)`` on that
    writes it back block by block.
    """
    try:
        import zarr  # noqa: F401  (imported for its error alone: Dask would import it)
    except ImportError as error:
        raise ImportError("lazynum.from_zarr needs the zarr package: pip install "
                          "'lazynum[dask]' (or pip install zarr)") from error
    import dask.array as da
    return from_dask(da.from_zarr(url, component=component, chunks=chunks,
                                  storage_options=storage_options))


def to_dask(x):
    """``x`` as a ``dask.array.Array``: still distributed when ``x`` reads a distributed
    input (nothing is computed), else ``x``'s value as one chunk.

    Parameters
    ----------
    x : lazynum.ndarray

    Returns
    -------
    dask.array.Array
    """
    if not isinstance(x, ndarray):
        raise TypeError(f"to_dask expects a lazynum.ndarray, got {type(x).__name__}")
    return execute.to_dask(x._n())


def install() -> None:
    """Plug into the front end: Dask arrays convert to distributed inputs, and
    ``ndarray.to_dask`` exists (called by ``lazynum/__init__``)."""
    extension.register_hook("from_dask", _source)
    ndarray.to_dask = to_dask
