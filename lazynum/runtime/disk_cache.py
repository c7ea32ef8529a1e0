"""A persistent, verified store for compiled artifacts (opaque bytes), one file per key.

Format: key ``k`` lives in ``<directory>/k.lzc``, a 52-byte header then the payload::

    offset 0   8 bytes   magic b"LZNCACHE"
    offset 8   uint32    format version (FORMAT_VERSION), little-endian
    offset 12  uint64    payload length n, little-endian
    offset 20  32 bytes  blake2b digest (digest_size=32) of the payload
    offset 52  n bytes   payload; the file ends exactly here

put() writes the file under a temporary name in the same directory (``.lzc-tmp-*``), fsyncs
it and renames it over the entry: a reader sees the old entry, the new one or none, never a
torn one, even with several processes writing the same key.  (The rename is not fsynced: a
power loss may lose an entry, which only costs a recompile.)

Trust model: payloads are native code loaded into the process, so whoever can plant or change
an entry can run code as the user.  The digest detects accidents (truncation, disk errors), not
malice, since anyone can compute it; trust comes from the file system.  The directory must be
owned by the user and not writable by group or others, so nobody else (root aside) can add,
rename or delete files in it.  It may be a symbolic link (say to another disk) if the link is
owned by the user and its target passes the checks; its ancestors are not checked.  Entries
must be regular files owned by the user and not writable by group or others, and are opened
without following symbolic links.  A refused directory makes the cache inert (one
RuntimeWarning); a bad entry is skipped with a RuntimeWarning, once per (file, reason).

Damage: an entry that passes the trust checks but not the integrity checks (truncated, bad
magic or version, impossible length, digest mismatch) is removed, so it costs one recompile,
not one per process.  It is removed only if the name still holds the very file that was read
(same device and inode): an entry a concurrent writer has just renamed into place stays.  An
entry refused for trust reasons (owner, mode, symbolic link, not a regular file) is left alone:
it is not known to be ours.  ``discard`` lets a caller that checks payloads further (the
compile cache) remove an entry whose payload it rejected, on the same terms.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import struct
import tempfile
import threading
import warnings
from pathlib import Path

__all__ = ["DiskCache", "default_directory", "FORMAT_VERSION", "MAGIC", "MAX_PAYLOAD"]

MAGIC = b"LZNCACHE"
FORMAT_VERSION = 1
MAX_PAYLOAD = 256 * 1024 * 1024
SUFFIX = ".lzc"
TEMP_PREFIX = ".lzc-tmp-"   # starts with '.', which no key may, so it never names an entry
_HEADER = struct.Struct("<8sIQ32s")
_KEY = re.compile(r"[0-9A-Za-z_-][0-9A-Za-z_.-]{0,199}")
# O_NONBLOCK: a FIFO planted under an entry's name must not hang get() in open()
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)

_warned: set[tuple[str, str]] = set()
_warned_lock = threading.Lock()


def _warn_once(path, reason: str, stacklevel: int = 4) -> None:
    """Warn about `path` unless this process already did for the same reason."""
    with _warned_lock:
        if (str(path), reason) in _warned:
            return
        _warned.add((str(path), reason))
    # the default stacklevel points at the caller of the public method (public -> helper -> us)
    warnings.warn(f"lazynum disk cache: {path}: {reason}", RuntimeWarning, stacklevel=stacklevel)


def _entry_name(key) -> str:
    """The file name for `key`; ValueError for anything that could leave the directory."""
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise ValueError(f"invalid disk cache key {key!r}: expected 1 to 200 characters from "
                         "[0-9A-Za-z_.-], not starting with '.'")
    return key + SUFFIX


def _untrusted(st: os.stat_result, uid: int) -> str | None:
    """Why a file or directory with status `st` cannot be trusted, or None."""
    if st.st_uid != uid:
        return f"owned by uid {st.st_uid}, not by the current user (uid {uid})"
    if st.st_mode & 0o022:
        return f"writable by group or others (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def _directory_problem(path: str) -> str | None:
    """Create `path` if missing; return why it is unsafe as a cache directory, or None."""
    if not hasattr(os, "getuid"):
        return "cannot be checked: no file ownership on this platform"
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except FileExistsError:
        pass   # something that is not a directory is there: reported below
    except OSError as exc:
        return f"cannot be created ({exc.strerror or exc})"
    uid = os.getuid()
    try:
        link, st = os.lstat(path), os.stat(path)
    except OSError as exc:
        return f"cannot be inspected ({exc.strerror or exc})"
    if stat.S_ISLNK(link.st_mode) and link.st_uid != uid:
        # whoever owns the link chooses where entries are read from
        return f"is a symbolic link owned by uid {link.st_uid}, not by uid {uid}"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a directory"
    problem = _untrusted(st, uid)
    return problem and "is " + problem


def _decode(f) -> tuple[bytes | None, str | None]:
    """Read and verify an entry from binary file `f`: (payload, None) or (None, reason)."""
    header = f.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None, f"truncated header ({len(header)} of {_HEADER.size} bytes)"
    magic, version, length, digest = _HEADER.unpack(header)
    if magic != MAGIC:
        return None, "bad magic (not a lazynum cache entry)"
    if version != FORMAT_VERSION:
        return None, f"unsupported format version {version} (expected {FORMAT_VERSION})"
    if length > MAX_PAYLOAD:   # checked before reading, so a bad header cannot exhaust memory
        return None, f"declared payload of {length} bytes exceeds the {MAX_PAYLOAD} byte limit"
    payload = f.read(length)
    if len(payload) < length:
        return None, f"truncated payload ({len(payload)} of {length} bytes)"
    if f.read(1):
        return None, f"length mismatch (data continues after the declared {length} bytes)"
    if hashlib.blake2b(payload, digest_size=32).digest() != digest:
        return None, "digest mismatch (corrupt payload)"
    return payload, None


def _remove_if_same(path: Path, st: os.stat_result) -> bool:
    """Unlink `path` if it still names the file whose status is `st`.  (A writer renaming a
    fresh entry in between the check and the unlink loses it: one recompile, no harm.)"""
    try:
        now = os.lstat(path)
        if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            return False
        os.unlink(path)
        return True
    except OSError:
        return False


def default_directory() -> Path:
    """Return the per-user cache directory (not created here).

    Returns
    -------
    pathlib.Path
        ``$XDG_CACHE_HOME/lazynum``, or ``~/.cache/lazynum`` when ``XDG_CACHE_HOME`` is unset
        or relative (the XDG Base Directory specification says to ignore relative values).
    """
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "lazynum"


class DiskCache:
    """A directory of verified artifacts, one file per key (see the module docstring).

    Parameters
    ----------
    path : str or os.PathLike
        The directory; created with mode 0o700 (and parents) if missing.  It is refused, with
        one RuntimeWarning, unless it is owned by the current user and group and others
        cannot write to it.
    log : callable, optional
        Called with a message for every entry that ``get`` refuses or rejects (each time,
        where the RuntimeWarning comes once per file and reason).

    Attributes
    ----------
    path : pathlib.Path
        The directory, made absolute.
    usable : bool
        False when the directory was refused; the cache then never touches the disk.
    refused_reason : str or None
        Why it was refused, or None.
    """

    def __init__(self, path, log=None):
        self.path = Path(os.path.abspath(os.fspath(path)))
        self._log = log
        self.refused_reason = _directory_problem(str(self.path))
        self.usable = self.refused_reason is None
        if not self.usable:
            _warn_once(self.path, f"directory refused: it {self.refused_reason}", stacklevel=3)

    def __repr__(self):
        state = "usable" if self.usable else f"refused: {self.refused_reason}"
        return f"DiskCache({str(self.path)!r}, {state})"

    def get(self, key: str) -> bytes | None:
        """Return the payload stored under `key`, or None.

        Parameters
        ----------
        key : str
            1 to 200 characters from ``[0-9A-Za-z_.-]``, not starting with '.'; any other
            value raises ValueError.

        Returns
        -------
        bytes or None
            None when absent (silently) or unsafe or damaged (RuntimeWarning); never raises.
        """
        path = self.path / _entry_name(key)
        return self._read(path) if self.usable else None

    def _read(self, path: Path) -> bytes | None:
        try:
            fd = os.open(path, _OPEN_FLAGS)
        except FileNotFoundError:
            return None
        except OSError as exc:
            self._reject(path, "is a symbolic link (refused)" if os.path.islink(path)
                         else f"cannot be opened ({exc.strerror or exc})")
            return None
        damaged = None   # the status of a trusted file whose contents failed the checks
        try:
            st = os.fstat(fd)   # check the opened file itself: no race with a swap
            if not stat.S_ISREG(st.st_mode):
                payload, reason = None, "entry is not a regular file"
            elif problem := _untrusted(st, os.getuid()):
                payload, reason = None, "entry is " + problem
            else:
                with os.fdopen(fd, "rb", closefd=False) as f:
                    payload, reason = _decode(f)
                damaged = st if reason is not None else None
        except OSError as exc:
            payload, reason = None, f"cannot be read ({exc.strerror or exc})"
        finally:
            os.close(fd)
        if reason is not None:
            if damaged is not None and _remove_if_same(path, damaged):
                reason += "; removed"
            self._reject(path, reason)
        return payload

    def _reject(self, path: Path, reason: str) -> None:
        if self._log is not None:
            self._log(f"{path}: {reason}")
        _warn_once(path, reason, stacklevel=5)

    def discard(self, key: str, payload: bytes) -> bool:
        """Remove the entry under `key` if it still holds `payload` (one the caller rejected).

        Parameters
        ----------
        key : str
            As for :meth:`get` (ValueError if invalid).
        payload : bytes
            What :meth:`get` returned.  An entry holding anything else (a concurrent writer's
            replacement) or failing the trust checks stays.

        Returns
        -------
        bool
            True when the entry was removed.
        """
        path = self.path / _entry_name(key)
        if not self.usable:
            return False
        try:
            fd = os.open(path, _OPEN_FLAGS)
        except OSError:
            return False
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or _untrusted(st, os.getuid()):
                return False
            with os.fdopen(fd, "rb", closefd=False) as f:
                stored, _ = _decode(f)
        except OSError:
            return False
        finally:
            os.close(fd)
        return stored == payload and _remove_if_same(path, st)

    def put(self, key: str, payload: bytes) -> bool:
        """Store `payload` under `key`, atomically replacing any previous entry.

        Parameters
        ----------
        key : str
            As for :meth:`get` (ValueError if invalid).
        payload : bytes
            At most ``MAX_PAYLOAD`` (256 MiB); any C-contiguous bytes-like object (else
            TypeError).

        Returns
        -------
        bool
            True when stored.  False if the directory was refused, or with a RuntimeWarning
            if the payload is too large or writing failed (nothing raised, nothing left over).
        """
        path = self.path / _entry_name(key)
        data = memoryview(payload).cast("B")
        return self._write(path, data) if self.usable else False

    def _write(self, path: Path, data: memoryview) -> bool:
        if data.nbytes > MAX_PAYLOAD:
            _warn_once(path, f"payload of {data.nbytes} bytes exceeds the {MAX_PAYLOAD} byte "
                             "limit; not stored")
            return False
        digest = hashlib.blake2b(data, digest_size=32).digest()
        temp = None
        try:
            # a fresh name created with O_EXCL and mode 0o600: never a file someone planted
            fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=self.path)
            with os.fdopen(fd, "wb") as f:
                f.write(_HEADER.pack(MAGIC, FORMAT_VERSION, data.nbytes, digest))
                f.write(data)
                f.flush()
                # the data must be on disk before the rename publishes it, or a crash could
                # leave the entry's name on an empty or partial file
                os.fsync(f.fileno())
            os.replace(temp, path)
            temp = None
            return True
        except OSError as exc:
            _warn_once(path, f"cannot be written ({exc.strerror or exc})")
            return False
        finally:
            if temp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temp)

    def _names(self, temporary: bool = False) -> list[str]:
        """Entry file names (and leftover temporary files if asked) in the directory."""
        if not self.usable:
            return []
        try:
            names = os.listdir(self.path)
        except OSError as exc:
            _warn_once(self.path, f"cannot be listed ({exc.strerror or exc})")
            return []
        return [n for n in names if (n.endswith(SUFFIX) and _KEY.fullmatch(n[:-len(SUFFIX)]))
                or (temporary and n.startswith(TEMP_PREFIX))]

    def entries(self) -> list[str]:
        """Return the sorted keys that have an entry file (not verified; [] if refused)."""
        return sorted(n[:-len(SUFFIX)] for n in self._names())

    def clear(self) -> int:
        """Remove entry files and leftover temporary files, and return how many were removed.

        Other files are left alone.  A concurrent ``put`` may fail (False), never corrupt.
        """
        removed = 0
        for name in self._names(temporary=True):
            try:
                os.unlink(self.path / name)
                removed += 1
            except FileNotFoundError:
                pass
            except OSError as exc:
                _warn_once(self.path / name, f"cannot be removed ({exc.strerror or exc})", 3)
        return removed
