"""Shared pytest setup: hypothesis profiles and a clean metrics/config state per test."""
import os

import pytest
from hypothesis import HealthCheck, settings

# Tests never touch the user's persistent compile cache (tests of the disk cache point
# LAZYNUM_CACHE_DIR at a temporary directory), and hypothesis runs compile many programs
# at one line on purpose, so the recompile warning is off unless a test turns it on.
os.environ["LAZYNUM_CACHE_DIR"] = "off"
os.environ["LAZYNUM_RECOMPILE_LIMIT"] = "0"
# Tests of the compiled backend run its compiled tier deterministically: every new program
# compiles before it runs (tests/runtime/test_tiers.py turns the background tier on).
os.environ["LAZYNUM_COMPILE"] = "eager"
# Tests assert the lazy contract (one sync, N kernels, errors at the sync) on small arrays,
# which the immediate tier would compute at once: it is off unless a test turns it on
# (tests/runtime/test_immediate.py; the fuzz slice's ``immediate`` backend mixes both).
os.environ.setdefault("LAZYNUM_IMMEDIATE_BELOW", "0")   # (set it to run the suite with the tier on)

# "ci" is deterministic (derandomized, fixed example budget) so CI runs are reproducible;
# "dev" explores more with fresh randomness: HYPOTHESIS_PROFILE=dev pytest
settings.register_profile("ci", derandomize=True, max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=300, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True, params=["llvm", "numpy"])
def backend(request):
    """Every test runs on both backends: the compiled one (the default) and the NumPy
    reference backend, its oracle.  Tests that need one backend set it themselves."""
    import lazynum
    with lazynum.config(backend=request.param):
        yield request.param


@pytest.fixture
def immediate_tier(backend):
    """The immediate tier on, at ``IMMEDIATE_LIMIT`` elements, on each backend."""
    import lazynum
    from tests.strategies import IMMEDIATE_LIMIT
    with lazynum.config(immediate_below=IMMEDIATE_LIMIT):
        yield IMMEDIATE_LIMIT


@pytest.fixture(autouse=True)
def _fresh_metrics():
    import lazynum
    lazynum.reset_metrics()
    yield
