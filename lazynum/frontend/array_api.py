"""The Python Array API standard's protocol surface (version 2024.12).

The functions the standard names are lazynum's NumPy functions already (NumPy 2's main
namespace is the standard's namespace, and lazynum's mirrors it); this module adds what
identifies and describes the namespace: ``__array_api_version__``,
``__array_namespace_info__`` (devices, default dtypes, capabilities), and the array
methods ``__array_namespace__``, ``to_device``, ``__dlpack__`` and ``__dlpack_device__``.
lazynum computes on the CPU, so its one device is ``"cpu"``, as NumPy's is.
"""
from __future__ import annotations

import numpy as np

from ..array.arraytype import ndarray
from ..expr import dtypes
from . import protocols

__all__ = ["__array_api_version__", "__array_namespace_info__"]

__array_api_version__ = "2024.12"
# Earlier versions this namespace also satisfies (``__array_namespace__(api_version=...)``).
_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")
_DEVICE = "cpu"

# The standard's dtype kinds, as ``isdtype`` spells them.
_KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating",
          "complex floating", "numeric")


def _check_device(device) -> None:
    if device is not None and device != _DEVICE:
        raise ValueError(f'Device not understood. Only "cpu" is allowed, but received: {device}')


class ArrayNamespaceInfo:
    """What ``lazynum.__array_namespace_info__()`` returns: the namespace's devices,
    default dtypes, dtypes and capabilities (the Array API's inspection utilities)."""

    def capabilities(self) -> dict:
        """Optional features this namespace has.  Boolean-mask indexing and data-dependent
        output shapes (``nonzero``, ``unique_*``) are lazy bounded arrays: both True."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> str:
        """The device new arrays live on: ``"cpu"``."""
        return _DEVICE

    def devices(self) -> list:
        """Every device this namespace can place arrays on."""
        return [_DEVICE]

    def default_dtypes(self, *, device=None) -> dict:
        """The dtypes creation functions use when none is given (NumPy's)."""
        _check_device(device)
        return {"real floating": np.dtype(np.float64),
                "complex floating": np.dtype(np.complex128),
                "integral": np.dtype(np.int64), "indexing": np.dtype(np.intp)}

    def dtypes(self, *, device=None, kind=None) -> dict:
        """The standard's dtypes this namespace computes with, by name, restricted to
        ``kind`` (a kind name of ``isdtype``, or a tuple of them: their union)."""
        _check_device(device)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        for k in kinds:
            if k is not None and k not in _KINDS:
                raise ValueError(f"unsupported kind: {k!r}")
        return {dt.name: dt for dt in _STANDARD_DTYPES if dt in dtypes.SUPPORTED
                and (kind is None or any(np.isdtype(dt, k) for k in kinds))}


# The standard's dtypes, in its listing order (float16 is NumPy's, not the standard's).
_STANDARD_DTYPES = tuple(np.dtype(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.float32, np.float64, np.complex64, np.complex128))


def __array_namespace_info__() -> ArrayNamespaceInfo:  # noqa: N807 (the standard's name)
    """The namespace's inspection object (Array API ``__array_namespace_info__``)."""
    return ArrayNamespaceInfo()


# -- the array's side of the standard --------------------------------------------------------
def array_namespace(self, /, *, api_version=None):
    """``x.__array_namespace__()``: the lazynum module (the namespace of every lazynum
    array), for ``api_version`` None or any version it satisfies."""
    if api_version is not None and api_version not in _VERSIONS:
        raise ValueError(f'Version "{api_version}" of the Array API Standard is not supported.')
    return protocols.namespace()


def to_device(self, device, /, *, stream=None):
    """``x.to_device("cpu")``: ``x`` itself (lazynum's only device)."""
    if stream is not None:
        raise ValueError("The stream argument in to_device() is not supported")
    if device != _DEVICE:
        raise ValueError(f"Unsupported device: {device}. Only 'cpu' is accepted.")
    return self


def dlpack(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
    """``x.__dlpack__()``: a DLPack capsule of the computed value (a sync).

    The capsule exports a private copy: lazynum's computed buffers are immutable and shared
    between arrays, so a consumer may never write into one.  ``copy=False`` therefore
    raises ``BufferError``, as the standard asks of a producer that cannot avoid a copy.
    """
    if copy is False:
        raise BufferError("lazynum arrays export their data by copy only (copy=False asked)")
    value = np.array(self._value("__dlpack__"), copy=True)
    kwargs = {"stream": stream, "dl_device": dl_device, "copy": None}
    if max_version is not None:
        kwargs["max_version"] = max_version
    return value.__dlpack__(**kwargs)


def dlpack_device(self, /) -> tuple:
    """``x.__dlpack_device__()``: ``(1, 0)``, DLPack's CPU device."""
    return (1, 0)


ndarray.__array_namespace__ = array_namespace
ndarray.to_device = to_device
ndarray.__dlpack__ = dlpack
ndarray.__dlpack_device__ = dlpack_device
