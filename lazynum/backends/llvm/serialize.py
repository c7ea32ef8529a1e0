"""``Program.to_bytes`` / ``load``: object code plus plain metadata, for the disk cache.

Layout: ``MAGIC``, an 8-byte little-endian length, that many bytes of metadata (a pickle
read back by an unpickler that only constructs the plain types a program's metadata
holds: numbers, strings, tuples, dtypes, size slots, index expressions, steps; never code
objects), then the object code.  Anything else in the data is a ``ValueError`` on load;
an attr value outside that set is a ``TypeError`` on store (the entry stays memory-only).
"""
from __future__ import annotations

import io
import pickle
import struct

import numpy as np

MAGIC = b"LZNLLVM1"
_ALLOWED = {
    ("builtins", "tuple"), ("builtins", "list"), ("builtins", "dict"), ("builtins", "set"),
    ("builtins", "frozenset"), ("builtins", "slice"), ("builtins", "complex"),
    ("numpy", "dtype"), ("numpy._core.multiarray", "scalar"), ("numpy.core.multiarray", "scalar"),
    ("lazynum.compile.cut", "SizeSlot"), ("lazynum.compile.cut", "AttrTemplate"),
    ("lazynum.compile.index_expr", "Index"),
    ("lazynum.compile.plan", "KernelStep"), ("lazynum.compile.plan", "ExternStep"),
    ("lazynum.compile.plan", "RoutineStep"),
    ("lazynum.expr.registry", "lookup"),
    ("copyreg", "_reconstructor"), ("builtins", "object"),
}


class _Restricted(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) in _ALLOWED or (module == "numpy.dtypes" and name.endswith("DType")):
            return super().find_class(module, name)
        raise ValueError(f"program metadata names {module}.{name}, which a program never holds")


def _loads(data: bytes):
    return _Restricted(io.BytesIO(data)).load()


def _fields(program) -> dict:
    return {"n_inputs": program.n_inputs, "contiguous": program.contiguous,
            "values": [(dt.str, shape) for dt, shape in program.values],
            "steps": program.steps, "outputs": program.outputs, "releases": program.releases,
            "kernel_names": program.kernel_names, "texts": program.texts, "scalars": program.scalars}


def dump(program) -> bytes:
    try:
        meta = pickle.dumps(_fields(program), protocol=4)
        _loads(meta)
    except (pickle.PicklingError, AttributeError, ValueError) as exc:
        raise TypeError(f"program metadata cannot be stored: {exc}") from None
    return MAGIC + struct.pack("<Q", len(meta)) + meta + program.obj


def restore(data: bytes, program_type):
    """A ``program_type`` (``program.Program``) rebuilt from ``dump``'s bytes."""
    if not isinstance(data, (bytes, bytearray)) or data[:8] != MAGIC or len(data) < 16:
        raise ValueError("not a lazynum llvm program")
    (length,) = struct.unpack("<Q", data[8:16])
    if 16 + length > len(data):
        raise ValueError("truncated lazynum llvm program")
    try:
        meta = _loads(bytes(data[16:16 + length]))
        values = [(np.dtype(dt), tuple(shape)) for dt, shape in meta["values"]]
        obj = bytes(data[16 + length:])
        return program_type(meta["n_inputs"], meta["contiguous"], values, meta["steps"], meta["outputs"],
                       meta["releases"], obj, meta["kernel_names"], meta["texts"], meta["scalars"])
    except (KeyError, TypeError, EOFError, pickle.UnpicklingError, struct.error, RuntimeError) as exc:
        raise ValueError(f"malformed lazynum llvm program: {exc}") from None
