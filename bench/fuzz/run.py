"""Run a fuzz program with NumPy and with lazynum, and compare what they leave behind.

The comparison covers every live variable after the program (dtype, shape, values with a
tolerance by dtype; Python scalars by type and value) and every statement NumPy rejects:
lazynum must raise the same (public) exception type at that statement, or, where the error
depends on the data (an index value, a bounded array's run-time size; README "Known
deviations"), at the sync the runner performs right after it.  After such an error the
program goes on, so arrays a failed write touched must read as NumPy left them.

lazynum is imported by the caller and passed in: this module uses its public API only.
"""
from __future__ import annotations

import cmath
import dataclasses
import math
import os
import re
import traceback
import warnings

import numpy

from .program import DATA_DEPENDENT_KINDS, Program
from .values import is_clean
from .zero_ties import zero_signs_only, zero_tie

TOLERANCES = {"float16": (2e-3, 1e-4), "float32": (2e-5, 1e-5), "float64": (1e-9, 1e-12),
              "complex64": (2e-5, 1e-5), "complex128": (1e-9, 1e-12)}   # (rtol, atol)
DEFERRABLE = (IndexError, ValueError)
_CODE: dict = {}


@dataclasses.dataclass
class Failure:
    category: str             # what went wrong and where, e.g. "value@write.mask"
    statement: int | None     # index of the statement (None: after the program)
    variable: str | None
    numpy_result: str
    lazynum_result: str
    detail: str = ""


@dataclasses.dataclass
class NumpyRun:
    errors: list              # per statement: the exception NumPy raised, or None
    names: list               # per statement: variable names bound after it
    final: dict               # variable -> value after the program
    invalid: str | None       # why the program cannot be compared (None: it can)
    low_precision: set = dataclasses.field(default_factory=set)   # float32 noise reached these
    zero_ties: set = dataclasses.field(default_factory=set)   # dtypes of fmax.at's +-0 ties


def code_of(text: str, position: int):
    """Compiled statement; its file name ``<fuzz-k>`` lets an error lazynum raises at a
    later sync name the statement that recorded the failing op ("traced at <fuzz-k>:1")."""
    key = (text, position)
    code = _CODE.get(key)
    if code is None:
        if len(_CODE) > 200_000:
            _CODE.clear()
        code = _CODE[key] = compile(text, f"<fuzz-{position}>", "exec")
    return code


def traced_statement(exc: BaseException) -> int | None:
    """The statement that recorded the op behind a sync-time error, from lazynum's note."""
    text = " ".join([str(exc)] + list(getattr(exc, "__notes__", [])))
    found = re.search(r"<fuzz-(\d+)>", text)
    return int(found.group(1)) if found else None


def variable_names(ns: dict) -> set:
    return {name for name in ns if name not in ("np", "numpy", "__builtins__") and not name.startswith("_")}


def run_numpy(program: Program) -> NumpyRun:
    ns = {"np": numpy, "numpy": numpy, **program.numpy_inputs()}
    errors, names, invalid, low_precision, zero_ties = [], [], None, set(), set()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for k, statement in enumerate(program.statements):
            if any(name in low_precision or _inexact_float32(ns.get(name)) for name in statement.names()):
                low_precision |= statement.writes()
            tie = zero_tie(statement.text, ns)
            if tie is not None:
                zero_ties.add(tie)
            try:
                exec(code_of(statement.text, k), ns)
                errors.append(None)
            except Exception as exc:           # noqa: BLE001  (NumPy's verdict is the point)
                exc.__traceback__ = None
                errors.append(exc)
                if isinstance(exc, (NameError, SyntaxError, AttributeError)):
                    invalid = invalid or f"statement {len(errors) - 1}: {type(exc).__name__}"
            names.append(frozenset(variable_names(ns)))
    for warning in caught:
        text = str(warning.message)
        if not issubclass(warning.category, RuntimeWarning) or ("cast" in text and "invalid" in text):
            invalid = invalid or f"NumPy warned: {warning.category.__name__}: {text}"
    final = {name: ns[name] for name in variable_names(ns)}
    return NumpyRun(errors, names, final, invalid, low_precision, zero_ties)


def _inexact_float32(value) -> bool:
    """A float32 value off the clean grid: last-bit differences (a transcendental's ulp) may
    follow it into float64 results, which then compare with float32's tolerance."""
    return (isinstance(value, (numpy.ndarray, numpy.float32)) and value.dtype == numpy.float32
            and not is_clean(value))


def public_type(exc: BaseException) -> type:
    """The exception class a user would catch: the first builtin or ``numpy.exceptions``
    class in the MRO (NumPy's private ``UFuncTypeError`` reads as ``TypeError``)."""
    for cls in type(exc).__mro__:
        module = cls.__module__
        if module == "builtins" or (module == "numpy.exceptions" and not cls.__name__.startswith("_")):
            return cls
    return Exception


def describe_error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:300]


def run_lazynum(program: Program, lazynum, reference: NumpyRun) -> Failure | None:
    """Run ``program`` with lazynum (its settings already chosen); the first difference."""
    ns = {"np": lazynum, "numpy": numpy}
    for name, array in program.inputs:
        ns[name] = lazynum.asarray(array)
    try:
        for k, statement in enumerate(program.statements):
            failure = _statement(program, k, statement, ns, lazynum, reference)
            if failure is not None:
                return failure
        return _final(program, ns, lazynum, reference)
    finally:
        ns.clear()
        # a failing program stops early: a run-time check whose readers it dropped would
        # raise at the next program's first sync (lazynum raises it at the next sync)
        _attempt(lazynum.sync)


def _statement(program, k, statement, ns, lazynum, reference) -> Failure | None:
    bounded_operand = any(isinstance(ns.get(name), lazynum.BoundedArray) for name in statement.names())
    error = _attempt(lambda: exec(code_of(statement.source(True), k), ns))
    expected = reference.errors[k]
    where = statement.group
    if expected is None:
        if error is None:
            return None
        traced = traced_statement(error)
        if traced is not None and traced != k:     # an earlier statement's op failed at this sync
            return Failure(f"sync-raise:{type(error).__name__}@{program.statements[traced].group}", traced,
                           None, "no exception", describe_error(error), _trace(error))
        return Failure(f"raise-unexpected:{type(error).__name__}@{where}", k, None, "no exception",
                       describe_error(error), _trace(error))
    expected_type = public_type(expected)
    deferred = error is None
    if deferred:
        error = _attempt(lambda: lazynum.sync(*_live(ns, lazynum)))
    _drop_unbound(ns, reference.names[k])
    if error is None:
        return Failure(f"raise-missing:{expected_type.__name__}@{where}", k, None,
                       describe_error(expected), "no exception, not even at the next sync")
    if not isinstance(error, expected_type):
        if deferred or not _eager_before_data_dependent(expected_type, statement, bounded_operand):
            return Failure(f"raise-wrong:{expected_type.__name__}->{type(error).__name__}@{where}", k,
                           None, describe_error(expected), describe_error(error), _trace(error))
        # README's two-error statement (x[lazy_idx] += -1 into uint8): lazynum raised the
        # error it sees at the call; NumPy's, on the data, is the run-time check the
        # statement dropped, which the next sync raises: that sync is this one (the
        # error's frames would keep the statement's temporaries, and so the check, alive)
        error.__traceback__ = None
        drained = _attempt(lazynum.sync)
        if drained is not None and traced_statement(drained) != k:
            return Failure(f"sync-raise:{type(drained).__name__}@{where}", k, None, "no exception",
                           describe_error(drained), _trace(drained))
    if deferred and not (issubclass(expected_type, DEFERRABLE)
                         and (statement.group in DATA_DEPENDENT_KINDS or bounded_operand)
                         or _lazy_int_conversion(error)):
        return Failure(f"raise-deferred:{expected_type.__name__}@{where}", k, None,
                       describe_error(expected), "raised only at the next sync: " + describe_error(error))
    return None


def _lazy_int_conversion(error) -> bool:
    """The error is int()'s on a lazy scalar stored into an integer array (``a[i] /= 0``):
    only its value, known at the sync, decides (README: known deviations)."""
    return isinstance(error, (ValueError, OverflowError)) and any(
        "lazynum op 'int_value'" in note for note in getattr(error, "__notes__", ()))


def _eager_before_data_dependent(expected_type, statement, bounded_operand) -> bool:
    """NumPy's error came from index values or a run-time size (an IndexError, or the
    ValueError of an empty reduction such as ``np.ptp`` of an empty selection), which lazynum
    checks at the sync; an error lazynum can see at the call (a dtype rule of the same
    statement: bool subtract) is raised first there (README: known deviations).  NumPy
    raises that one too once the data allow."""
    return issubclass(expected_type, DEFERRABLE) and (
        statement.group in DATA_DEPENDENT_KINDS or bounded_operand)


def _attempt(action) -> BaseException | None:
    try:
        action()
        return None
    except Exception as exc:                   # noqa: BLE001
        return exc


def _trace(exc: BaseException) -> str:
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    exc.__traceback__ = None                   # frames hold the program's namespace
    return "".join(lines[-12:])


def _live(ns: dict, lazynum) -> list:
    kinds = (lazynum.ndarray, lazynum.BoundedArray)
    return [value for name, value in ns.items() if isinstance(value, kinds) and not name.startswith("__")]


def _drop_unbound(ns: dict, numpy_names) -> None:
    """Forget what lazynum bound at a statement NumPy rejected (NumPy bound nothing)."""
    for name in variable_names(ns) - numpy_names:
        del ns[name]


def _final(program, ns, lazynum, reference) -> Failure | None:
    error = _attempt(lambda: lazynum.sync(*_live(ns, lazynum)))
    if error is not None:
        return _final_sync_failure(program, ns, lazynum, error)
    for name in sorted(reference.final, key=_name_order):
        expected = reference.final[name]
        if name not in ns:
            return Failure(f"missing@{_binder(program, name)}", None, name, _show(expected), "not bound")
        mismatch = compare(expected, ns[name], name in reference.low_precision)
        if mismatch is not None and mismatch[0] == "value" and _zero_tie_only(reference, expected, ns[name]):
            mismatch = None
        if mismatch is not None:
            what, got = mismatch
            return Failure(f"{what}@{_binder(program, name)}", None, name, _show(expected), got)
    extra = variable_names(ns) - set(reference.final)
    if extra:
        name = sorted(extra)[0]
        return Failure(f"extra@{_binder(program, name)}", None, name, "not bound", _show(ns[name]))
    return None


def _zero_tie_only(reference, expected, got) -> bool:
    """The difference is only the sign of zeros an fmax.at/fmin.at tie left in NumPy's
    run (its loop's choice; README: known deviations; ``zero_ties``)."""
    want, array = numpy.asarray(expected), numpy.asarray(got)
    return any(zero_signs_only(want, array, dtype) for dtype in reference.zero_ties)


def _final_sync_failure(program, ns, lazynum, error) -> Failure:
    """The category names the statement that recorded the failing op (lazynum's note), or
    else the statement that bound the first variable whose own sync raises."""
    name = None
    for candidate in sorted(variable_names(ns), key=_name_order):
        value = ns[candidate]
        if isinstance(value, (lazynum.ndarray, lazynum.BoundedArray)):
            own = _attempt(value.sync)
            if own is not None:
                name, error = candidate, own
                break
    traced = traced_statement(error)
    where = program.statements[traced].group if traced is not None else (
        _binder(program, name) if name else "together")
    return Failure(f"sync-raise:{type(error).__name__}@{where}", traced, name, "no exception",
                   describe_error(error), _trace(error))


def _name_order(name: str):
    return (name[0] == "v", int(name[1:]) if name[1:].isdigit() else 0, name)


def _binder(program: Program, name: str) -> str:
    """The kind of the statement that first bound ``name`` ("input" for inputs)."""
    for statement in program.statements:
        head = statement.text.split("=")[0] if "=" in statement.text else ""
        if name in [part.strip() for part in head.split(",")]:
            return statement.group
    return "input"


def _python_scalar(value) -> bool:
    return type(value) in (bool, int, float)       # numpy.float64 is a float subclass: not one


def _show(value) -> str:
    if _python_scalar(value):
        return f"{type(value).__name__} {value!r}"
    array = numpy.asarray(value)
    return f"{array.dtype} {array.shape} {numpy.array2string(array, threshold=200, separator=', ')}"


def compare(expected, got, low_precision=False):
    """None if ``got`` (lazynum's) matches ``expected`` (NumPy's), else (what, lazynum's shown)."""
    if _python_scalar(expected):
        if type(got) is not type(expected):
            return "type", f"{type(got).__name__} {got!r}"
        if isinstance(expected, complex):
            rtol, atol = TOLERANCES["complex64" if low_precision else "complex128"]
            same = (cmath.isclose(got, expected, rel_tol=rtol, abs_tol=atol) or expected == got
                    or (cmath.isnan(expected) and cmath.isnan(got)))
        elif isinstance(expected, float):
            narrow = low_precision or float(numpy.float32(expected)) == expected
            rtol, atol = TOLERANCES["float32" if narrow else "float64"]
            same = math.isclose(got, expected, rel_tol=rtol, abs_tol=atol) or expected == got or (
                math.isnan(expected) and math.isnan(got))
        else:
            same = expected == got
        return None if same else ("value", _show(got))
    if _python_scalar(got):
        return "type", f"{type(got).__name__} {got!r}"
    error = _attempt(lambda: numpy.asarray(got))
    if error is not None:
        return "convert", describe_error(error)
    array, want = numpy.asarray(got), numpy.asarray(expected)
    if array.dtype != want.dtype:
        return "dtype", _show(array)
    if array.shape != want.shape:
        return "shape", _show(array)
    return None if values_match(want, array, low_precision) else ("value", _show(array))


def values_match(want: numpy.ndarray, got: numpy.ndarray, low_precision=False) -> bool:
    if want.dtype.kind not in "fc":
        return bool(numpy.array_equal(want, got))
    rtol, atol = TOLERANCES[want.dtype.name]
    narrower = {"float64": "float32", "complex128": "complex64"}.get(want.dtype.name)
    if narrower and (low_precision or _float32_values(want)):
        rtol, atol = TOLERANCES[narrower]      # computed in float32, then widened
    return bool(numpy.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True))


def _float32_values(array: numpy.ndarray) -> bool:
    with numpy.errstate(over="ignore"):
        narrowed = array.astype(numpy.float32 if array.dtype.kind == "f" else numpy.complex64).astype(array.dtype)
    return bool(numpy.array_equal(narrowed, array, equal_nan=True))


@dataclasses.dataclass
class Result:
    status: str               # "ok", "fail" or "invalid"
    failure: Failure | None = None
    reason: str = ""


# ``tiers`` is llvm under LAZYNUM_COMPILE=background with each program run TIER_RUNS times
# (compiles waited for between runs): the interpreter tier, the switch to a program planned
# from a later trace, and the compiled tier, each against NumPy.
TIER_RUNS = 3


# ``immediate`` is llvm with the immediate tier on below IMMEDIATE_BELOW elements: the fuzzer's
# small arrays then mix values computed at once with recorded ops that read them (and the
# other way round), compiled (LAZYNUM_FUZZ_IMMEDIATE_BELOW=1000000 makes nearly every op
# immediate).  The other backends keep the immediate tier off, so they test what their
# names say.
IMMEDIATE_BELOW = int(os.environ.get("LAZYNUM_FUZZ_IMMEDIATE_BELOW", "12"))


def settings_for(backend: str) -> dict:
    """The lazynum settings a fuzz backend name stands for."""
    if backend == "tiers":
        return {"backend": "llvm", "compile": "background", "immediate_below": 0}
    if backend == "immediate":
        return {"backend": "llvm", "compile": "eager", "immediate_below": IMMEDIATE_BELOW}
    return {"backend": backend, "compile": "eager", "immediate_below": 0}   # one tier itself


def check(program: Program, lazynum, backend: str) -> Result:
    """Run ``program`` both ways on ``backend``; the verdict."""
    reference = run_numpy(program)
    if reference.invalid:
        return Result("invalid", reason=reference.invalid)
    runs = TIER_RUNS if backend == "tiers" else 1
    with lazynum.config(cache_dir="off", recompile_limit=0, sync="allow", **settings_for(backend)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            failure = None
            for _ in range(runs):
                try:
                    failure = run_lazynum(program, lazynum, reference)
                except Exception as exc:           # noqa: BLE001  (the runner itself must not die)
                    failure = Failure(f"runner:{type(exc).__name__}", None, None, "", describe_error(exc), _trace(exc))
                if failure is not None:
                    break
                if runs > 1:
                    from lazynum.runtime.tiers import wait_for_compiles
                    wait_for_compiles(60)
    return Result("fail", failure) if failure is not None else Result("ok")
