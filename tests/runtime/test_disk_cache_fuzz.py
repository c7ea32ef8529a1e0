"""Compile-cache entries on disk that are damaged or belong elsewhere: never crash, never run.

The risky loads (object code that LLVM would be handed) run in a child process where a
crash would only fail the test; the in-process fuzz proves that LLVM never sees bytes other
than the object code the entry was written with.
"""
import json
import os
import struct
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import lazynum as lnp
from lazynum.backends.llvm import kernel_cache
from lazynum.runtime import cache_entry, compile_cache
from lazynum.runtime.disk_cache import FORMAT_VERSION, MAX_PAYLOAD, DiskCache

X = np.linspace(-2.0, 3.0, 37)


def program_a(xp, x):
    return xp.sin(x) + x


def program_b(xp, x):
    return xp.cos(x) * x


def evaluate(program):
    """Run `program` from a cold memory cache, check its values; (compiles, disk hits)."""
    compile_cache.clear_memory()
    lnp.reset_metrics()
    got = np.asarray(program(lnp, lnp.asarray(X)))
    np.testing.assert_allclose(got, program(np, X), rtol=1e-13, atol=1e-15)
    assert got.dtype == np.float64 and got.shape == X.shape
    metrics = lnp.metrics()
    return metrics["compiles"], metrics["cache_hits_disk"]


def entry_files(directory):
    """Program entries (kernel template entries, ``<backend>-kernel-*``, are verified by the
    same code; these tests damage programs)."""
    return sorted(p for p in directory.iterdir() if p.suffix == ".lzc" and "-kernel-" not in p.name)


@pytest.fixture
def cache_dir(tmp_path):
    directory = tmp_path / "cache"
    with lnp.config(cache_dir=str(directory)):
        yield directory
    compile_cache.clear_memory()


# -- regression: another program's entry under this program's name ------------------------

def test_an_entry_copied_under_another_programs_name_is_replaced_not_run(cache_dir):
    assert evaluate(program_a) == (1, 0)
    (a_file,) = entry_files(cache_dir)
    assert evaluate(program_b) == (1, 0)
    (b_file,) = set(entry_files(cache_dir)) - {a_file}
    a_bytes = a_file.read_bytes()
    b_file.write_bytes(a_bytes)     # a valid entry, of program a, under b's name
    with pytest.warns(RuntimeWarning, match="stored for another program") as record:
        assert evaluate(program_b) == (1, 0)
    assert b_file.name in str(record[0].message)
    assert b_file.read_bytes() != a_bytes          # replaced by b's own program
    assert evaluate(program_b) == (0, 1)
    assert evaluate(program_a) == (0, 1) and a_file.read_bytes() == a_bytes


# -- regression: truncated program bytes behind valid digests (a segfault on llvm) ----------

CHILD = textwrap.dedent("""
    import json, sys, warnings
    import numpy as np
    import lazynum as lnp
    warnings.simplefilter("always")
    x = np.linspace(-2.0, 3.0, 37)
    got = np.asarray(lnp.sin(lnp.asarray(x)) + lnp.asarray(x))
    m = lnp.metrics()
    print(json.dumps({"error": float(np.abs(got - (np.sin(x) + x)).max()),
                      "compiles": m["compiles"], "disk_hits": m["cache_hits_disk"]}))
""")


def run_child(cache_dir, backend):
    env = dict(os.environ, LAZYNUM_CACHE_DIR=str(cache_dir), LAZYNUM_BACKEND=backend,
               LAZYNUM_LOGS="cache")
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, f"child died with {done.returncode}: {done.stderr[-2000:]}"
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["error"] < 1e-12
    return result, done.stderr


def program_bytes_end(program: bytes, backend: str) -> int:
    """Where the part worth truncating starts: the object code on llvm (after the metadata
    pickle), the step list on numpy (the whole program is JSON)."""
    if backend == "llvm":
        return 16 + int.from_bytes(program[8:16], "little")
    return 0


def rewrite_entry(path, change_program, seal_header: bool):
    """Replace the program bytes of the entry at `path` by `change_program(program)` and seal
    the file again (its digest is valid).  `seal_header` also makes the entry's header agree
    with the new program, so only the backend's own check of the program is left."""
    cache = DiskCache(path.parent)
    data = cache.get(path.stem)
    head, _, program = data.partition(b"\n")
    program = change_program(program)
    if seal_header:
        head = cache_entry.header(json.loads(head), program)
    assert cache.put(path.stem, head + b"\n" + program)


@pytest.mark.parametrize("seal_header", [False, True], ids=["header-intact", "header-resealed"])
def test_truncated_program_behind_valid_digests_is_recompiled_without_crashing(
        tmp_path, backend, seal_header):
    first, _ = run_child(tmp_path, backend)
    assert (first["compiles"], first["disk_hits"]) == (1, 0)
    (entry,) = entry_files(tmp_path)

    def truncate(program):
        start = program_bytes_end(program, backend)
        return program[:start + (len(program) - start) // 2]
    rewrite_entry(entry, truncate, seal_header)
    damaged = entry.read_bytes()
    second, stderr = run_child(tmp_path, backend)
    assert second["compiles"] == 1 and second["disk_hits"] == 0
    assert "ignoring unusable compile-cache entry" in stderr and entry.name in stderr
    assert "[lazynum:cache]" in stderr          # LAZYNUM_LOGS=cache names it too
    assert entry.read_bytes() != damaged        # rewritten by the recompile
    third, _ = run_child(tmp_path, backend)
    assert (third["compiles"], third["disk_hits"]) == (0, 1)


# -- in-process fuzz of the verification ---------------------------------------------------
#
# Every entry below is damaged or foreign; each must be refused (None, the program is then
# compiled) with a log line naming it, and removed unless it is not a file.  LLVM's loader is
# replaced by a spy that only lets through the exact object code the entry was written with:
# the test fails (instead of the process crashing) if any other bytes would reach LLVM.

HEADER = 52                        # DiskCache's header: magic, version, length, digest
DIRECTORY = object()               # plant a directory where the entry file belongs


class Layout:
    """Offsets of the regions of a stored entry file (see lazynum.runtime.cache_entry)."""

    def __init__(self, raw: bytes, backend: str):
        self.raw = raw
        self.payload = raw[HEADER:]
        head, _, self.program = self.payload.partition(b"\n")
        self.head = head
        self.program_start = HEADER + len(head) + 1
        self.object_start = program_bytes_end(self.program, backend)  # within the program
        self.obj = self.program[self.object_start:] if backend == "llvm" else b""


def lengths(n: int, marks) -> list:
    """Every length class: each region boundary and its neighbours, and a sweep."""
    points = {m + d for m in marks for d in (-1, 0, 1)} | set(range(0, n, max(1, n // 48)))
    return sorted(p for p in points if 0 <= p < n)


def set_field(offset: int, fmt: str, value):
    def change(data):
        data = bytearray(data)
        struct.pack_into(fmt, data, offset, value)
        return bytes(data)
    return change


def flip(offset: int):
    def change(data):
        data = bytearray(data)
        data[offset] ^= 1 << (offset % 8)
        return bytes(data)
    return change


def file_mutations(layout: Layout, other_raw: bytes) -> list:
    n = len(layout.raw)
    marks = [0, 8, 12, 20, HEADER, layout.program_start, layout.program_start + 16,
             layout.program_start + layout.object_start, n - 64]
    out = [(f"truncated to {k}", lambda raw, k=k: raw[:k]) for k in lengths(n, marks)]
    flips = {o for m in marks + [HEADER + 10, HEADER + len(layout.head) // 2]
             for o in (m, m + 5) if 0 <= o < n} | set(range(0, n, max(1, n // 64)))
    out += [(f"bit flipped at {o}", flip(o)) for o in sorted(flips)]
    out += [(f"version {v}", set_field(8, "<I", v)) for v in (0, FORMAT_VERSION + 1, 2**32 - 1)]
    out += [(f"length {v}", set_field(12, "<Q", v))
            for v in (0, n - HEADER - 1, n - HEADER + 1, MAX_PAYLOAD + 1, 2**64 - 1)]
    out += [("empty file", lambda raw: b""), ("trailing byte", lambda raw: raw + b"\0"),
            ("another program's file", lambda raw: other_raw),
            ("a directory", lambda raw: DIRECTORY)]
    return [("file", name, change) for name, change in out]


def payload_mutations(layout: Layout, other_payload: bytes) -> list:
    n, head = len(layout.payload), len(layout.head)
    marks = [head, head + 1, head + 1 + layout.object_start]
    out = [(f"truncated to {k}", lambda p, k=k: p[:k]) for k in lengths(n, marks)]
    out += [(f"bit flipped at {o}", flip(o)) for o in range(0, n, max(1, n // 64))]
    out += [(f"header {text[:20]!r}", lambda p, text=text: text + p[head:])
            for text in (b"[]", b"{}", b"null", b"\xff\xfe", b"[" * 100_000 + b"]" * 100_000)]
    out += [("no header line", lambda p: p.replace(b"\n", b" ", 1)),
            ("another program's payload", lambda p: other_payload)]

    def rekey(field, value):
        def change(p):
            meta = json.loads(p[:head])
            if field == "format":
                meta["format"] = value
            meta["key"][field] = value
            return cache_entry.header(meta, p[head + 1:]) + p[head:]
        return change
    out += [(f"key field {field} differs", rekey(field, value)) for field, value in [
        ("format", "lazynum-program-1"), ("lazynum", "0.0.1"), ("source", "0" * 32),
        ("backend", "other"), ("artifact", "llvm-program-0|x|llvm1.0"),
        ("signature", "()")]]
    return [("payload", name, change) for name, change in out]


def object_mutations(layout: Layout) -> list:
    """Huge or dangling offsets inside the object code (llvm), the header resealed: only
    the bounds check stands between these and LLVM."""
    obj, start = layout.obj, layout.object_start
    (shoff,) = struct.unpack_from("<Q", obj, 40)
    (shnum,) = struct.unpack_from("<H", obj, 60)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + 64 * i) for i in range(shnum)]

    def at(offset, fmt, value):      # a field of the object code, as a program change
        return set_field(start + offset, fmt, value)
    out = [("object header class", at(4, "B", 1)), ("object machine", at(18, "<H", 3)),
           ("section table huge", at(40, "<Q", 2**63)),
           ("section table past end", at(40, "<Q", len(obj))),
           ("section count huge", at(60, "<H", 0xFEFF)),
           ("section name table", at(62, "<H", shnum)),
           ("metadata length huge", set_field(8, "<Q", 2**63)),
           ("metadata length past end", set_field(8, "<Q", len(layout.program)))]
    for i, (_, kind, *_rest) in enumerate(sections):
        base = shoff + 64 * i
        out += [(f"section {i} offset huge", at(base + 24, "<Q", 2**63)),
                (f"section {i} size huge", at(base + 32, "<Q", 2**63 - 1)),
                (f"section {i} link huge", at(base + 40, "<I", 2**32 - 1))]
        if kind == 2:     # the symbol table
            out += [(f"section {i} entry size 0", at(base + 56, "<Q", 0)),
                    ("symbol name huge", at(sections[i][4] + 24, "<I", 2**32 - 1)),
                    ("symbol section huge", at(sections[i][4] + 24 + 6, "<H", 0xFEFF))]
        if kind == 4:     # relocations
            rela = sections[i][4]
            out += [(f"relocation offset huge in {i}", at(rela, "<Q", 2**63)),
                    (f"relocation symbol huge in {i}", at(rela + 12, "<I", 2**32 - 1))]
    return out


def program_mutations(layout: Layout, backend: str) -> list:
    n = len(layout.program)
    out = [(f"program truncated to {k}", lambda p, k=k: p[:k])
           for k in lengths(n, [8, 16, layout.object_start, layout.object_start + 64])]
    if backend == "llvm":
        out += object_mutations(layout)
    return [("program", name, change) for name, change in out]


def spy_on_llvm(monkeypatch, known):
    """Replace LLVM's loader: the `known` object code goes through, anything else is recorded
    (and refused, so it never reaches LLVM).  Returns the lists of seen and unverified code."""
    from lazynum.backends.llvm import jit
    seen, unverified = [], []
    real_link = jit._link

    def link(obj, names):
        seen.append(obj)
        if bytes(obj) not in known:
            unverified.append(bytes(obj))
            raise RuntimeError("unverified object code reached LLVM's loader")
        return real_link(obj, names)
    monkeypatch.setattr(jit, "_link", link)
    return seen, unverified


def stored_entries(cache_dir, monkeypatch):
    """Store programs a and b; return their files and how to look a up again."""
    lookups = []
    real = compile_cache._from_disk

    def recording(backend_module, sig):
        lookups.append((backend_module, sig))
        return real(backend_module, sig)
    monkeypatch.setattr(compile_cache, "_from_disk", recording)
    assert evaluate(program_a) == (1, 0)
    (a_file,) = entry_files(cache_dir)
    assert evaluate(program_b) == (1, 0)
    (b_file,) = set(entry_files(cache_dir)) - {a_file}
    monkeypatch.setattr(compile_cache, "_from_disk", real)
    backend_module, sig = lookups[0]
    return a_file, b_file, lambda: real(backend_module, sig)


def plant(path, data):
    if path.is_dir():
        path.rmdir()
    elif path.exists():
        path.unlink()
    if data is DIRECTORY:
        path.mkdir()
    else:
        path.write_bytes(data)
        path.chmod(0o600)


def apply(path, layout: Layout, category: str, change):
    cache = DiskCache(path.parent)
    if category == "file":
        plant(path, change(layout.raw))
    elif category == "payload":
        plant(path, layout.raw)
        assert cache.put(path.stem, change(layout.payload))
    else:
        program = change(layout.program)
        head = cache_entry.header(json.loads(layout.head), program)
        plant(path, layout.raw)
        assert cache.put(path.stem, head + b"\n" + program)


def test_no_damaged_or_foreign_entry_is_loaded_or_reaches_llvm(
        cache_dir, backend, monkeypatch, capsys):
    a_file, b_file, load_a = stored_entries(cache_dir, monkeypatch)
    layout = Layout(a_file.read_bytes(), backend)
    seen, unverified = spy_on_llvm(monkeypatch, {layout.obj})
    cases = (file_mutations(layout, b_file.read_bytes())
             + payload_mutations(layout, b_file.read_bytes()[HEADER:])
             + program_mutations(layout, backend))
    accepted, kept, silent = [], [], []
    with lnp.config(logs="cache"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # once per file and reason: see logs
        capsys.readouterr()
        for category, name, change in cases:
            apply(a_file, layout, category, change)
            kernel_cache.clear()      # as in a fresh process: the entry's own code is linked
            if load_a() is not None:
                accepted.append((category, name))
            if a_file.exists() and not a_file.is_dir():
                kept.append((category, name))
            if a_file.name not in capsys.readouterr().err:
                silent.append((category, name))
        plant(a_file, layout.raw)
        kernel_cache.clear()
        assert load_a() is not None                       # the intact entry still loads
    assert accepted == [] and kept == [] and silent == []
    assert unverified == []
    if backend == "llvm":
        assert seen and all(obj == layout.obj for obj in seen)
    assert len(cases) > 200


@pytest.mark.parametrize("category", ["file", "payload", "program"])
def test_a_rejected_entry_is_recompiled_and_rewritten(cache_dir, backend, monkeypatch, category):
    a_file, b_file, _ = stored_entries(cache_dir, monkeypatch)
    layout = Layout(a_file.read_bytes(), backend)
    apply(a_file, layout, category, lambda data: data[:len(data) - 40])
    damaged = a_file.read_bytes()
    with pytest.warns(RuntimeWarning, match=a_file.name):
        assert evaluate(program_a) == (1, 0)
    assert a_file.read_bytes() != damaged           # written again by the recompile
    assert evaluate(program_a) == (0, 1)
