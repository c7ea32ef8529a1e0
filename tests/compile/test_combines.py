"""One table for reductions (``lazynum.expr.combines``) and one list of kernel-IR scalar ops
(``lazynum.compile.kernel_ir.SCALAR_OPS``), checked against the registry, NumPy and the
llvm backend (issue 12)."""
import math
import types
from contextlib import contextmanager

import numpy as np
import pytest

import lazynum as lnp
from lazynum.expr import dtypes
from lazynum.array.arraytype import wrap
from lazynum.backends.llvm import scalar_ops
from lazynum.backends.llvm.capabilities import SUPPORTS, extern_reason
from lazynum.compile.capability_probe import EXTERN_SCALAR_OPS
from lazynum.compile.kernel_ir import SCALAR_OPS, UnknownScalarOp
from lazynum.expr import combines, reduce as reduce_module
from lazynum.expr.combines import COMBINES, IGNORE, NOT_APPLICABLE, PROPAGATE, Combine
from lazynum.expr.elementwise import UFUNC_OPS
from lazynum.expr.indexing import SCATTER_COMBINES
from lazynum.expr.node import apply
from lazynum.expr.registry import (EXTERN, KERNEL, OPS, Routine, declare_lowering, register,
    scalar_lowering)

from .llvm_harness import on_llvm

# The dtypes kernels compute in: complex and float16 nodes are lowered onto these by the
# compile layer (compile/wide_dtypes.py), never rendered as such.
SUPPORTED = sorted(dtypes.SUPPORTED - dtypes.COMPLEX - {dtypes.FLOAT16}, key=str)
ROWS = np.array([[1, 4, 16], [2, 8, 32]], dtype=np.int64)


def reductions_lacking_a_combine(ops) -> list:
    """Reduction primitives whose kernel lowering names no combine of the table (an extern
    reduction runs its NumPy reference and needs none)."""
    missing = []
    for name, op in ops.items():
        lowering = op.lowerings.get(KERNEL)
        if op.kind != "reduce" or lowering is EXTERN or isinstance(lowering, Routine):
            continue
        if getattr(lowering, "combine", None) not in COMBINES:
            missing.append(name)
    return missing


@contextmanager
def registered(name, kind, reference, lowering):
    """A primitive registered for the duration of the block."""
    op = register(name, kind, shape=lambda args, attrs: reduce_module._reduced_shape(args, attrs)
                  if kind == "reduce" else args[0].shape,
                  dtype=lambda args, attrs: args[0].dtype, reference=reference, doc="test op")
    declare_lowering(op, lowering)
    try:
        yield op
    finally:
        del OPS[name]


# --- the registry: every reduction primitive has a combine ------------------------------------
def test_every_reduction_primitive_names_a_combine_of_the_table():
    assert reductions_lacking_a_combine(OPS) == []
    reduced = {op.lowerings[KERNEL].combine for op in OPS.values() if op.kind == "reduce"}
    # (the bitwise combines serve scatters only: bitwise_and/or/xor.at, expr.indexing)
    assert reduced | set(SCATTER_COMBINES) == set(COMBINES) and "add" in reduced


def test_the_registry_check_catches_a_reduction_whose_combine_is_not_in_the_table():
    # Registered the way reduce.py registered reductions before the table: a lowering with
    # a combine name nobody declared (codegen then started the accumulator at INT64_MAX).
    def lowering(builder, node, args):
        return builder.reduce("gcd", args[0], node.dtype)
    lowering.combine = "gcd"
    reference = lambda arrays, attrs: np.gcd.reduce(arrays[0], axis=attrs[0])  # noqa: E731
    with registered("test_reduce_or_unlisted", "reduce", reference, lowering):
        assert reductions_lacking_a_combine(OPS) == ["test_reduce_or_unlisted"]
    assert reductions_lacking_a_combine(OPS) == []


def test_an_unknown_combine_is_a_key_error_everywhere_never_a_default():
    with pytest.raises(KeyError, match="gcd"):
        reduce_module._reduction("gcd")          # how reduce.py declares a lowering
    with pytest.raises(KeyError, match="gcd"):
        combines.identity("gcd", np.int64)       # what codegen starts from
    with pytest.raises(KeyError, match="gcd"):
        SUPPORTS.reduction("gcd", np.int64)      # what the scheduler asks


def test_a_new_reduction_is_a_table_entry_and_a_registration(monkeypatch):
    # The two places a reduction needs (besides a front-end function): its combine here and
    # its primitive in expr/reduce.py.  llvm then starts from the table's identity (0, not
    # the INT64_MAX a default gave) and folds with its scalar op.
    monkeypatch.setitem(COMBINES, "bitwise_or",
                        Combine("bitwise_or", lambda dt: 0, "bitwise_or", False, NOT_APPLICABLE, True))
    reference = lambda arrays, attrs: np.bitwise_or.reduce(arrays[0], axis=attrs[0])  # noqa: E731
    with registered("test_reduce_bitwise_or", "reduce", reference,
                    reduce_module._reduction("bitwise_or")) as op, on_llvm() as programs:
        value = np.asarray(wrap(apply(op, (lnp.asarray(ROWS)._n(),), ((1,),))))
    np.testing.assert_array_equal(value, [21, 42])
    assert value.dtype == np.int64
    assert programs[-1].kernel_count == 1 and programs[-1].extern_count == 0


# --- identities and NaN rules against NumPy ---------------------------------------------------
def _samples(dt):
    if dt.kind == "b":
        return np.array([False, True])
    if dt.kind == "f":
        info = np.finfo(dt)
        return np.array([info.min, -1, -0.0, 0, 1, info.max, -np.inf, np.inf, np.nan], dtype=dt)
    info = np.iinfo(dt)
    return np.array([info.min, 0, 1, info.max], dtype=dt)


def _refused_on(name, dt) -> bool:
    """True (having checked the refusal) where the combine is not defined on ``dt``: the
    bitwise ones on floats raise TypeError, as NumPy's bitwise ufuncs do."""
    if name.startswith("bitwise") and np.dtype(dt).kind not in "biu":
        with pytest.raises(TypeError):
            combines.identity(name, dt)
        with pytest.raises(TypeError):
            getattr(np, name).reduce(np.array([], dt))
        return True
    return False


@pytest.mark.parametrize("dt", SUPPORTED, ids=str)
@pytest.mark.parametrize("name", sorted(COMBINES))
def test_an_empty_reduction_gives_numpys_identity_or_raises_as_numpy_does(name, dt):
    if _refused_on(name, dt):
        return
    combine, empty = COMBINES[name], np.array([], dt)
    reduce = (lambda a: getattr(np, name)(a)) if combine.arg else getattr(np, name).reduce
    if combine.numpy_identity:
        expected = reduce(empty)
        assert combines.numpy_identity(name, dt) == expected
        assert np.array(combines.identity(name, dt), dt) == expected
    else:
        assert combines.numpy_identity(name, dt) is None
        with pytest.raises(ValueError):
            reduce(empty)


@pytest.mark.parametrize("dt", SUPPORTED, ids=str)
@pytest.mark.parametrize("name", sorted(COMBINES))
def test_the_identity_is_neutral_for_every_value_of_the_dtype(name, dt):
    if _refused_on(name, dt):
        return
    combine, x = COMBINES[name], _samples(dt)
    start = combines.identity(name, dt)
    assert np.array(start, dt).item() == start or math.isnan(start)    # exact in the dtype
    if combine.arg:
        # every element beats or ties the start (NaN wins by the NaN rule)
        beaten = np.greater(np.array(start, dt), x) if name == "argmax" else np.less(np.array(start, dt), x)
        assert not beaten.any()
        return
    folded = getattr(np, name)(np.array(start, dt), x)
    if name in ("logical_or", "logical_and"):
        np.testing.assert_array_equal(folded, x.astype(bool))
    else:
        np.testing.assert_array_equal(folded, x)      # NaN positions compare equal
        assert folded.dtype == dt


@pytest.mark.parametrize("dt", SUPPORTED, ids=str)
@pytest.mark.parametrize("name", ["maximum", "minimum", "argmax", "argmin", "fmax", "fmin"])
def test_max_and_min_start_at_the_lowest_and_highest_value(name, dt):
    high = name in ("minimum", "argmin", "fmin")
    if dt.kind == "f":
        expected = math.nan if name in ("fmax", "fmin") else (math.inf if high else -math.inf)
    elif dt.kind == "b":
        expected = high
    else:
        expected = int(np.iinfo(dt).max if high else np.iinfo(dt).min)
    got = combines.identity(name, dt)
    assert got == expected or (math.isnan(expected) and math.isnan(got))
    assert type(got) is type(expected)                  # Python scalars: weak in the front end


@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=str)
@pytest.mark.parametrize("name", sorted(COMBINES))
def test_the_nan_rule_is_numpys(name, dt):
    combine, x = COMBINES[name], np.array([1, np.nan, 3], dt)
    if combine.nan == NOT_APPLICABLE:
        # bool-only: the primitives with this combine refuse float input
        users = [op for op in OPS.values() if getattr(op.lowerings.get(KERNEL), "combine", None) == name]
        for op in users:
            with pytest.raises(TypeError):
                op.dtype_rule((types.SimpleNamespace(dtype=np.dtype(dt), shape=(3,)),), ((0,),))
        return
    if combine.arg:
        nan_won = getattr(np, name)(x) == 1
    else:
        nan_won = np.isnan(getattr(np, name).reduce(x))
    assert nan_won == (combine.nan == PROPAGATE)
    assert combine.nan in (PROPAGATE, IGNORE)


@pytest.mark.parametrize("name", sorted(COMBINES))
def test_every_combine_compiles_on_llvm_for_the_dtypes_it_reduces(name):
    combine = COMBINES[name]
    assert combine.scalar_op in SCALAR_OPS
    for dt in SUPPORTED:
        if combine.nan == NOT_APPLICABLE and dt != dtypes.BOOL:
            continue
        assert SUPPORTS.reduction(name, dt), (name, dt)


# --- the scalar-op list -----------------------------------------------------------------------
def _numpy_loops(op):
    """(argument dtypes, result dtype) of each NumPy loop of scalar op ``op`` on supported dtypes."""
    if op == "cast":
        return [([a], b) for a in SUPPORTED for b in SUPPORTED]
    if op == "select":
        return [([dtypes.BOOL, d, d], d) for d in SUPPORTED]
    if op == "fma":             # (no ufunc: complex multiply and abs use it on their parts)
        return [([d, d, d], d) for d in map(np.dtype, (np.float32, np.float64))]
    ufunc = np.power if op == "power_uniform" else getattr(np, op)
    loops = []
    for signature in ufunc.types:
        ins, outs = signature.split("->")
        try:
            args, out = [np.dtype(c) for c in ins], np.dtype(outs[0])
        except TypeError:
            continue                                    # object/datetime codes
        if all(d in SUPPORTED for d in args + [out]):
            if op != "power_uniform" or out.kind == "f":
                loops.append((args, out))
    return loops


@pytest.mark.parametrize("op", sorted(SCALAR_OPS))
def test_every_scalar_op_has_llvm_code_or_a_declared_reason_to_be_extern(op):
    loops = _numpy_loops(op)
    assert loops, f"{op} has no NumPy loop on the supported dtypes"
    for args, out in loops:
        operands = args[1:] if op == "select" else args
        if not scalar_ops.supports(op, operands, out):
            kinds, reason = EXTERN_SCALAR_OPS.get(op, ("", ""))
            assert reason and {d.kind for d in operands} <= set(kinds), (
                f"llvm has no code for {op}{tuple(str(d) for d in args)} and "
                "compile.capability_probe.EXTERN_SCALAR_OPS does not say why")
            assert extern_reason(op, operands, out) == reason


def test_declared_extern_scalar_ops_are_really_left_to_numpy():
    for op, (kinds, reason) in EXTERN_SCALAR_OPS.items():
        assert op in SCALAR_OPS and reason
        declared = [(a, o) for a, o in _numpy_loops(op) if {d.kind for d in a} <= set(kinds)]
        assert declared and not any(scalar_ops.supports(op, a, o) for a, o in declared), op


@pytest.mark.parametrize("name", sorted(UFUNC_OPS))
def test_every_ufunc_lowering_emits_only_listed_scalar_ops(name):
    # The probe runs each lowering once per NumPy loop; an op outside SCALAR_OPS raises
    # UnknownScalarOp there, and each loop either compiles or is extern for a stated reason.
    op = UFUNC_OPS[name]
    lowering = op.lowerings[KERNEL]
    if not callable(lowering):
        assert lowering is EXTERN
        return
    if getattr(lowering, "scalar_op", None) is not None:
        assert lowering.scalar_op in SCALAR_OPS
    for signature in getattr(np, name).types:
        ins, outs = signature.split("->")
        try:
            args, out = [np.dtype(c) for c in ins], np.dtype(outs[0])
        except TypeError:
            continue
        if not all(d in SUPPORTED for d in args + [out]):
            continue
        operands = tuple(types.SimpleNamespace(dtype=d, shape=(4,)) for d in args)
        for attrs in ((0,), (1,)) if name == "divmod" else ((),):
            node = types.SimpleNamespace(op=op, dtype=out, args=operands, attrs=attrs, shape=(4,))
            why = SUPPORTS.why_not(node)
            assert why is None or why in [r for _, r in EXTERN_SCALAR_OPS.values()], (name, signature, why)


def test_a_lowering_emitting_an_unlisted_scalar_op_is_an_error_naming_it_not_a_silent_extern():
    # Before the list, llvm had no code for "spacing", so the node quietly ran as a NumPy call.
    reference = lambda arrays, attrs: np.spacing(arrays[0])  # noqa: E731
    with registered("test_spacing_scalar", "elementwise", reference, scalar_lowering("spacing")) as op, \
            on_llvm():
        with pytest.raises(UnknownScalarOp, match="'spacing'"):
            np.asarray(wrap(apply(op, (lnp.asarray(np.ones(3))._n(),), ())))


def test_extern_calls_are_logged_with_their_reason(capsys):
    x = np.arange(1, 7, dtype=np.int64).reshape(2, 3)
    with on_llvm(), lnp.config(logs="fusion"):
        a = lnp.asarray(x)
        got = np.asarray(lnp.spacing(a.astype(np.float64)) + a ** a)
    np.testing.assert_array_equal(got, np.spacing(x.astype(np.float64)) + x ** x)
    err = capsys.readouterr().err
    assert "[lazynum:fusion] extern: spacing" in err and "declares no kernel lowering" in err
    assert "[lazynum:fusion] extern: power" in err and EXTERN_SCALAR_OPS["power"][1] in err
