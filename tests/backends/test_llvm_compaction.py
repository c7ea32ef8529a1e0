"""Stream compaction on llvm: the ``compact`` routine is a compiled two-pass scan, not a
NumPy call, and matches NumPy's boolean indexing bit for bit on every dtype, row length,
mask density and chunking (multi-chunk arrays on several threads)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import lazynum as lnp
import lazynum.backends.llvm as llvm_backend
from lazynum.backends.llvm import compaction
from lazynum.backends.llvm.program import ExternStep, RoutineStep

from .. import strategies as S
from ..compile.llvm_harness import compiled

# Sizes around the chunk boundaries (several chunks, a ragged last one) and tiny ones.
LENGTHS = [0, 1, 2, 17, compaction.MIN_CHUNK - 1, compaction.MIN_CHUNK,
           3 * compaction.MIN_CHUNK + 5]
DENSITIES = [0.0, 1.0, 0.5, 0.03]


def _data(rng, dtype, shape):
    if dtype.kind == "b":
        return rng.random(shape) > 0.5
    if dtype.kind == "f":
        x = rng.standard_normal(shape).astype(dtype)
        x.flat[::7] = -0.0                       # bit-exact copies keep the sign of zero
        return x
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


def _compacted_physical(x, mask, threads):
    """(true-size result, padded storage, program) of ``x[mask]`` on llvm."""
    with lnp.config(threads=threads):
        holder = {}

        def select(m, a, keep):
            holder["y"] = y = a[keep]
            return y
        value, program = compiled(select, x, mask)
    return value, holder["y"]._data._n().buffer, program


@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from(S.ALL), n=st.sampled_from(LENGTHS), row=st.sampled_from([(), (3,), (2, 2)]),
       density=st.sampled_from(DENSITIES), threads=st.sampled_from([1, 2, 3]), seed=st.integers(0, 2**16))
def test_compaction_matches_numpy_bit_for_bit_and_zeroes_the_padding(dtype, n, row, density, threads, seed):
    rng = np.random.default_rng(seed)
    x = _data(rng, dtype, (n,) + row)
    mask = rng.random(n) < density
    value, padded, program = _compacted_physical(x, mask, threads)
    expected = x[mask]
    assert value.dtype == expected.dtype and value.shape == expected.shape
    assert value.tobytes() == expected.tobytes()
    assert padded.shape == x.shape
    assert not padded[len(expected):].any()
    assert any(isinstance(s, RoutineStep) for s in program.steps)
    assert not any(isinstance(s, ExternStep) for s in program.steps)


def test_compaction_reads_non_contiguous_rows_and_masks():
    x = np.arange(60.0).reshape(6, 10).T             # a transposed (strided) input
    mask = (np.arange(20) % 3 == 0)[::2]
    value, _, _ = _compacted_physical(x, mask, 2)
    np.testing.assert_array_equal(value, x[mask])


def test_programs_with_compaction_round_trip_through_bytes():
    x = np.random.default_rng(3).standard_normal(1000)
    value, program = compiled(lambda m, a: a[a > 0.1] * 2, x)
    again = llvm_backend.load(program.to_bytes())
    inputs, sizes = program.last_call
    got = again.run(inputs, sizes, None)
    assert any(isinstance(s, RoutineStep) for s in again.steps)
    np.testing.assert_array_equal(value, x[x > 0.1] * 2)
    data = [g for g in got if g.dtype == np.float64 and g.shape == (1000,)][0]
    np.testing.assert_array_equal(data[:len(value)], value)


def test_every_declared_routine_has_an_llvm_implementation():
    from lazynum.expr.registry import KERNEL, OPS, Routine
    routines = {op.lowerings[KERNEL].name for op in OPS.values()
                if isinstance(op.lowerings.get(KERNEL), Routine)}
    assert routines == {"compact"}      # llvm implements exactly these (program._routine)


@pytest.mark.parametrize("itemsize", [1, 2, 4, 8])
def test_generated_routine_ir_verifies(itemsize):
    import llvmlite.binding as llvm

    from lazynum.backends.llvm import jit
    text, names = compaction.functions("c", itemsize)
    jit.target_machine()
    module = llvm.parse_assembly("\n".join(compaction.DECLARATIONS) + "\n" + text
                                 + "\nattributes #0 = { nounwind willreturn memory(none) }"
                                 + "\nattributes #1 = { nounwind alwaysinline }\n")
    module.verify()
    assert all(module.get_function(name) for name in names)
