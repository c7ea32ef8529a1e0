"""Tests for lazynum.runtime.disk_cache: format, verification, trust checks, atomicity."""
import contextlib
import errno
import hashlib
import inspect
import os
import stat
import struct
import subprocess
import sys
import threading
import time
import warnings

import pytest

from lazynum.runtime import disk_cache
from lazynum.runtime.disk_cache import (FORMAT_VERSION, MAGIC, MAX_PAYLOAD, DiskCache,
    default_directory)

HEADER = 52
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
OTHER_UID = 65534   # "nobody"; only used where we are root and can chown to it

# Child processes load the module straight from its file: quick, and independent of the rest
# of the package.
LOAD_MODULE = (
    "import importlib.util, sys, warnings\n"
    f"spec = importlib.util.spec_from_file_location('disk_cache', {disk_cache.__file__!r})\n"
    "dc = importlib.util.module_from_spec(spec)\n"
    "spec.loader.exec_module(dc)\n"
    "warnings.simplefilter('error')\n"
)


def make_payload(writer, rnd):
    """A self-describing payload: (writer, round, size) then a fill byte for that pair."""
    import struct   # this function's source is also run by the writer processes
    size = (2 << 20) + writer * 4099 + rnd
    fill = bytes([(writer * 37 + rnd) % 251])
    return struct.pack("<III", writer, rnd, size) + fill * (size - 12)


def is_written_payload(data):
    writer, rnd, size = struct.unpack_from("<III", data)
    return size == len(data) and writer < 100 and data == make_payload(writer, rnd)


def run_child(code, *args):
    return subprocess.run([sys.executable, "-c", LOAD_MODULE + code, *map(str, args)],
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def cache(tmp_path):
    return DiskCache(tmp_path / "cache")


@contextlib.contextmanager
def no_warnings():
    """Any warning inside the block fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def assert_warns_once(path, match, call):
    """`call()` warns once naming `path` (matching `match`); calling it again is silent."""
    with pytest.warns(RuntimeWarning, match=match) as record:
        result = call()
    assert len(record) == 1 and str(path) in str(record[0].message)
    assert record[0].filename == __file__   # attributed to the caller, not to the cache
    with no_warnings():
        assert call() == result
    return result


# -- round trips -------------------------------------------------------------------------

@pytest.mark.parametrize("size", [0, 1, 51, 52, 53, 4096, (1 << 20) + 3])
def test_round_trip(cache, size):
    payload = os.urandom(size)
    with no_warnings():
        assert cache.put("key-1.a_B", payload) is True
        assert cache.get("key-1.a_B") == payload
    assert cache.entries() == ["key-1.a_B"]
    assert stat.S_IMODE(os.stat(cache.path / "key-1.a_B.lzc").st_mode) == 0o600


def test_file_format_on_disk(cache):
    payload = b"artifact bytes" * 10
    assert cache.put("k", payload)
    raw = (cache.path / "k.lzc").read_bytes()
    assert raw[:8] == MAGIC == b"LZNCACHE"
    assert struct.unpack_from("<IQ", raw, 8) == (FORMAT_VERSION, len(payload))
    assert raw[20:52] == hashlib.blake2b(payload, digest_size=32).digest()
    assert raw[52:] == payload and len(raw) == HEADER + len(payload)


def test_put_replaces_and_accepts_bytes_like(cache):
    assert cache.put("k", b"old")
    assert cache.put("k", bytearray(b"new value"))
    assert cache.put("m", memoryview(b"view"))
    assert cache.get("k") == b"new value" and cache.get("m") == b"view"
    assert sorted(os.listdir(cache.path)) == ["k.lzc", "m.lzc"]
    with pytest.raises(TypeError):
        cache.put("k", "text is not bytes")


def test_absent_key_is_none_without_warning(cache):
    with no_warnings():
        assert cache.get("missing") is None
    assert cache.entries() == []


def test_directory_created_private_with_parents(tmp_path):
    path = tmp_path / "a" / "b" / "cache"
    with no_warnings():
        c = DiskCache(str(path))
    assert c.usable and c.refused_reason is None and c.path == path
    assert path.is_dir() and stat.S_IMODE(path.stat().st_mode) == 0o700


def test_existing_world_readable_directory_is_accepted(tmp_path):
    path = tmp_path / "cache"
    path.mkdir()
    path.chmod(0o755)
    with no_warnings():
        assert DiskCache(path).usable


def test_default_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_directory() == tmp_path / "xdg" / "lazynum"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")   # invalid per XDG: ignored
    assert default_directory() == tmp_path / "home" / ".cache" / "lazynum"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_directory() == tmp_path / "home" / ".cache" / "lazynum"


def test_round_trip_across_processes(cache):
    payload = os.urandom(100_000)
    (cache.path.parent / "payload").write_bytes(payload)
    child = run_child("c = dc.DiskCache(sys.argv[1])\n"
                      "assert c.put('from-child', open(sys.argv[2], 'rb').read())\n",
                      cache.path, cache.path.parent / "payload")
    assert child.returncode == 0, child.stderr
    assert cache.get("from-child") == payload

    assert cache.put("from-parent", payload[::-1])
    child = run_child("c = dc.DiskCache(sys.argv[1])\n"
                      "sys.stdout.write(c.get('from-parent').hex())\n", cache.path)
    assert child.returncode == 0, child.stderr
    assert bytes.fromhex(child.stdout) == payload[::-1]


# -- damaged entries -----------------------------------------------------------------------

PAYLOAD = bytes(range(256)) * 4


@pytest.mark.parametrize("length,match", [
    (0, "truncated header"), (1, "truncated header"), (8, "truncated header"),
    (12, "truncated header"), (HEADER - 1, "truncated header"),
    (HEADER, "truncated payload"), (HEADER + 1, "truncated payload"),
    (HEADER + len(PAYLOAD) - 1, "truncated payload")])
def test_truncated_entry(cache, length, match):
    assert cache.put("k", PAYLOAD)
    path = cache.path / "k.lzc"
    os.truncate(path, length)
    assert_warns_once(path, match + ".*; removed", lambda: cache.get("k"))
    assert not path.exists()                    # one recompile, not one per process
    assert cache.put("k", PAYLOAD) and cache.get("k") == PAYLOAD   # a new put repairs it


def _set(offset, fmt, value):
    return lambda raw: struct.pack_into(fmt, raw, offset, value)


def _flip(offset):
    def flip(raw):
        raw[offset] ^= 0x01
    return flip


@pytest.mark.parametrize("damage,match", [
    (_flip(HEADER + 100), "digest mismatch"),          # a flipped payload bit
    (_flip(HEADER - 1), "digest mismatch"),            # a flipped digest bit
    (_set(0, "8s", b"LZNCACHF"), "bad magic"),
    (_set(0, "8s", b"\x7fELF\x02\x01\x01\x00"), "bad magic"),
    (_set(8, "<I", FORMAT_VERSION + 1), f"format version {FORMAT_VERSION + 1}"),
    (_set(8, "<I", 0), "format version 0"),
    (_set(12, "<Q", len(PAYLOAD) + 1), "truncated payload"),
    (_set(12, "<Q", len(PAYLOAD) - 1), "length mismatch"),
    (_set(12, "<Q", 1 << 40), "exceeds"),
    (lambda raw: raw.extend(b"\0"), "length mismatch"),
], ids=["payload-bit", "digest-bit", "magic", "elf-magic", "newer-version", "version-0",
        "length-plus-1", "length-minus-1", "huge-length", "trailing-byte"])
def test_damaged_entry(cache, damage, match):
    assert cache.put("k", PAYLOAD)
    path = cache.path / "k.lzc"
    raw = bytearray(path.read_bytes())
    damage(raw)
    path.write_bytes(bytes(raw))
    assert_warns_once(path, match + ".*; removed", lambda: cache.get("k"))
    assert not path.exists()


def test_damaged_entry_is_logged_each_time_it_is_met(tmp_path):
    messages = []
    cache = DiskCache(tmp_path / "cache", log=messages.append)
    path = cache.path / "k.lzc"
    for _ in range(2):
        path.write_bytes(MAGIC + b"\0" * 10)
        path.chmod(0o600)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert cache.get("k") is None
    assert messages == [f"{path}: truncated header (18 of {HEADER} bytes); removed"] * 2


def test_damaged_entry_replaced_before_its_removal_stays(cache, monkeypatch):
    """A writer renaming a fresh entry in between the read and the removal keeps it."""
    path = cache.path / "k.lzc"
    path.write_bytes(b"damaged")
    path.chmod(0o600)
    real_lstat = os.lstat

    def lstat_after_a_concurrent_put(target, *args, **kwargs):
        if str(target) == str(path):
            monkeypatch.setattr(os, "lstat", real_lstat)
            assert DiskCache(cache.path).put("k", PAYLOAD)
        return real_lstat(target, *args, **kwargs)
    monkeypatch.setattr(os, "lstat", lstat_after_a_concurrent_put)
    with pytest.warns(RuntimeWarning, match="truncated header") as record:
        assert cache.get("k") is None
    assert "removed" not in str(record[0].message)
    assert cache.get("k") == PAYLOAD


def test_discard_removes_only_the_entry_holding_the_rejected_payload(cache):
    assert cache.put("k", PAYLOAD)
    assert cache.discard("k", b"some other payload") is False
    assert cache.get("k") == PAYLOAD
    assert cache.discard("k", PAYLOAD) is True and not (cache.path / "k.lzc").exists()
    assert cache.discard("k", PAYLOAD) is False          # absent: nothing to do, no warning
    (cache.path / "d.lzc").mkdir()
    assert cache.discard("d", PAYLOAD) is False and (cache.path / "d.lzc").is_dir()
    with pytest.raises(ValueError):
        cache.discard("../k", PAYLOAD)


def test_discard_leaves_an_entry_it_does_not_trust(cache):
    assert cache.put("k", PAYLOAD)
    path = cache.path / "k.lzc"
    path.chmod(0o666)
    assert cache.discard("k", PAYLOAD) is False and path.exists()
    os.symlink(path, cache.path / "link.lzc")
    path.chmod(0o600)
    assert cache.discard("link", PAYLOAD) is False and (cache.path / "link.lzc").is_symlink()


@pytest.mark.parametrize("mode", [0o666, 0o620, 0o602, 0o622])
def test_entry_writable_by_others_is_refused(cache, mode):
    assert cache.put("k", PAYLOAD)
    path = cache.path / "k.lzc"
    path.chmod(mode)
    assert_warns_once(path, "writable by group or others", lambda: cache.get("k"))
    path.chmod(0o600)
    assert cache.get("k") == PAYLOAD


def test_entry_owned_by_someone_else_is_refused(cache, monkeypatch):
    assert cache.put("k", PAYLOAD)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(cache.path).st_uid + 1)
    assert_warns_once(cache.path / "k.lzc", "owned by uid", lambda: cache.get("k"))


def test_symlinked_entry_is_refused(cache):
    assert cache.put("real", PAYLOAD)
    os.symlink(cache.path / "real.lzc", cache.path / "link.lzc")
    assert_warns_once(cache.path / "link.lzc", "symbolic link", lambda: cache.get("link"))
    assert cache.get("real") == PAYLOAD


def test_directory_entry_is_refused(cache):
    (cache.path / "k.lzc").mkdir()
    assert_warns_once(cache.path / "k.lzc", "not a regular file", lambda: cache.get("k"))


def test_fifo_entry_is_refused_without_blocking(cache):
    path = cache.path / "k.lzc"
    os.mkfifo(path)
    results = []
    reader = threading.Thread(target=lambda: results.append(cache.get("k")), daemon=True)
    try:
        with pytest.warns(RuntimeWarning, match="not a regular file"):
            reader.start()
            reader.join(5)
    finally:
        if reader.is_alive():   # get() is stuck opening the FIFO: unblock it, then fail
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
    assert results == [None]


# -- the directory ------------------------------------------------------------------------

def _populated(tmp_path):
    good = DiskCache(tmp_path / "cache")
    assert good.put("k", PAYLOAD)
    return good.path


def assert_refused(path, match):
    with pytest.warns(RuntimeWarning, match=match) as record:
        c = DiskCache(path)
    assert len(record) == 1 and str(path) in str(record[0].message)
    assert record[0].filename == __file__
    assert not c.usable and c.refused_reason and "refused" in repr(c)
    before = sorted(os.listdir(path)) if os.path.isdir(path) else None
    with no_warnings():   # refused once; nothing more to say, and nothing touched
        assert c.get("k") is None
        assert c.put("new", b"payload") is False
        assert c.entries() == [] and c.clear() == 0
    if before is not None:
        assert sorted(os.listdir(path)) == before
    return c


@pytest.mark.parametrize("mode", [0o770, 0o730, 0o707, 0o703, 0o777, 0o1777])
def test_directory_writable_by_others_is_refused(tmp_path, mode):
    path = _populated(tmp_path)
    path.chmod(mode)
    c = assert_refused(path, "writable by group or others")
    assert f"mode {mode:o}" in c.refused_reason


def test_directory_owned_by_someone_else_is_refused(tmp_path, monkeypatch):
    path = _populated(tmp_path)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(path).st_uid + 1)
    assert_refused(path, "owned by uid")


def test_file_instead_of_directory_is_refused(tmp_path):
    path = tmp_path / "cache"
    path.write_bytes(b"not a directory")
    assert_refused(path, "not a directory")
    assert path.read_bytes() == b"not a directory"


def test_symlinked_directory_to_safe_target_is_used(tmp_path):
    target = _populated(tmp_path)
    link = tmp_path / "link"
    link.symlink_to(target)
    with no_warnings():
        c = DiskCache(link)
        assert c.usable and c.get("k") == PAYLOAD and c.put("via-link", b"x")
    assert (target / "via-link.lzc").is_file()


def test_symlinked_directory_to_unsafe_target_is_refused(tmp_path):
    target = _populated(tmp_path)
    target.chmod(0o777)
    link = tmp_path / "link"
    link.symlink_to(target)
    assert_refused(link, "writable by group or others")


@pytest.mark.skipif(not IS_ROOT, reason="changing a file's owner needs root")
def test_real_foreign_owner_is_refused(tmp_path):
    path = _populated(tmp_path)
    os.chown(path / "k.lzc", OTHER_UID, OTHER_UID)
    c = DiskCache(path)
    assert_warns_once(path / "k.lzc", f"owned by uid {OTHER_UID}", lambda: c.get("k"))
    link = tmp_path / "link"
    link.symlink_to(path)
    os.lchown(link, OTHER_UID, OTHER_UID)
    assert_refused(link, "symbolic link owned by uid")
    os.chown(path, OTHER_UID, OTHER_UID)
    assert_refused(path, f"owned by uid {OTHER_UID}")


# -- keys, limits, failures ----------------------------------------------------------------

@pytest.mark.parametrize("key", ["", ".", "..", ".hidden", "a/b", "../x", "/abs", "a\\b",
                                 "a b", "a\n", "a\x00", "k\u00e9", "x" * 201, None, 5, b"k"])
def test_invalid_keys_raise(cache, tmp_path, key):
    with pytest.raises(ValueError):
        cache.get(key)
    with pytest.raises(ValueError):
        cache.put(key, b"x")
    refused = tmp_path / "refused"
    refused.mkdir(mode=0o777)
    refused.chmod(0o777)
    with pytest.warns(RuntimeWarning):
        unusable = DiskCache(refused)
    with pytest.raises(ValueError):   # a programming error whether or not the cache works
        unusable.put(key, b"x")
    assert os.listdir(cache.path) == []


@pytest.mark.parametrize("key", ["x" * 200, "-", "_", "a..b", "A.lzc", "0"])
def test_edge_keys_are_valid(cache, key):
    assert cache.put(key, key.encode()) and cache.get(key) == key.encode()
    assert cache.entries() == [key]


def test_oversized_payload_is_refused(cache):
    big = bytes(MAX_PAYLOAD + 1)   # calloc'd: cheap
    with pytest.warns(RuntimeWarning, match="exceeds"):
        assert cache.put("big", big) is False
    assert os.listdir(cache.path) == []


@pytest.mark.parametrize("failing", ["fsync", "replace", "write"])
def test_failed_put_warns_once_and_cleans_up(cache, monkeypatch, failing):
    assert cache.put("k", b"old")

    def fail(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    if failing == "write":
        monkeypatch.setattr(os, "fdopen", lambda fd, mode: _FailingFile(fd))
    else:
        monkeypatch.setattr(os, failing, fail)
    path = cache.path / "k.lzc"
    assert_warns_once(path, "cannot be written.*No space left", lambda: cache.put("k", b"new"))
    monkeypatch.undo()
    assert os.listdir(cache.path) == ["k.lzc"]   # no temporary file left behind
    assert cache.get("k") == b"old"


class _FailingFile:
    """Stands in for the temporary file object: closes the fd, fails the first write."""

    def __init__(self, fd):
        self.fd = fd

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        os.close(self.fd)

    def write(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_put_into_read_only_directory(cache, monkeypatch):
    assert cache.put("k", b"old")
    cache.path.chmod(0o500)
    if IS_ROOT:
        # root writes through directory permissions: have the OS answer as it does to
        # everyone else
        def refused(*args, **kwargs):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        monkeypatch.setattr(disk_cache.tempfile, "mkstemp", refused)
    try:
        with pytest.warns(RuntimeWarning, match="cannot be written.*Permission denied"):
            assert cache.put("k", b"new") is False
            assert cache.put("other", b"new") is False
        assert os.listdir(cache.path) == ["k.lzc"] and cache.get("k") == b"old"
    finally:
        cache.path.chmod(0o700)


def test_entries_and_clear_touch_only_recognised_files(cache):
    for key in ("b", "a", "c.d"):
        assert cache.put(key, key.encode())
    stray = ["notes.txt", "x.lzc.bak", ".hidden.lzc", "bad key.lzc", "sub"]
    for name in stray[:-1]:
        (cache.path / name).write_bytes(b"keep")
    (cache.path / "sub").mkdir()
    (cache.path / (disk_cache.TEMP_PREFIX + "crashed")).write_bytes(b"leftover")
    assert cache.entries() == ["a", "b", "c.d"]
    assert cache.clear() == 4
    assert cache.entries() == [] and sorted(os.listdir(cache.path)) == sorted(stray)
    assert cache.get("a") is None


# -- concurrency --------------------------------------------------------------------------

WRITER = inspect.getsource(make_payload) + """
c = dc.DiskCache(sys.argv[1])
writer, rounds = int(sys.argv[2]), int(sys.argv[3])
for rnd in range(rounds):
    if not c.put("shared", make_payload(writer, rnd)):
        sys.exit(3)
"""


def test_concurrent_writers_never_expose_a_torn_entry(cache):
    assert cache.put("shared", make_payload(99, 0))
    writers, rounds = 6, 20
    procs = [subprocess.Popen([sys.executable, "-c", LOAD_MODULE + WRITER, str(cache.path),
                               str(w), str(rounds)], stderr=subprocess.PIPE, text=True)
             for w in range(writers)]
    reads, seen = 0, set()
    try:
        with no_warnings():   # a torn or partly written entry would warn here
            deadline = time.monotonic() + 60
            while any(p.poll() is None for p in procs) and time.monotonic() < deadline:
                got = cache.get("shared")
                # the name always exists, so an atomic replace never shows None
                assert got is not None and is_written_payload(got)
                seen.add(got[:8])
                reads += 1
            errors = [p.communicate(timeout=60)[1] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()
            p.stderr.close()
    assert [p.returncode for p in procs] == [0] * writers, errors
    assert errors == [""] * writers
    final = cache.get("shared")
    assert is_written_payload(final) and struct.unpack_from("<I", final)[0] < writers
    assert os.listdir(cache.path) == ["shared.lzc"]   # no temporary files left
    assert reads > 0
