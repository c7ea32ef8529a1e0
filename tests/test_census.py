"""lazynum/census.py and ``python -m lazynum fallbacks``: every public NumPy name has a
kind, every NumPy-backed one a reason, and the lists name what the namespace really does."""
import numpy as np
import pytest

import lazynum as lnp
from lazynum import census
from lazynum.__main__ import main


def test_every_public_numpy_name_is_classified():
    table = census.census()
    assert set(table) == set(census.public_names())
    assert {kind for kind, _ in table.values()} <= {"lazy", "lazy: extern", "constant",
                                                    "numpy object", "numpy (eager)"}
    unclassified = sorted(n for n, (kind, why) in table.items() if why == "unclassified")
    assert unclassified == [], f"NumPy-backed names without a reason: {unclassified}"


def test_reasons_name_exactly_the_fallbacks():
    table = census.census()
    eager = {name for name, (kind, _) in table.items() if kind == "numpy (eager)"}
    listed = {name for names in census.REASONS.values() for name in names}
    assert listed == eager, (sorted(listed - eager), sorted(eager - listed))


@pytest.mark.parametrize("name", sorted(census.EXTERN | census.CONSTANT))
def test_extern_and_constant_names_are_lazynums_own(name):
    module, _, short = name.rpartition(".")
    space = getattr(np, module) if module else np
    assert hasattr(space, short), f"the census lists {name}, which NumPy does not have"
    kind, _ = census.classify(name)
    assert kind in ("lazy: extern", "constant")


def test_constants_do_not_sync_or_fall_back():
    lnp.reset_metrics()
    lnp.hanning(8), lnp.tril_indices(4), lnp.random.default_rng(0).random(3)
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0


def test_command_prints_the_counts(capsys):
    assert main(["fallbacks"]) == 0
    out = capsys.readouterr().out
    table = census.census()
    eager = sum(1 for kind, _ in table.values() if kind == "numpy (eager)")
    assert f"numpy (eager)  {eager:>4}" in out
    assert "matrix class" in out and "asmatrix bmat" in out


def test_datetime_functions_run_on_numpy_backed_arrays():
    (reason,) = [r for r in census.REASONS if r.startswith("datetime64")]
    calls = {"busday_count": lambda m, d: m.busday_count(d[:-1], d[1:]),
             "busday_offset": lambda m, d: m.busday_offset(d, 1, roll="forward"),
             "is_busday": lambda m, d: m.is_busday(d),
             "datetime_as_string": lambda m, d: m.datetime_as_string(d),
             "datetime_data": lambda m, d: m.datetime_data(d.dtype)}
    assert set(calls) == set(census.REASONS[reason])
    for name, call in calls.items():
        days = [m.arange("2024-03-01", "2024-03-08", dtype="datetime64[D]") for m in (lnp, np)]
        got, want = call(lnp, days[0]), call(np, days[1])
        if name == "datetime_data":
            assert got == want
        else:
            assert isinstance(got, lnp.ndarray) and np.array_equal(np.asarray(got), want), name
