"""What the CUDA renderer compiles: the scheduler's capability object for plans it renders.

Scalar ops: ``scalar_code.supports`` (every case the llvm backend compiles, so one plan
serves both).  The ops left to NumPy on purpose are every backend's
(``compile.capability_probe.EXTERN_SCALAR_OPS``: integer ``power`` and ``reciprocal``).  No routines yet: stream compaction (``compact``) runs as NumPy's
reference inside the program until the device compaction of issue 17 item 3 exists.
"""
from __future__ import annotations

from ...compile.capability_probe import ProbingSupports, extern_reason_for
from . import scalar_code

extern_reason = extern_reason_for("CUDA")


SUPPORTS = ProbingSupports(scalar_code.supports, extern_reason)
