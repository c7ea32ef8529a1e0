"""Kernel-granular native code: a kernel template is compiled once per process and serves
every program that launches it, whatever its loop's trip count."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import lazynum as lnp
import lazynum.backends.llvm as llvm_backend
from lazynum.backends.llvm import kernel_cache
from lazynum.runtime import compile_cache

from ..compile.llvm_harness import compiled, on_llvm


@pytest.fixture(autouse=True)
def _no_compiled_templates():
    kernel_cache.clear()
    compile_cache.clear_memory()
    yield


def gauss(xp, a):
    n = a.shape[0]
    for c in range(1, n):
        a[c:, c - 1:] = a[c:, c - 1:] - (a[c:, c - 1] / a[c - 1, c - 1:c])[:, None] * a[c - 1, c - 1:]
    return a


def grow(xp, k):
    x = xp.zeros((1, 3))
    for i in range(k):
        x = xp.concatenate([x, x[-1:] * 0.5 + i])
    return x


def run_counting(fn, *args):
    """(result as NumPy, programs compiled, templates compiled, templates reused)."""
    lnp.reset_metrics()
    with on_llvm():
        got = np.asarray(fn(lnp, *args))
    m = lnp.metrics()
    return got, m["compiles"], m["kernels_compiled"], m["kernels_reused"]


def test_gauss_elimination_compiles_a_handful_of_kernels_whatever_its_trip_count():
    compiled_per_size = []
    for n in (12, 20, 21):
        a = np.random.default_rng(n).random((n, n)) + n * np.eye(n)
        got, programs, templates, reused = run_counting(gauss, lnp.asarray(a.copy()))
        np.testing.assert_allclose(got, gauss(np, a.copy()), rtol=1e-12)
        assert programs == 1                    # each trip count is a new program...
        compiled_per_size.append(templates)
    first, *later = compiled_per_size
    assert 1 <= first <= 4                      # ...of a few templates, compiled once
    assert later == [0, 0]


def test_a_growing_concatenate_loop_compiles_the_same_templates_at_any_length():
    got, _, first, _ = run_counting(grow, 10)
    np.testing.assert_array_equal(got, grow(np, 10))
    assert 1 <= first <= 3
    for k in (30, 31):
        got, programs, templates, reused = run_counting(grow, k)
        np.testing.assert_array_equal(got, grow(np, k))
        assert (programs, templates) == (1, 0) and reused == first


def test_one_template_serves_every_launch_with_its_own_offsets_and_extents():
    a = np.arange(64.0).reshape(8, 8)
    _, program = compiled(lambda m, x: m.stack([x[i:, i:].sum(axis=1)[:2] for i in range(4)]), a)
    launches = [s for s in program.steps if hasattr(s, "params")]
    assert len({s.name for s in launches}) < len(launches)
    assert len(program.codes) == len({s.name for s in launches})
    value = np.asarray(lnp.stack([lnp.asarray(a)[i:, i:].sum(axis=1)[:2] for i in range(4)]))
    np.testing.assert_array_equal(value, np.stack([a[i:, i:].sum(axis=1)[:2] for i in range(4)]))


def test_a_stored_program_links_its_own_object_code_in_a_process_without_its_templates():
    x = np.random.default_rng(3).random((6, 5))
    _, program = compiled(lambda m, x: m.exp(x[1:, ::2]).sum(axis=0) + x[0, ::2], x)
    data = program.to_bytes()
    inputs, sizes = program.last_call
    kernel_cache.clear()                        # a fresh process: nothing compiled
    lnp.reset_metrics()
    again = llvm_backend.load(data)
    got = again.run(inputs, sizes, None)[0]
    np.testing.assert_allclose(got, np.exp(x[1:, ::2]).sum(axis=0) + x[0, ::2], rtol=1e-12)
    assert lnp.metrics()["kernels_compiled"] == 0
    assert set(again.codes) == set(program.codes)
    assert all(kernel_cache.lookup(name) is again.codes[name] for name in again.codes)


def test_a_long_compile_a_sync_waits_for_is_reported_once_on_stderr(monkeypatch, capsys):
    monkeypatch.setattr(kernel_cache, "LONG_COMPILE_SECONDS", 0.0)
    monkeypatch.setattr(kernel_cache, "_noted", [])
    with lnp.config(backend="llvm", compile="eager"):
        for k in range(2):
            x = lnp.asarray(np.arange(6.0))
            np.asarray(lnp.sin(x) * (k + 2) + lnp.cos(x[::-1]) ** (k + 2))
    err = capsys.readouterr().err
    assert err.count("lazynum: compiling") == 1
    assert "new kernel templates for the sync at" in err and "test_kernel_cache.py" in err


CHILD = """
import json, sys, numpy, lazynum as np
n = int(sys.argv[1])
a = numpy.random.default_rng(n).random((n, n)) + n * numpy.eye(n)
x = np.asarray(a.copy())
for c in range(1, n):
    x[c:, c - 1:] = x[c:, c - 1:] - (x[c:, c - 1] / x[c - 1, c - 1:c])[:, None] * x[c - 1, c - 1:]
got = numpy.asarray(x)
for c in range(1, n):
    a[c:, c - 1:] = a[c:, c - 1:] - (a[c:, c - 1] / a[c - 1, c - 1:c])[:, None] * a[c - 1, c - 1:]
m = np.metrics()
print(json.dumps({"ok": bool(numpy.allclose(got, a, rtol=1e-12)), "compiled": m["kernels_compiled"],
                  "reused": m["kernels_reused"], "programs": m["compiles"]}))
"""


def _child(tmp_path, n):
    env = dict(os.environ, LAZYNUM_CACHE_DIR=str(tmp_path / "cache"), LAZYNUM_COMPILE="eager",
               LAZYNUM_BACKEND="llvm")
    out = subprocess.run([sys.executable, "-c", CHILD, str(n)], env=env, capture_output=True,
                         text=True, timeout=300, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1]), out.stderr


def test_a_new_process_compiles_no_template_an_earlier_one_stored(tmp_path):
    """n=13 in a fresh process after n=12 in another: a new program, no LLVM."""
    (first, _), (second, _) = _child(tmp_path, 12), _child(tmp_path, 13)
    assert first["ok"] and second["ok"]
    assert first["compiled"] >= 1 and first["programs"] == 1
    assert second["programs"] == 1 and second["compiled"] == 0
    assert second["reused"] == first["compiled"]


def test_a_damaged_template_entry_is_refused_and_compiled_again(tmp_path):
    first, _ = _child(tmp_path, 12)
    kernels = sorted((tmp_path / "cache").glob("llvm-kernel-*.lzc"))
    assert len(kernels) == first["compiled"]
    for path in kernels:                     # one bit of the object code flipped
        data = bytearray(path.read_bytes())
        data[-100] ^= 0x10
        path.write_bytes(bytes(data))
    second, stderr = _child(tmp_path, 13)
    assert second["ok"] and second["compiled"] == first["compiled"]
    assert "llvm-kernel-" in stderr and "removed" in stderr      # refused, with a warning
