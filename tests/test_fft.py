"""``lazynum.fft``: NumPy's transforms as extern steps inside the program (no sync, no
fallback), NumPy's values bit for bit, dtypes, shapes and errors (issue 16 item 4)."""
import numpy as np
import pytest
from hypothesis import given, settings

import lazynum as lnp

from . import strategies as S
from .compile.llvm_harness import compiled

ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
MANY_AXES = ["fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn"]


def _check(fn):
    try:
        expected = fn(np)
    except Exception as exc:  # noqa: BLE001 - compare the type with lazynum's
        with pytest.raises(S.public_type(exc)):
            np.asarray(fn(lnp))
        return
    S.assert_same(fn(lnp), expected, rtol=0.0)


@given(x=S.arrays(S.st.sampled_from([np.dtype(t) for t in (np.float32, np.float64, np.complex64,
                                                          np.complex128, np.int16, np.float16)]),
                  S.shapes(min_dims=1, max_dims=3, min_side=1, max_side=6), small=True),
       data=S.st.data())
@settings(max_examples=40)
def test_transforms_match_numpy(x, data):
    name = data.draw(S.st.sampled_from(ONE_AXIS + MANY_AXES))
    norm = data.draw(S.st.sampled_from([None, "ortho", "forward", "backward"]))
    lazy = lnp.asarray(x)
    if name in ONE_AXIS:
        n = data.draw(S.st.one_of(S.st.none(), S.st.integers(1, 8)))
        axis = data.draw(S.st.integers(-x.ndim, x.ndim - 1))
        _check(lambda m: getattr(m.fft, name)(lazy if m is lnp else x, n=n, axis=axis, norm=norm))
    elif x.ndim >= 2:
        s = data.draw(S.st.one_of(S.st.none(), S.st.tuples(S.st.integers(1, 6), S.st.integers(1, 6))))
        _check(lambda m: getattr(m.fft, name)(lazy if m is lnp else x, s=s, norm=norm))


def test_frequencies_and_shifts_match_numpy():
    for n, d in ((1, 1.0), (6, 0.1), (7, 2), (8, np.float32(0.5))):
        S.assert_same(lnp.fft.fftfreq(n, d), np.fft.fftfreq(n, d), rtol=0.0)
        S.assert_same(lnp.fft.rfftfreq(n, d), np.fft.rfftfreq(n, d), rtol=0.0)
    S.assert_same(lnp.fft.fftfreq(5, lnp.asarray(0.25)), np.fft.fftfreq(5, 0.25), rtol=0.0)
    x = np.arange(12).reshape(3, 4)
    for axes in (None, 0, (1,), (0, 1)):
        S.assert_same(lnp.fft.fftshift(lnp.asarray(x), axes), np.fft.fftshift(x, axes))
        S.assert_same(lnp.fft.ifftshift(lnp.asarray(x), axes), np.fft.ifftshift(x, axes))


def test_errors_are_numpys_at_the_call():
    x = lnp.ones(4)
    with pytest.raises(ValueError):
        lnp.fft.fft(x, n=0)
    with pytest.raises(ValueError):
        lnp.fft.fft(x, norm="nope")
    with pytest.raises(TypeError):
        lnp.fft.rfft(x * 1j)                   # NumPy: no real transform of complex input
    with pytest.raises(np.exceptions.AxisError):
        lnp.fft.fft(x, axis=3)
    with pytest.raises(ValueError):
        lnp.fft.fftn(lnp.ones((2, 2)), s=(2,), axes=(0, 1))


def test_a_transform_is_one_extern_step_with_no_sync_or_fallback():
    x = np.linspace(0, 1, 16)
    lnp.reset_metrics()
    got, program = compiled(lambda m, a: m.abs(m.fft.ifft(m.fft.fft(a) * 2)) + 1, x)
    np.testing.assert_allclose(got, np.abs(np.fft.ifft(np.fft.fft(x) * 2)) + 1, rtol=1e-12)
    names = [step.op.name for step in program.steps if hasattr(step, "op")]
    assert names.count("fft") == 2
    assert lnp.metrics()["fallbacks"] == 0 and lnp.metrics()["syncs"] == 1


def test_numpy_fft_on_lazy_arrays_dispatches_lazily():
    x = lnp.asarray(np.arange(8.0))
    lnp.reset_metrics()
    y = np.fft.rfft(x)
    assert isinstance(y, lnp.ndarray) and lnp.metrics()["fallbacks"] == 0
    S.assert_same(y, np.fft.rfft(np.arange(8.0)), rtol=0.0)
