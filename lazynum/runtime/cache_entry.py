"""The compile cache's entry format on disk, and its verification before anything is loaded.

An entry's payload (``DiskCache`` adds its own header, length and digest around it) is one
line of JSON, then the backend's program bytes (``Program.to_bytes()``)::

    {"format": FORMAT,
     "key": {"format", "lazynum", "source", "backend", "artifact", "signature"},
     "n_symbols": int, "shape_fn": str,
     "program_length": int, "program_blake2b": hex digest of the program bytes,
     "header_blake2b": hex digest of the other fields (JSON, sorted keys)}
    <program bytes>

``key`` holds the full key the entry was stored under: the entry format, lazynum's version
and a digest of its source, the backend, the backend's artifact tag (code generator version,
and for llvm the LLVM version, CPU and CPU features), and the graph's whole canonical
signature (``repr(Signature.key)``, not a digest of it).  The file name is a digest of it.

``decode`` checks, in order, before the program bytes reach the backend: the header line is
a JSON object of this format; its own digest matches (so the shape function, symbol count and
recorded program length and digest are as written); every key field equals the one looked up
(another program's entry under this name, or one from another lazynum, code generator or
toolchain, is refused with the field named); the program's length and blake2b digest equal
the recorded ones.  Anything else raises ``Rejected`` with the reason.
"""
from __future__ import annotations

import hashlib
import json

__all__ = ["FORMAT", "Rejected", "decode", "encode", "header", "key_fields", "name"]

FORMAT = "lazynum-program-2"
# key field -> what differs when it does (signature: handled apart, it is not a version)
_KEY_FIELDS = {"format": "entry format", "lazynum": "lazynum version",
               "source": "lazynum source", "backend": "backend",
               "artifact": "code generator or toolchain", "signature": None}
_SEAL = "header_blake2b"


class Rejected(Exception):
    """Why a stored entry cannot be used (the message is the reason)."""


def key_fields(version: str, source: str, backend: str, artifact: str, signature: str) -> dict:
    """The full key of a program: every field an entry must match to be loaded."""
    return {"format": FORMAT, "lazynum": version, "source": source, "backend": backend,
            "artifact": artifact, "signature": signature}


def name(fields: dict) -> str:
    """The entry's name in the cache directory: the backend and a digest of the full key."""
    text = json.dumps(fields, sort_keys=True).encode()
    return f"{fields['backend']}-{hashlib.blake2b(text, digest_size=20).hexdigest()}"


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=32).hexdigest()


def _sealed_text(meta: dict) -> bytes:
    return json.dumps({k: v for k, v in meta.items() if k != _SEAL}, sort_keys=True).encode()


def header(meta: dict, program: bytes) -> bytes:
    """The header line for `meta` (key, shape function...) recording `program`'s length and
    digest, sealed by a digest of its own fields (no newline in it: JSON escapes them)."""
    meta = dict(meta, program_length=len(program), program_blake2b=_digest(program))
    meta[_SEAL] = _digest(_sealed_text(meta))
    return json.dumps(meta, sort_keys=True).encode()


def encode(fields: dict, n_symbols: int, shape_fn: str, program: bytes) -> bytes:
    """The payload of an entry: the header line, then the program bytes."""
    meta = {"format": FORMAT, "key": fields, "n_symbols": n_symbols, "shape_fn": shape_fn}
    return header(meta, program) + b"\n" + program


def decode(data: bytes, fields: dict, n_symbols: int) -> tuple[dict, bytes]:
    """Verify the payload `data` found under `fields`' name: (header, program bytes).

    Raises
    ------
    Rejected
        With the first check that failed (see the module docstring).
    """
    head, newline, program = data.partition(b"\n")
    if not newline:
        raise Rejected("no header line (not a lazynum compile-cache entry)")
    try:
        meta = json.loads(head)
    except (ValueError, RecursionError):   # UnicodeDecodeError is a ValueError
        raise Rejected("header is not JSON (corrupt or not a lazynum entry)") from None
    if type(meta) is not dict:
        raise Rejected("header is not a JSON object (not a lazynum entry)")
    if meta.get("format") != FORMAT:
        raise Rejected(f"entry format {_short(meta.get('format'))}, expected {FORMAT!r}")
    try:
        sealed = _digest(_sealed_text(meta))
    except (ValueError, RecursionError):
        sealed = None
    if meta.get(_SEAL) != sealed or sealed is None:
        raise Rejected("header digest mismatch (corrupt header)")
    _check_key(meta.get("key"), fields)
    if meta.get("program_length") != len(program):
        raise Rejected(f"program of {len(program)} bytes, the header records "
                       f"{_short(meta.get('program_length'))} (truncated or extended)")
    if meta.get("program_blake2b") != _digest(program):
        raise Rejected("program digest mismatch (corrupt program)")
    if meta.get("n_symbols") != n_symbols or type(meta.get("shape_fn")) is not str:
        raise Rejected("shape function does not fit the program looked up")
    return meta, program


def _check_key(stored, fields: dict) -> None:
    if type(stored) is not dict:
        raise Rejected("header records no key")
    for field, what in _KEY_FIELDS.items():
        if stored.get(field) == fields[field]:
            continue
        if what is None:
            raise Rejected("stored for another program (the signature it records is not the "
                           "one looked up: a copied or renamed entry)")
        raise Rejected(f"written for another {what}: {_short(stored.get(field))} "
                       f"(this process: {_short(fields[field])})")
    if len(stored) != len(fields):
        raise Rejected(f"key fields {sorted(stored)}, expected {sorted(fields)}")


def _short(value, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
