"""Tiered execution (runtime/tiers.py): a new program runs on the interpreter tier first,
compiles in the background from its second run, and gives NumPy's results on either tier."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import lazynum as lnp
from lazynum.backends.llvm import kernel_cache
from lazynum.runtime import compile_cache, tiers


@pytest.fixture(autouse=True)
def _background_tier(backend):
    compile_cache.clear_memory()
    kernel_cache.clear()            # no kernel template compiled yet, as in a new process
    with lnp.config(backend="llvm", compile="background"):
        yield
    tiers.wait_for_compiles(60)
    compile_cache.clear_memory()


def _step(m, x, y):
    return m.sqrt(x * x + 1.0) - y / 3.0


def test_a_program_whose_templates_are_compiled_switches_at_its_second_run():
    rng = np.random.default_rng(4)
    x, y = rng.random(50), rng.random(50)
    got = lnp.asarray(x)
    for _ in range(3):                      # compiles the loop body's templates
        got = _step(lnp, got, lnp.asarray(y))
        np.asarray(got)
    assert tiers.wait_for_compiles(60)
    compile_cache.clear_memory()            # forget the programs, keep the templates
    lnp.reset_metrics()
    expected, got, tiers_seen = x.copy(), lnp.asarray(x), []
    for _ in range(3):
        expected = _step(np, expected, y)
        got = _step(lnp, got, lnp.asarray(y))
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12)
        tiers_seen.append(compile_cache.most_recent().program.tier)
    m = lnp.metrics()
    assert tiers_seen == ["interpreter", "compiled", "compiled"]
    assert (m["interpreted_runs"], m["background_compiles"], m["kernels_compiled"]) == (1, 0, 0)


def test_a_loop_switches_tiers_and_keeps_numpys_results():
    rng = np.random.default_rng(3)
    x, y = rng.random(50), rng.random(50)
    expected, got = x.copy(), lnp.asarray(x)
    tiers_seen = []
    for i in range(6):
        expected = _step(np, expected, y)
        got = _step(lnp, got, lnp.asarray(y))
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12)
        program = compile_cache.most_recent().program
        tiers_seen.append(program.tier)
        if i == 1:
            assert tiers.wait_for_compiles(60)
    assert tiers_seen[:2] == ["interpreter", "interpreter"] and tiers_seen[2:] == ["compiled"] * 4
    metrics = lnp.metrics()
    assert metrics["interpreted_runs"] == 2 and metrics["background_compiles"] == 1
    assert metrics["compiles"] == 1


def test_a_one_shot_program_never_compiles():
    x = np.arange(10.0)
    got = np.asarray(lnp.cos(lnp.asarray(x)) * 2 + 1)
    np.testing.assert_allclose(got, np.cos(x) * 2 + 1)
    tiers.wait_for_compiles(60)
    assert lnp.metrics()["compiles"] == 0 and lnp.metrics()["interpreted_runs"] == 1


def test_a_program_on_big_arrays_compiles_first():
    """30 ops over three million elements: one interpreted run would cost more than compiling."""
    x = np.full(3_000_000, 0.5)
    expected, got = x.copy(), lnp.asarray(x)
    for _ in range(15):
        expected, got = expected * 1.5 - 0.25, got * 1.5 - 0.25
    assert tiers.compile_first([node for node in [got._n()]]) is False   # one node alone: no
    np.testing.assert_allclose(np.asarray(got), expected)
    assert lnp.metrics()["compiles"] == 1 and lnp.metrics()["interpreted_runs"] == 0


def test_eager_policy_compiles_every_new_program_before_it_runs():
    with lnp.config(compile="eager"):
        np.asarray(lnp.asarray(np.arange(5.0)) + 1)
    assert lnp.metrics()["compiles"] == 1 and lnp.metrics()["interpreted_runs"] == 0


def test_background_compiles_under_concurrent_syncs_from_threads():
    errors = []

    def work(seed):
        try:
            rng = np.random.default_rng(seed)
            with lnp.config(backend="llvm", compile="background"):     # config is per thread
                for _ in range(30):
                    x = rng.random(64)
                    got = np.asarray(lnp.tanh(lnp.asarray(x)) * 3 - lnp.asarray(x))
                    np.testing.assert_allclose(got, np.tanh(x) * 3 - x, rtol=1e-12)
        except Exception as exc:       # noqa: BLE001 (reported below)
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert tiers.wait_for_compiles(60)
    assert lnp.metrics()["background_compiles"] >= 1


def test_the_compile_policy_is_checked():
    with pytest.raises(ValueError, match="LAZYNUM_COMPILE"):
        with lnp.config(compile="sometimes"):
            pass


def test_a_keyboard_interrupt_during_a_compile_leaves_lazynum_usable(monkeypatch):
    import lazynum.backends.llvm as llvm_backend

    def interrupted(cut):
        raise KeyboardInterrupt
    with lnp.config(compile="eager"):
        a = lnp.asarray(np.arange(5.0))
        a[1:3] = -1
        b = a * 2
        monkeypatch.setattr(llvm_backend, "compile", interrupted)
        with pytest.raises(KeyboardInterrupt):
            np.asarray(b)
        monkeypatch.undo()
        np.testing.assert_array_equal(np.asarray(b), [0.0, -2.0, -2.0, 6.0, 8.0])
        np.testing.assert_array_equal(np.asarray(a), [0.0, -1.0, -1.0, 3.0, 4.0])


EXIT_SCRIPT = """
import numpy, lazynum as np
with np.config(backend="llvm", compile="background", cache_dir="off"):
    for k in range(12):
        x = np.asarray(numpy.arange(10.0 + k))
        for _ in range(2):          # the second run starts each program's background compile
            y = x
            for j in range(k % 5 + 2):
                y = np.sin(y) * (j + 1) + np.cos(y[::-1])
            float(y.sum())
print("done")
"""


def test_the_process_exits_cleanly_with_background_compiles_in_flight():
    """At exit the worker finishes the compile LLVM is running (LLVM objects freed under it
    aborted the process) and drops the queued ones."""
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-c", EXIT_SCRIPT], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "done"


def _gauss(xp, a):
    n = a.shape[0]
    for c in range(1, n):
        a[c:, c - 1:] = a[c:, c - 1:] - (a[c:, c - 1] / a[c - 1, c - 1:c])[:, None] * a[c - 1, c - 1:]
    return a


def _gauss_tiers(n, runs, seed) -> list:
    """Gauss elimination run ``runs`` times (compiles waited for between runs), each run
    checked against NumPy; the tier of each run."""
    a = np.random.default_rng(seed).random((n, n)) + n * np.eye(n)
    expected = _gauss(np, a.copy())
    tiers_seen = []
    for _ in range(runs):
        got = np.asarray(_gauss(lnp, lnp.asarray(a.copy())))
        np.testing.assert_allclose(got, expected, rtol=1e-12)
        tiers_seen.append(compile_cache.most_recent().program.tier)
        assert tiers.wait_for_compiles(60)
    return tiers_seen


def test_the_compiled_tier_gets_its_own_derived_sizes():
    """Slice offsets and extents are sizes derived from the symbols; the compiled plan asks
    for them in its own order, so it must not be fed the interpreter tier's sizes vector
    (it was: a view_scatter out of bounds at the first compiled run)."""
    tiers_seen = _gauss_tiers(12, 4, seed=0)
    assert tiers_seen[0] == "interpreter" and tiers_seen[-1] == "compiled"


def test_a_large_cut_is_planned_on_the_background_thread_from_a_detached_copy(monkeypatch):
    """Planning a large cut must not stall its run: the worker plans a copy of the trace's
    nodes, which the sync realizes (drops their arguments) meanwhile."""
    monkeypatch.setattr(tiers, "CHEAP_COMPILE", 0.0)     # every cut counts as large...
    monkeypatch.setattr(tiers, "RENT_SHARE", 0.0)        # ...and is due at its second run
    lnp.reset_metrics()
    tiers_seen = _gauss_tiers(10, 3, seed=1)
    m = lnp.metrics()
    assert tiers_seen == ["interpreter", "interpreter", "compiled"]
    assert (m["interpreted_runs"], m["background_compiles"]) == (2, 1)
