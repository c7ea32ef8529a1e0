"""A device that runs every launch on two devices and compares what each kernel wrote:
the check that a GPU's output equals the emulator's, kernel by kernel (issue 17).

``ComparingDevice(primary, reference)`` is a ``device.Device``: each array lives on both
(``Twin``), each module is compiled by both, each launch runs on both with the same grid,
and after it every array argument is copied back from both and compared.  Results come
from the primary; ``differences`` maps each kernel function to the largest difference
seen (relative to ``max(|reference|, 1)``; integers and bools: 0 or 1 for any mismatch).
The 8-byte scratch slots a split or scatter part kernel writes are not compared: what they
hold shows in the finishing kernel's results.
``bench.cuda_fused --agreement --per-kernel`` makes one of a CuPy device and the emulator.
"""
from __future__ import annotations

import numpy as np

from .device import Device


class Twin:
    """One array on both devices."""
    __slots__ = ("primary", "reference")

    def __init__(self, primary, reference):
        self.primary, self.reference = primary, reference

    @property
    def shape(self):
        return self.primary.shape

    @property
    def dtype(self):
        return self.primary.dtype


class ComparingDevice(Device):
    """See the module docstring."""

    def __init__(self, primary: Device, reference: Device):
        self.primary, self.reference = primary, reference
        self.name = f"{primary.name}+{reference.name}"
        self.arch = f"{primary.arch}+{reference.arch}"
        self.default_max_blocks = primary.default_max_blocks or reference.default_max_blocks
        self.differences: dict = {}

    def empty(self, shape, dtype) -> Twin:
        """Zeros on both (not garbage): a kernel's buffers that a later kernel writes
        (a split's results, written by its finishing kernel) compare equal meanwhile."""
        zeros = np.zeros(shape, dtype)
        return Twin(self.primary.to_device(zeros), self.reference.to_device(zeros))

    def to_device(self, array) -> Twin:
        return Twin(self.primary.to_device(array), self.reference.to_device(array))

    def to_host(self, buffer: Twin) -> np.ndarray:
        return self.primary.to_host(buffer.primary)

    def compile(self, source: str, functions):
        return (self.primary.compile(source, functions), self.reference.compile(source, functions))

    def launch(self, module, function: str, grid: int, block: int, args) -> None:
        self.primary.launch(module[0], function, grid, block,
                            [a.primary if isinstance(a, Twin) else a for a in args])
        self.reference.launch(module[1], function, grid, block,
                              [a.reference if isinstance(a, Twin) else a for a in args])
        worst = self.differences.get(function, 0.0)
        for a in args:
            if not isinstance(a, Twin) or (function.endswith("_part") and a.dtype == np.uint64):
                continue        # (scratch slots: their values show in the finishing kernel's)
            worst = max(worst, difference(self.primary.to_host(a.primary),
                                          self.reference.to_host(a.reference)))
        self.differences[function] = worst

    def synchronize(self) -> None:
        self.primary.synchronize()
        self.reference.synchronize()


def difference(got: np.ndarray, want: np.ndarray) -> float:
    """The largest difference of ``got`` from ``want``: relative to ``max(|want|, 1)`` for
    floats (NaN against NaN is equal, NaN against a number is inf), else 1.0 for any
    mismatch."""
    if got.size == 0:
        return 0.0
    if want.dtype.kind == "f":
        both_nan = np.isnan(got) & np.isnan(want)
        with np.errstate(invalid="ignore", over="ignore"):
            gap = np.abs(got.astype(np.float64) - want) / np.maximum(np.abs(want), 1.0)
        gap = np.where(both_nan, 0.0, np.where(np.isnan(gap), np.inf, gap))
        return float(gap.max())
    return float(not np.array_equal(got, want))
