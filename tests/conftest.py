"""Shared pytest setup: hypothesis profiles and a clean metrics/config state per test."""
import os

import pytest
from hypothesis import HealthCheck, settings

# "ci" is deterministic (derandomized, fixed example budget) so CI runs are reproducible;
# "dev" explores more with fresh randomness: HYPOTHESIS_PROFILE=dev pytest
settings.register_profile("ci", derandomize=True, max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=300, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _fresh_metrics():
    import lazynum
    lazynum.reset_metrics()
    yield
