"""``Program.to_bytes`` / ``load``: plain metadata plus each kernel template's object code.

Layout: ``MAGIC``, an 8-byte little-endian length, that many bytes of metadata (a pickle
read back by an unpickler that only constructs the plain types a program's metadata
holds: numbers, strings, tuples, dtypes, size slots, index expressions, steps; never code
objects), then the object code of each template the program launches, one after another
(the metadata lists each template's name, functions and object length).  Anything else in
the data is a ``ValueError`` on load; an attr value outside that set is a ``TypeError`` on
store (the entry stays memory-only).  A template this process has compiled already is
taken from ``kernel_cache`` (same name, same code); the others are linked from their
object code after ``jit.load_object`` has verified it.
"""
from __future__ import annotations

import io
import pickle
import struct

import numpy as np

MAGIC = b"LZNLLVM2"
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
            "kernels": [(name, sorted(code.functions), len(code.obj))
                        for name, code in program.codes.items()],
            "texts": program.texts, "scalars": program.scalars,
            "row_blocks": program.row_blocks}


def dump(program) -> bytes:
    try:
        meta = pickle.dumps(_fields(program), protocol=4)
        _loads(meta)
    except (pickle.PicklingError, AttributeError, ValueError) as exc:
        raise TypeError(f"program metadata cannot be stored: {exc}") from None
    objects = b"".join(code.obj for code in program.codes.values())
    return MAGIC + struct.pack("<Q", len(meta)) + meta + objects


def restore(data: bytes, program_type, kernel_code):
    """A ``program_type`` (``program.Program``) rebuilt from ``dump``'s bytes."""
    if not isinstance(data, (bytes, bytearray)) or data[:8] != MAGIC or len(data) < 16:
        raise ValueError("not a lazynum llvm program")
    (length,) = struct.unpack("<Q", data[8:16])
    if 16 + length > len(data):
        raise ValueError("truncated lazynum llvm program")
    try:
        meta = _loads(bytes(data[16:16 + length]))
        values = [(np.dtype(dt), tuple(shape)) for dt, shape in meta["values"]]
        codes = _codes(meta["kernels"], memoryview(data)[16 + length:], kernel_code)
        return program_type(meta["n_inputs"], meta["contiguous"], values, meta["steps"],
                            meta["outputs"], meta["releases"], codes, meta["texts"], meta["scalars"],
                            meta.get("row_blocks", ()))
    except (KeyError, TypeError, EOFError, pickle.UnpicklingError, struct.error, RuntimeError) as exc:
        raise ValueError(f"malformed lazynum llvm program: {exc}") from None


def _codes(kernels, objects, kernel_code) -> dict:
    """Template name -> code, from the listed object lengths (``kernel_code(name, functions,
    obj)`` links or finds each); ValueError when the lengths do not tile the data."""
    codes, position = {}, 0
    for name, functions, size in kernels:
        if not (isinstance(size, int) and 0 < size <= len(objects) - position):
            raise ValueError("object code lengths do not match the data")
        codes[name] = kernel_code(name, list(functions), bytes(objects[position:position + size]))
        position += size
    if position != len(objects):
        raise ValueError("data after the last kernel's object code")
    return codes
