"""The registry walk: every primitive declares all of its parts in one place."""
import numpy as np
import pytest

import lazynum  # noqa: F401  (registers every primitive)
from lazynum.expr.registry import KINDS, OPS


@pytest.mark.parametrize("name", sorted(OPS))
def test_every_op_declares_its_rules_and_reference(name):
    op = OPS[name]
    assert op.name == name
    assert op.kind in KINDS
    assert callable(op.shape_rule), f"{name} lacks a shape rule"
    assert callable(op.dtype_rule), f"{name} lacks a dtype rule"
    assert callable(op.reference), f"{name} lacks a NumPy reference"
    assert op.doc, f"{name} lacks a one-line description"


def test_registry_covers_every_numpy_ufunc_lazynum_exports():
    import lazynum as lnp
    # Generalized ufuncs (matmul, vecdot, ...) are front-end compositions, not primitives.
    missing = [n for n, f in vars(np).items() if isinstance(f, np.ufunc) and f.signature is None
               and n in lnp.__all__ and f.__name__ not in OPS]
    assert not missing


def test_duplicate_registration_is_refused():
    from lazynum.expr.registry import register
    with pytest.raises(ValueError):
        register("add", "elementwise", shape=None, dtype=None, reference=None)


@pytest.mark.parametrize("name", ["leaf", "outputs"])
def test_names_that_mark_signature_entries_are_refused(name):
    # signatures name ops by their name and mark input and output entries with these words:
    # an op called "leaf" would make a graph's key equal to another graph's
    from lazynum.expr.registry import OPS, register
    with pytest.raises(ValueError, match="reserved"):
        register(name, "elementwise", shape=None, dtype=None, reference=None)
    assert name not in OPS


# --- VJP rules (issue 6): every op declares how gradients flow through it ---------------------
def _float_output_possible(op):
    """Whether the op can produce a floating-point value (else no cotangent reaches it)."""
    ufunc = getattr(np, op.name, None)
    if op.kind == "elementwise" and isinstance(ufunc, np.ufunc):
        return any(t.split("->")[1] and set(t.split("->")[1]) & set("efdg") for t in ufunc.types)
    return op.name not in ("argmax", "argmin", "argsort", "argpartition", "searchsorted", "iota",
                           "check_index",
                           "int_value", "reduce_any", "reduce_all")


@pytest.mark.parametrize("name", sorted(OPS))
def test_every_op_declares_a_vjp_or_why_it_has_none(name):
    from lazynum.expr.derivatives import NOT_FLOAT, NoGradient
    op = OPS[name]
    assert op.vjp is not None, f"{name} declares no VJP rule (or NoGradient with the reason)"
    if isinstance(op.vjp, NoGradient):
        assert op.vjp.reason, f"{name} is marked non-differentiable without a reason"
        if op.vjp is NOT_FLOAT:
            assert not _float_output_possible(op), f"{name} can output floats but is marked NOT_FLOAT"
    else:
        assert callable(op.vjp), f"{name}'s VJP is neither a rule nor NoGradient"


@pytest.mark.parametrize("name", sorted(OPS))
def test_every_op_declares_a_kernel_lowering_or_is_marked_extern(name):
    from lazynum.expr.registry import EXTERN, KERNEL, Routine
    op = OPS[name]
    if op.kind == "leaf":
        return                  # inputs: nothing to compute
    lowering = op.lowerings.get(KERNEL)
    assert lowering is EXTERN or isinstance(lowering, Routine) or callable(lowering), (
        f"{name} declares no kernel lowering: add declare_lowering(...) beside its registration "
        "(a callable emitting kernel-IR scalar ops, EXTERN for a library call, or a Routine "
        "each compiled backend implements)")
