"""Configuration: environment variables, validation and ``with lazynum.config``."""
import os
import platform
import subprocess
import sys

import pytest

import lazynum as lnp
from lazynum.control import settings as cfg


def test_unknown_backend_is_a_clear_error_naming_valid_ones(monkeypatch):
    monkeypatch.setenv("LAZYNUM_BACKEND", "tpu")
    with pytest.raises(ValueError, match="valid backends: llvm, numpy"):
        cfg.reload_from_environment()
    monkeypatch.setenv("LAZYNUM_BACKEND", "numpy")
    assert cfg.reload_from_environment().backend == "numpy"


def test_config_block_overrides_and_restores():
    before = cfg.get().sync
    with lnp.config(sync="raise", logs="graph,sync"):
        assert cfg.get().sync == "raise"
        assert cfg.get().logs == frozenset({"graph", "sync"})
    assert cfg.get().sync == before


def test_config_rejects_unknown_settings_and_values():
    with pytest.raises(TypeError):
        with lnp.config(colour="blue"):
            pass
    with pytest.raises(ValueError):
        with lnp.config(sync="sometimes"):
            pass
    with pytest.raises(ValueError):
        with lnp.config(logs="everything"):
            pass


def test_describe_lists_every_setting():
    text = cfg.describe()
    for name, (env, _, _) in cfg.SETTINGS_TABLE.items():
        assert f"`{env}`" in text


# -- LAZYNUM_HEAP: the C heap's policy, applied at import ---------------------------------------
_MMAPPED_BYTES_OF_A_NEW_ARRAY = r'''
import ctypes, numpy
class MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd",
                                                "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = MallInfo2
import lazynum
from lazynum.control import heap
before = libc.mallinfo2().hblkhd
array = numpy.empty(1 << 17)          # 1 MiB: above glibc's initial mmap threshold
print(heap.applied["policy"], libc.mallinfo2().hblkhd - before)
'''


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the heap policy is glibc's mallopt")
@pytest.mark.parametrize("policy, applied_policy", [("keep", "keep"), ("system", "None")])
def test_heap_policy_decides_whether_a_new_mib_array_is_mmapped(policy, applied_policy):
    # keep: a 1 MiB array comes from the heap (freed memory is reused, no fresh pages);
    # system: glibc's defaults mmap it (about 1 MiB of new mappings)
    env = {**os.environ, "LAZYNUM_HEAP": policy}
    out = subprocess.run([sys.executable, "-c", _MMAPPED_BYTES_OF_A_NEW_ARRAY], env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    applied, mmapped = out[0], int(out[1])
    assert applied == applied_policy
    assert (mmapped == 0) if policy == "keep" else (mmapped >= 1 << 20)


def test_heap_policy_rejects_unknown_values(monkeypatch):
    monkeypatch.setenv("LAZYNUM_HEAP", "hoard")
    with pytest.raises(ValueError, match="keep, system"):
        cfg.reload_from_environment()
