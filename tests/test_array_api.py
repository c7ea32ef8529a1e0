"""The Array API standard's protocol surface: the namespace identifies itself, describes
its devices and dtypes, and its arrays answer the standard's array methods."""
import numpy as np
import pytest

import lazynum as lnp

SPEC_FUNCTIONS = (
    "abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift "
    "bitwise_invert bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh "
    "divide equal exp expm1 floor floor_divide greater greater_equal hypot imag isfinite isinf "
    "isnan less less_equal log log1p log2 log10 logaddexp logical_and logical_not logical_or "
    "logical_xor maximum minimum multiply negative nextafter not_equal positive pow real "
    "reciprocal remainder round sign signbit sin sinh square sqrt subtract tan tanh trunc "
    "arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones "
    "ones_like tril triu zeros zeros_like astype can_cast finfo iinfo isdtype result_type "
    "broadcast_arrays broadcast_to concat expand_dims flip moveaxis permute_dims repeat reshape "
    "roll squeeze stack tile unstack argmax argmin count_nonzero nonzero searchsorted where "
    "unique_all unique_counts unique_inverse unique_values argsort sort cumulative_prod "
    "cumulative_sum diff max mean min prod std sum var all any matmul matrix_transpose "
    "tensordot vecdot take take_along_axis").split()
SPEC_LINALG = ("cholesky cross det diagonal eigh eigvalsh inv matmul matrix_norm matrix_power "
               "matrix_rank matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot "
               "trace vecdot vector_norm").split()


def test_every_name_of_the_2024_12_specification_is_present():
    assert lnp.__array_api_version__ == "2024.12"
    assert [n for n in SPEC_FUNCTIONS if not callable(getattr(lnp, n, None))] == []
    assert [n for n in SPEC_LINALG if not callable(getattr(lnp.linalg, n, None))] == []
    for constant in ("e", "inf", "nan", "pi"):
        assert getattr(lnp, constant) == pytest.approx(getattr(np, constant), nan_ok=True)
    assert lnp.newaxis is None


def test_arrays_name_their_namespace():
    x = lnp.asarray(np.arange(3.0))
    assert x.__array_namespace__() is lnp
    assert x.__array_namespace__(api_version="2023.12") is lnp
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2019.01")
    assert x.device == "cpu" and x.to_device("cpu") is x
    with pytest.raises(ValueError):
        x.to_device("cuda")


def test_namespace_info_describes_devices_dtypes_and_capabilities():
    info = lnp.__array_namespace_info__()
    assert info.capabilities() == {"boolean indexing": True, "data-dependent shapes": True,
                                   "max dimensions": 64}
    assert info.default_device() == "cpu" and info.devices() == ["cpu"]
    defaults = info.default_dtypes()
    assert defaults["real floating"] == np.float64 and defaults["integral"] == np.int64
    assert defaults["indexing"] == np.intp
    integral = info.dtypes(kind="integral")
    assert list(integral) == ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
    assert list(info.dtypes(kind=("bool", "real floating"))) == ["bool", "float32", "float64"]
    assert all(lnp.isdtype(dt, "numeric") for dt in info.dtypes(kind="numeric").values())
    with pytest.raises(ValueError):
        info.dtypes(kind="not a kind")
    with pytest.raises(ValueError):
        info.default_dtypes(device="gpu")


def test_dlpack_exports_a_copy_and_imports_numpy_data():
    x = np.arange(6.0).reshape(2, 3)
    lx = lnp.asarray(x) * 2
    assert lx.__dlpack_device__() == (1, 0)
    np.testing.assert_array_equal(np.from_dlpack(lx), x * 2)
    with pytest.raises(BufferError):
        lx.__dlpack__(copy=False)
    back = lnp.from_dlpack(x)
    assert isinstance(back, lnp.ndarray)
    np.testing.assert_array_equal(np.asarray(back), x)


@pytest.mark.parametrize("name, args", [
    ("unique_values", ([3, 1, 3, 2],)), ("permute_dims", (np.arange(6.0).reshape(2, 3), (1, 0))),
    ("concat", ([np.ones(2), np.zeros(3)],)), ("pow", (np.arange(4.0), 2.0)),
    ("bitwise_left_shift", (np.arange(4), 2)), ("matrix_transpose", (np.arange(6.0).reshape(2, 3),)),
    ("vecdot", (np.arange(6.0).reshape(2, 3), np.ones(3))),
    ("cumulative_sum", (np.arange(5.0),)), ("cumulative_prod", (np.arange(1.0, 5.0),)),
])
def test_standard_spellings_match_numpys(name, args):
    lazy_args = [lnp.asarray(np.asarray(a)) if isinstance(a, (list, np.ndarray)) and name != "concat"
                 else ([lnp.asarray(x) for x in a] if name == "concat" else a) for a in args]
    got = getattr(lnp, name)(*lazy_args)
    expected = getattr(np, name)(*[np.asarray(a) if isinstance(a, list) and name != "concat" else a
                                   for a in args])
    np.testing.assert_array_equal(np.asarray(got), expected)
    assert np.asarray(got).dtype == expected.dtype


def test_unique_families_return_the_standards_named_tuples():
    x = np.array([3, 1, 3, 2, 1])
    lx = lnp.asarray(x)
    counts, expected = lnp.unique_counts(lx), np.unique_counts(x)
    np.testing.assert_array_equal(np.asarray(counts.values), expected.values)
    np.testing.assert_array_equal(np.asarray(counts.counts), expected.counts)
    inverse, expected = lnp.unique_inverse(lx), np.unique_inverse(x)
    np.testing.assert_array_equal(np.asarray(inverse.inverse_indices), expected.inverse_indices)
    every, expected = lnp.unique_all(lx), np.unique_all(x)
    np.testing.assert_array_equal(np.asarray(every.indices), expected.indices)
