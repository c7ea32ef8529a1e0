"""The persistent compile cache across processes: warm starts, bad entries, races."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from lazynum.runtime.disk_cache import DiskCache

PROGRAM = textwrap.dedent("""
    import json, sys, warnings
    import numpy as np
    import lazynum as lnp
    warnings.simplefilter("always")
    n = int(sys.argv[1])
    x = lnp.asarray(np.arange(n, dtype=float))
    value = float(((x[1:-1] * 2.5 - x[2:]) ** 2).sum())
    expected = float(((np.arange(n)[1:-1] * 2.5 - np.arange(n)[2:]) ** 2).sum())
    m = lnp.metrics()
    print(json.dumps({"value": value, "expected": expected, "compiles": m["compiles"],
                      "disk_hits": m["cache_hits_disk"], "disk_writes": m["disk_writes"]}))
""")


def run(cache_dir, n=10):
    env = dict(os.environ, LAZYNUM_CACHE_DIR=str(cache_dir), LAZYNUM_BACKEND="numpy")
    done = subprocess.run([sys.executable, "-c", PROGRAM, str(n)], env=env, capture_output=True,
                          text=True, timeout=120, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["value"] == pytest.approx(result["expected"])
    return result, done.stderr


def entry_files(cache_dir):
    return sorted(p for p in cache_dir.iterdir() if p.suffix == ".lzc")


def test_a_new_process_warm_starts_from_disk_at_any_size(tmp_path):
    first, _ = run(tmp_path, 10)
    assert (first["compiles"], first["disk_writes"]) == (1, 1)
    second, _ = run(tmp_path, 57)
    assert (second["compiles"], second["disk_hits"]) == (0, 1)


def test_a_corrupt_entry_is_ignored_with_a_warning_and_rewritten(tmp_path):
    run(tmp_path)
    (entry,) = entry_files(tmp_path)
    data = bytearray(entry.read_bytes())
    data[-3] ^= 0xFF
    entry.write_bytes(bytes(data))
    result, stderr = run(tmp_path)
    assert result["compiles"] == 1 and "RuntimeWarning" in stderr
    again, _ = run(tmp_path)
    assert (again["compiles"], again["disk_hits"]) == (0, 1)


def test_an_intact_entry_with_a_foreign_payload_is_ignored(tmp_path):
    run(tmp_path)
    (entry,) = entry_files(tmp_path)
    DiskCache(tmp_path).put(entry.stem, b'{"format": "lazynum-program-1"}\n{"steps": 7}')
    result, stderr = run(tmp_path)
    assert result["compiles"] == 1 and "ignoring unusable compile-cache entry" in stderr


def test_concurrent_processes_compiling_the_same_graph_leave_one_valid_entry(tmp_path):
    env = dict(os.environ, LAZYNUM_CACHE_DIR=str(tmp_path), LAZYNUM_BACKEND="numpy")
    procs = [subprocess.Popen([sys.executable, "-c", PROGRAM, str(20 + i)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(4)]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        result = json.loads(out.strip().splitlines()[-1])
        assert result["value"] == pytest.approx(result["expected"])
        assert "RuntimeWarning" not in err
    assert len(entry_files(tmp_path)) == 1
    later, _ = run(tmp_path, 33)
    assert (later["compiles"], later["disk_hits"]) == (0, 1)


def test_a_world_writable_cache_directory_is_refused(tmp_path):
    unsafe = tmp_path / "shared"
    unsafe.mkdir()
    unsafe.chmod(0o777)
    result, stderr = run(unsafe)
    assert result["compiles"] == 1 and result["disk_writes"] == 0
    assert "RuntimeWarning" in stderr and not entry_files(unsafe)
    np.testing.assert_equal(oct(unsafe.stat().st_mode & 0o777), oct(0o777))


def test_the_cache_command_lists_and_clears_stored_programs(tmp_path):
    run(tmp_path)
    env = dict(os.environ, LAZYNUM_CACHE_DIR=str(tmp_path))
    shown = subprocess.run([sys.executable, "-m", "lazynum", "cache"], env=env,
                           capture_output=True, text=True, timeout=60, check=True).stdout
    assert f"{tmp_path}: 1 programs" in shown
    cleared = subprocess.run([sys.executable, "-m", "lazynum", "cache", "clear"], env=env,
                             capture_output=True, text=True, timeout=60, check=True).stdout
    assert "removed 1 files" in cleared and not entry_files(tmp_path)
