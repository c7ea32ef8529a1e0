"""array/extension.py: bounded arrays plug into the front end by dispatch, not by patching."""
from __future__ import annotations

import numpy as np
import pytest

import lazynum as lnp
from lazynum.array import extension
from lazynum.frontend import (creation, editing, joining, linalg, manipulation, mathfuncs, reductions,
                              selecting, sorting)
from lazynum.frontend.indexing import advanced

MODULES = (creation, editing, joining, linalg, manipulation, mathfuncs, reductions, selecting, sorting,
           advanced)


def test_every_namespace_function_is_the_front_ends_own():
    checked = 0
    for module in MODULES:
        for name in module.__all__:
            if name in extension.extensible_names():
                assert getattr(lnp, name) is getattr(module, name), name
                checked += 1
    assert checked == len(extension.extensible_names()) == 41


def test_extensible_functions_run_the_bounded_form_on_bounded_arrays():
    a = lnp.asarray(np.array([3.0, -1.0, 2.0, 5.0]))
    selection = a[a > 0]
    assert type(selection) is lnp.BoundedArray
    total = lnp.sum(selection)
    assert float(total) == 10.0 and total.dtype == np.float64
    assert type(lnp.reshape(selection, (1, -1))) is lnp.BoundedArray
    np.testing.assert_array_equal(np.asarray(lnp.sort(selection)), [2.0, 3.0, 5.0])
    # the plain function, reached by NumPy's protocol, gets the same answer
    assert float(np.sum(selection)) == 10.0


def test_plain_arrays_pass_through_the_dispatcher_unchanged():
    x = np.arange(12.0).reshape(3, 4)
    got = lnp.sum(lnp.asarray(x), axis=1)
    assert type(got) is lnp.ndarray and got.shape == (3,)
    np.testing.assert_array_equal(np.asarray(got), x.sum(axis=1))
    assert lnp.sum.__wrapped__ is not lnp.sum


def test_a_hook_no_extension_provides_names_itself():
    with pytest.raises(LookupError, match="no_such_hook"):
        extension.hook("no_such_hook")
