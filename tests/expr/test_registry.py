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
