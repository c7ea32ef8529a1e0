"""The fallback census: how lazynum provides each public name of NumPy (``python -m lazynum
fallbacks``).

Every public name of ``numpy``, ``numpy.linalg``, ``numpy.fft`` and ``numpy.random`` is one of:

* ``lazy``: lazynum's own function; it records graph nodes and never syncs.
* ``lazy: extern``: lazy, and its work is a library call inside the compiled program
  (LAPACK, NumPy's sort, quantile or generator): a fusion boundary, not a sync.
* ``constant``: depends on Python values and static shapes alone (a window's length, a
  triangle's size, ``einsum_path``'s contraction order), so NumPy computes it at trace
  time and it enters the graph as an input.
* ``numpy object``: NumPy's own type, constant, dtype query or submodule, shared.
* ``numpy (eager)``: NumPy runs it on synced inputs, a counted fallback; ``REASONS`` says
  why for each such name (``tests/test_census.py`` keeps the lists true).
"""
from __future__ import annotations

import numpy as np

import lazynum

EXTERN = frozenset({
    "sort", "argsort", "partition", "argpartition", "searchsorted", "lexsort",
    "percentile", "quantile", "nanpercentile", "nanquantile", "median", "nanmedian",
    "convolve", "correlate", "matmul", "dot", "vdot", "inner", "tensordot", "einsum", "matvec",
    "vecmat", "kron", "cov", "corrcoef",
    "linalg.solve", "linalg.inv", "linalg.det", "linalg.slogdet", "linalg.cholesky",
    "linalg.eigh", "linalg.eigvalsh", "linalg.svd", "linalg.svdvals", "linalg.qr",
    "linalg.pinv", "linalg.matrix_power", "linalg.matrix_rank", "linalg.cond", "linalg.matmul",
    "linalg.tensordot", "linalg.norm", "sort_complex", "linalg.lstsq", "linalg.tensorsolve",
    "linalg.tensorinv", "linalg.multi_dot", "polyfit", "polymul",
    "fft.fft", "fft.ifft", "fft.rfft", "fft.irfft", "fft.hfft", "fft.ihfft", "fft.fft2",
    "fft.ifft2", "fft.rfft2", "fft.irfft2", "fft.fftn", "fft.ifftn", "fft.rfftn", "fft.irfftn",
})
CONSTANT = frozenset({"bartlett", "blackman", "hamming", "hanning", "kaiser", "tril_indices",
                      "triu_indices", "tril_indices_from", "triu_indices_from", "einsum_path"})

# NumPy-backed names, by the reason they are not lazy.
REASONS = {
    "reads or writes files": (
        "fromfile", "fromregex", "genfromtxt", "load", "loadtxt", "save", "savetxt", "savez",
        "savez_compressed"),
    "builds an array from Python data or foreign memory (no lazy input to sync)": (
        "frombuffer", "fromiter", "fromstring", "from_dlpack"),
    "printing, settings and Python-value queries (no array computation)": (
        "array2string", "array_repr", "array_str", "format_float_positional",
        "format_float_scientific", "get_printoptions", "set_printoptions", "printoptions",
        "getbufsize", "setbufsize",
        "show_config", "show_runtime", "get_include", "info", "test", "typename", "base_repr",
        "binary_repr", "mintypecode", "isscalar", "iterable", "isdtype", "linalg.test",
        "fft.test", "random.test"),
    "datetime64 calendar and text functions: NumPy runs them on NumPy-backed datetime arrays": (
        "busday_count", "busday_offset", "is_busday", "datetime_as_string", "datetime_data"),
    "the result's dtype depends on the data (real when every eigenvalue is real)": (
        "roots", "poly", "linalg.eig", "linalg.eigvals"),
    "calls Python code per slice or element": (
        "apply_along_axis", "apply_over_axes", "frompyfunc", "piecewise", "nested_iters"),
    "returns NumPy's matrix class (numpy.matrix), a NumPy object with no lazy form": (
        "asmatrix", "bmat"),
}
_REASON_OF = {name: reason for reason, names in REASONS.items() for name in names}
MODULES = ("", "linalg", "fft", "random")


def _is_fallback(value) -> bool:
    return getattr(value, "__lazynum_fallback__", None) is not None


def classify(qualified: str) -> tuple:
    """``(kind, detail)`` for NumPy's public name ``qualified`` ("mean", "linalg.solve")."""
    module, _, name = qualified.rpartition(".")
    ours = getattr(getattr(lazynum, module) if module else lazynum, name)
    theirs = getattr(getattr(np, module) if module else np, name)
    if _is_fallback(ours):
        return "numpy (eager)", _REASON_OF.get(qualified, "unclassified")
    if qualified in EXTERN:
        return "lazy: extern", ""
    if qualified in CONSTANT:
        return "constant", ""
    if module == "random" and callable(ours) and not isinstance(ours, type) and ours is not theirs:
        return "lazy: extern", "drawn at trace time, or in the program for lazy parameters"
    if ours is theirs:
        return "numpy object", ""
    return "lazy", ""


def public_names() -> list:
    """NumPy's public names in the census's modules, qualified ("linalg.solve")."""
    names = []
    for module in MODULES:
        space = getattr(np, module) if module else np
        for name in dir(space):
            if not name.startswith("_"):
                names.append(f"{module}.{name}" if module else name)
    return names


def census() -> dict:
    """``{qualified name: (kind, detail)}`` for every public NumPy name (see the docstring)."""
    return {name: classify(name) for name in public_names()}


def report() -> str:
    """The counts per kind, then each NumPy-backed name with its reason."""
    table = census()
    counts: dict = {}
    for kind, _ in table.values():
        counts[kind] = counts.get(kind, 0) + 1
    lines = [f"lazynum {lazynum.__version__} against NumPy {np.__version__}: "
             f"{len(table)} public names (numpy, numpy.linalg, numpy.fft, numpy.random)"]
    lines += [f"  {kind:<14} {counts[kind]:>4}" for kind in sorted(counts)]
    by_reason: dict = {}
    for name, (kind, detail) in sorted(table.items()):
        if kind == "numpy (eager)":
            by_reason.setdefault(detail, []).append(name)
    for reason, names in by_reason.items():
        lines.append(f"numpy (eager), {reason} ({len(names)}):")
        lines.append("  " + " ".join(names))
    return "\n".join(lines)
