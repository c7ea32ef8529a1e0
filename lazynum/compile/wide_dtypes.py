"""Which nodes of complex and float16 dtypes a fused kernel computes (the rest are extern).

Kernels compute on real scalars.  A node whose dtype, or an argument's dtype, is complex64,
complex128 or float16 lowers into a kernel only where this module says so; every other one
is an extern step: its NumPy reference runs inside the compiled program (a fusion
boundary, not a sync, not a fallback), and the scheduler records the reason given here
(``LAZYNUM_LOGS=fusion``, ``Schedule.externs``).  The decision is the compile layer's: a
backend's renderer never sees a complex or float16 node it was not asked to render.
"""
from __future__ import annotations

import numpy as np

COMPLEX = frozenset((np.dtype(np.complex64), np.dtype(np.complex128)))
FLOAT16 = np.dtype(np.float16)


def _wide(dtype) -> bool:
    return dtype in COMPLEX or dtype == FLOAT16


def extern_reason(node) -> str | None:
    """Why ``node`` must run as an extern NumPy call because of its dtypes; None when its
    dtypes are no obstacle to a kernel."""
    dtypes = [node.dtype] + [a.dtype for a in node.args]
    wide = [d for d in dtypes if _wide(d)]
    if not wide:
        return None
    names = ", ".join(sorted({str(d) for d in wide}))
    return f"{node.op.name} on {names}: no kernel code for these dtypes (NumPy's loop runs)"
