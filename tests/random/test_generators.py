"""lazynum.random (random/generators.py, expr/sampling.py): NumPy's streams bit for bit,
lazy results, no fallback and no sync until a result is read, deferred draws for lazy
parameters in trace order, lazy shuffles and choices, NumPy's errors."""
import pickle

import numpy as np
import pytest

import lazynum as lnp
from lazynum.expr import sampling
from ..strategies import assert_same

# Valid parameters for every elementwise distribution (integers are ints).
PARAMS = {
    "beta": (0.5, 2.0), "binomial": (10, 0.3), "chisquare": (3.0,), "exponential": (2.0,),
    "f": (3.0, 5.0), "gamma": (2.0, 1.5), "geometric": (0.3,), "gumbel": (1.0, 2.0),
    "hypergeometric": (10, 5, 7), "laplace": (0.5, 2.0), "logistic": (1.0, 2.0),
    "lognormal": (0.5, 0.8), "logseries": (0.6,), "negative_binomial": (5, 0.4),
    "noncentral_chisquare": (3.0, 1.5), "noncentral_f": (3.0, 5.0, 1.5), "normal": (1.0, 2.0),
    "pareto": (3.0,), "poisson": (4.0,), "power": (2.0,), "rayleigh": (2.0,),
    "standard_gamma": (2.5,), "standard_t": (4.0,), "triangular": (0.5, 1.0, 3.0),
    "uniform": (-1.0, 3.0), "vonmises": (0.5, 2.0), "wald": (1.0, 2.0), "weibull": (1.5,),
    "zipf": (2.5,), "standard_normal": (), "standard_exponential": (), "standard_cauchy": (),
}
GENERATOR_ONLY = {"integers": (0, 10), "random": ()}
LEGACY_ONLY = {"randint": (0, 10), "random_sample": ()}
KINDS = {"generator": (lambda seed: lnp.random.default_rng(seed), np.random.default_rng),
         "legacy": (lambda seed: lnp.random.RandomState(seed), np.random.RandomState)}


def _cases():
    for kind, extra in (("generator", GENERATOR_ONLY), ("legacy", LEGACY_ONLY)):
        for name, params in sorted({**PARAMS, **extra}.items()):
            yield kind, name, params


CASES = list(_cases())


def _pair(kind, seed=1234):
    make_lazy, make_numpy = KINDS[kind]
    return make_lazy(seed), make_numpy(seed)


def _array_params(params):
    """Each parameter as a length-3 array of valid values (ints stay ints)."""
    out = []
    for p in params:
        if isinstance(p, int):
            out.append(np.array([p, p + 1, p + 2]))
        else:
            out.append(p * np.array([1.0, 0.9, 0.8]))
    return out


@pytest.mark.parametrize("kind,name,params", CASES)
def test_known_parameters_draw_now_with_numpys_bits(kind, name, params):
    lazy, ref = _pair(kind)
    got = [getattr(lazy, name)(*params, size=(2, 3)), getattr(lazy, name)(*params)]
    want = [getattr(ref, name)(*params, size=(2, 3)), getattr(ref, name)(*params)]
    assert isinstance(got[0], lnp.ndarray)
    assert type(got[1]) is type(want[1])          # a scalar draw is NumPy's scalar
    assert_same(got[0], want[0], rtol=0)
    assert got[1] == want[1]
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0


@pytest.mark.parametrize("kind,name,params", [c for c in CASES if c[2]])
def test_lazy_parameters_draw_inside_the_program(kind, name, params):
    lazy, ref = _pair(kind)
    arrays = _array_params(params)
    lazy_params = [lnp.asarray(a) + 0 for a in arrays]          # computed by the program
    before = getattr(lazy, name)(*params)                       # drawn now
    got = getattr(lazy, name)(*lazy_params)                     # deferred
    later = getattr(lazy, name)(*params, size=4)                # deferred behind it
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    want_before = getattr(ref, name)(*params)
    want = getattr(ref, name)(*arrays)
    want_later = getattr(ref, name)(*params, size=4)
    assert before == want_before
    assert_same(got, want, rtol=0)
    assert_same(later, want_later, rtol=0)
    assert lnp.metrics()["syncs"] == 1 and lnp.metrics()["fallbacks"] == 0


def test_state_after_deferred_draws_is_numpys():
    lazy, ref = _pair("generator", 7)
    lam = lnp.arange(1.0, 6.0) * 2.0
    k = lazy.poisson(lam)
    state = lazy.bit_generator.state             # runs the pending draw first
    want = ref.poisson(np.arange(1.0, 6.0) * 2.0)
    assert state == ref.bit_generator.state
    assert_same(k, want)
    assert lazy.random() == ref.random()


def test_legacy_state_includes_the_cached_gaussian():
    lazy, ref = _pair("legacy", 3)
    lazy.normal(lnp.zeros(3) + 1.0)              # deferred; leaves a cached Gaussian
    ref.normal(np.ones(3))
    for a, b in zip(lazy.get_state(), ref.get_state()):
        assert np.array_equal(a, b)
    assert lazy.standard_normal() == ref.standard_normal()


def test_a_loop_of_deferred_draws_compiles_once():
    lazy, ref = _pair("generator", 11)
    x, xs = lnp.asarray(np.ones(50)), np.ones(50)
    for _ in range(6):
        x = x + lazy.normal(x * 0.1, 1.0)
        xs = xs + ref.normal(xs * 0.1, 1.0)
        float(x.sum())
    assert lnp.metrics()["cache_misses"] == 1
    assert_same(x, xs, rtol=0)


def test_dropped_results_still_advance_the_stream():
    lazy, ref = _pair("generator", 5)
    s = lazy.normal(lnp.zeros(4) + 1.0).sum()    # the draw's own array is never kept
    want = ref.normal(np.ones(4)).sum()
    assert float(s) == want
    assert lazy.random() == ref.random()


def test_legacy_functions_share_numpys_global_stream():
    lnp.random.seed(42)
    a = lnp.random.rand(3)
    b = np.random.rand(2)                        # NumPy's own module, same global state
    c = lnp.random.randn(2, 2)
    np.random.seed(42)
    assert_same(a, np.random.rand(3), rtol=0)
    assert_same(b, np.random.rand(2), rtol=0)
    assert_same(c, np.random.randn(2, 2), rtol=0)
    assert isinstance(lnp.random.rand(), float)
    assert lnp.random.ranf is lnp.random.random_sample and lnp.random.sample is lnp.random.ranf


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_shuffle_permutation_and_choice_of_lazy_arrays(kind):
    lazy, ref = _pair(kind, 9)
    base = np.arange(24.0).reshape(6, 4)
    x, xs = lnp.asarray(base) * 2.0, base * 2.0
    row = x[1]                                   # a view made before the shuffle sees it
    lazy.shuffle(x)
    ref.shuffle(xs)
    got = [lazy.permutation(x), lazy.choice(x[:, 0], 5), lazy.choice(x[:, 1], 3, replace=False),
           lazy.permutation(7)]
    want = [ref.permutation(xs), ref.choice(xs[:, 0], 5), ref.choice(xs[:, 1], 3, replace=False),
            ref.permutation(7)]
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    assert_same(x, xs, rtol=0)
    assert_same(row, xs[1], rtol=0)
    for g, w in zip(got, want):
        assert_same(g, w, rtol=0)


def test_generator_shuffle_and_choice_along_an_axis():
    lazy, ref = _pair("generator", 2)
    base = np.arange(20.0).reshape(4, 5)
    x, xs = lnp.asarray(base) + 0.0, base + 0.0
    lazy.shuffle(x, axis=1)
    ref.shuffle(xs, axis=1)
    assert_same(x, xs, rtol=0)
    assert_same(lazy.choice(x, 3, axis=1, p=[0.1, 0.2, 0.3, 0.2, 0.2]),
                ref.choice(xs, 3, axis=1, p=[0.1, 0.2, 0.3, 0.2, 0.2]), rtol=0)
    assert_same(lazy.permuted(x, axis=1), ref.permuted(xs, axis=1), rtol=0)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_lazy_out_is_written_and_returned(dtype):
    lazy, ref = _pair("generator", 4)
    out, want = lnp.zeros((2, 3), dtype), np.zeros((2, 3), dtype)
    result = lazy.standard_normal(out=out, dtype=dtype)
    assert result is out
    assert_same(out, ref.standard_normal(out=want, dtype=dtype), rtol=0)
    with pytest.raises(ValueError):
        lazy.random(out=lnp.zeros((3, 2)).T)     # NumPy needs a C-contiguous out


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, bool])
def test_integer_dtypes_deferred_and_now(dtype):
    lazy, ref = _pair("generator", 8)
    high = lnp.asarray(np.array([2, 3, 4])) + 0 if dtype is not bool else 2
    got = [lazy.integers(0, high, dtype=dtype), lazy.integers(0, 2, size=5, dtype=dtype)]
    want = [ref.integers(0, np.array([2, 3, 4]) if dtype is not bool else 2, dtype=dtype),
            ref.integers(0, 2, size=5, dtype=dtype)]
    for g, w in zip(got, want):
        assert_same(g, w)


def test_bad_parameters_raise_numpys_error():
    lazy, ref = _pair("generator")
    with pytest.raises(ValueError):
        lazy.normal(0.0, -1.0, size=3)           # known now: raised at the call, as NumPy
    with pytest.raises(ValueError):
        lazy.normal(lnp.zeros(3), 1.0, size=(2, 2))   # shapes: raised at the call
    scale = lnp.asarray(np.array([1.0, -1.0])) * 1.0
    bad = lazy.normal(0.0, scale)
    with pytest.raises(ValueError, match="random_draw"):
        bad.sync()                               # data: raised at the sync, naming the op
    with pytest.raises(TypeError):
        lazy.normal(1.0, 2.0, 3, 4)              # NumPy's signature


def test_pickled_generator_continues_the_stream():
    lazy, ref = _pair("generator", 12)
    lazy.normal(lnp.zeros(2) + 1.0)
    ref.normal(np.ones(2))
    copy = pickle.loads(pickle.dumps(lazy))
    assert isinstance(copy, lnp.random.Generator)
    assert copy.random() == ref.random()


def test_default_rng_accepts_generators_and_spawns():
    lazy = lnp.random.default_rng(0)
    assert lnp.random.default_rng(lazy) is lazy
    shared = np.random.default_rng(5)
    wrapped = lnp.random.default_rng(shared)
    assert isinstance(wrapped, lnp.random.Generator)
    assert wrapped.random() == np.random.default_rng(5).random()
    children = lazy.spawn(2)
    want = np.random.default_rng(0).spawn(2)
    assert [c.random() for c in children] == [w.random() for w in want]
    assert lnp.random.Generator(lnp.random.PCG64(3)).random() == \
        np.random.Generator(np.random.PCG64(3)).random()


def test_a_rerun_draw_gives_the_same_numbers_and_keeps_the_state():
    engine = np.random.default_rng(6)
    stream = sampling.Stream(engine)
    first = stream.next_serial()
    a = stream.run(first, "standard_normal", (), {"size": 3})
    second = stream.next_serial()
    b = stream.run(second, "standard_normal", (), {"size": 3})
    assert np.array_equal(stream.run(first, "standard_normal", (), {"size": 3}), a)
    ref = np.random.default_rng(6)
    assert np.array_equal(ref.standard_normal(3), a) and np.array_equal(ref.standard_normal(3), b)
    assert engine.random() == ref.random()
    with pytest.raises(RuntimeError):
        stream.run(second + 2, "standard_normal", (), {"size": 3})   # out of trace order
