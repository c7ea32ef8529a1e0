"""The record/replay compile cache: one compiled program per graph signature.

At a sync the cut's canonical ``Signature`` is its key (``lazynum.expr.signature``).
A hit does no lowering and no code generation: bind the symbols from the new trace's
sizes, evaluate the shape function, run the program.  A miss compiles (the backend's
``compile(cut)``), stores the program in memory and, when ``LAZYNUM_CACHE_DIR`` is on,
on disk (``cache_entry``: verified before anything is loaded); it is explained against the
nearest cached signature from the same sync line
(``LAZYNUM_LOGS=recompiles``), and a line that keeps compiling new programs gets one
warning naming what keeps changing.
"""
from __future__ import annotations

import collections
import hashlib
import threading
import time
import warnings

from ..control import settings as config, telemetry as metrics
from ..backends import reference
from ..compile.cut import Cut
from ..compile.shape_functions import ShapeFunction, build as build_shape_function
from ..expr.signature import DTYPE, SYM, bind, signature
from ..control.version import __version__
from . import cache_entry, tiers
from .disk_cache import DiskCache, default_directory

MEMORY_ENTRIES = 1024          # programs kept in memory (least recently used dropped)


class Entry:
    """A compiled program and the shape function that feeds it its sizes."""
    __slots__ = ("program", "shape_fn")

    def __init__(self, program, shape_fn: ShapeFunction):
        self.program = program
        self.shape_fn = shape_fn

    def sizes(self, symbols):
        return self.shape_fn(symbols)


# The in-memory tables.  Syncs use them one at a time (the runtime's sync lock); ``_lock``
# makes each step on them whole on its own too (a lookup and its LRU move, an insertion and
# its eviction, a miss's history), so a clear_memory() or a caller outside a sync can race
# nothing.  It is never held while compiling or running.
_lock = threading.Lock()
_memory: collections.OrderedDict = collections.OrderedDict()
_history: dict = {}                 # sync site -> recent signature entries compiled there
_warned_sites: set = set()
_compiled_at: collections.Counter = collections.Counter()   # programs compiled per sync line
_disk = {"dir": None, "cache": None, "source": None}


def execute(backend, order, outputs, site: str) -> list:
    """Compute ``outputs`` of the pending ``order`` through the cache; return their values."""
    start = time.perf_counter()
    sig = signature(order, outputs)
    metrics.timers["hash"] += time.perf_counter() - start
    key = (backend.NAME, sig.key)
    entry = _lookup(key) if sig.cacheable else None
    if entry is not None:
        metrics.counters["cache_hits"] += 1
        metrics.counters["cache_hits_memory"] += 1
        program = entry.program
        if type(program) is tiers.TieredProgram and program.due():     # its second run
            program.start(Cut(order, outputs, sig))
    else:
        entry = _from_disk(backend, sig) if sig.cacheable else None
        if entry is None:
            entry = _compile(backend, order, outputs, sig, site)
        _remember(key, entry, sig.cacheable)
    symbols = bind(sig, order)
    inputs = [leaf.buffer for leaf in sig.leaves]
    run_start = time.perf_counter()
    trace = Trace(order, sig)
    try:
        values = entry.program.run(inputs, entry.sizes(symbols), trace)
    except Exception as exc:
        exc.lazynum_failed_node = trace.failed
        raise
    metrics.timers["run"] += time.perf_counter() - run_start
    return values


class Trace:
    """The trace a program runs for: its pending nodes in order, its leaves and outputs.

    A program asks ``trace(j)`` for the user's line when step ``j`` fails; asking names the
    failing node, so the sync can undo the writes that reached it.  The interpreter tier
    runs the trace's nodes themselves (``reference.run_trace``) at the argument positions
    (``refs``) and outputs (``results``: step ``j`` or leaf ``-1 - i``) the signature found,
    making the attrs of ``sized_attrs`` plain.
    """
    __slots__ = ("order", "leaves", "refs", "sized_attrs", "results", "failed")

    def __init__(self, order, sig):
        self.order = order
        self.leaves = sig.leaves
        self.refs = sig.refs
        self.sized_attrs = sig.sized_attrs
        self.results = sig.key[-1][1]
        self.failed = None

    def __call__(self, j: int) -> str:
        self.failed = self.order[j]
        return self.order[j].site


class _Key:
    """A memory-cache key that hashes its (long) signature once: a lookup and its LRU move
    would hash a 100,000-entry tuple twice, and the move compares nothing (it is given the
    stored key itself)."""
    __slots__ = ("parts", "hash")

    def __init__(self, parts):
        self.parts = parts
        self.hash = hash(parts)

    def __hash__(self):
        return self.hash

    def __eq__(self, other):
        return self is other or self.parts == other.parts


def _lookup(key):
    with _lock:
        found = _memory.get(_Key(key))
        if found is None:
            return None
        stored, entry = found
        _memory.move_to_end(stored)
        return entry


def most_recent():
    """The entry of the program run last (None when the memory cache is empty)."""
    with _lock:
        return next(reversed(_memory.values()))[1] if _memory else None


def _remember(key, entry, cacheable: bool) -> None:
    if not cacheable:
        return
    with _lock:
        stored = _Key(key)
        _memory[stored] = (stored, entry)
        if len(_memory) > MEMORY_ENTRIES:
            _memory.popitem(last=False)


def _compile(backend, order, outputs, sig, site) -> Entry:
    _install_kernel_store(backend)
    start = time.perf_counter()
    metrics.counters["cache_misses"] += 1
    _explain_miss(sig, site)
    if _tiered(backend, order):
        return _tiered_entry(backend, order, sig, start)
    cut = Cut(order, outputs, sig)
    program = backend.compile(cut)
    entry = Entry(program, cut.finish())
    metrics.counters["compiles"] += 1
    metrics.timers["compile"] += time.perf_counter() - start
    if sig.cacheable:
        _to_disk(backend, sig, entry)
    return entry


def _tiered(backend, order) -> bool:
    """Whether a new program runs on the interpreter tier first (``runtime.tiers``)."""
    return (config.get().compile == "background" and hasattr(backend, "prepare")
            and not tiers.compile_first(order))


def _tiered_entry(backend, order, sig, start) -> Entry:
    """The interpreter tier now (it runs each trace's own nodes: nothing to lower); the
    compiled program from a later run on, built in the background (and stored on disk when
    it is ready).  The entry's sizes are the symbols alone: the compiled program has its own
    shape function."""
    def on_ready(program, compiled_shape_fn):
        metrics.counters["compiles"] += 1
        if sig.cacheable:
            _to_disk(backend, sig, Entry(program, compiled_shape_fn))
    keep = (lambda: disk_cache() is not None) if sig.cacheable else (lambda: False)
    entry = Entry(tiers.TieredProgram(backend, on_ready, keep, tiers.planning_cost(order)),
                  _symbols_only(len(sig.symbols)))
    metrics.timers["compile"] += time.perf_counter() - start
    return entry


_symbols_functions: dict = {}


def _symbols_only(n_symbols: int) -> ShapeFunction:
    """The shape function returning the ``n_symbols`` symbols and nothing derived."""
    function = _symbols_functions.get(n_symbols)
    if function is None:
        function = _symbols_functions[n_symbols] = build_shape_function(n_symbols, [])
    return function


# --- miss explanations and the recompile warning ----------------------------------------------

def _explain_miss(sig, site: str) -> None:
    with _lock:
        seen = list(_history.setdefault(site, collections.deque(maxlen=16)))
        anywhere = list(_history.setdefault(None, collections.deque(maxlen=16)))
        _history[site].append(sig.entries)
        _history[None].append(sig.entries)
    if seen:
        reason = explain(sig.entries, seen)
    elif anywhere:
        reason = "first compile at this line; " + explain(sig.entries, anywhere)
    else:
        reason = "first compile"
    metrics.record_recompile(site, reason)
    metrics.log("recompiles", f"compile at {site}: {reason}")
    limit = config.get().recompile_limit
    with _lock:
        _compiled_at[site] += 1
        compiled_here = _compiled_at[site]
        warn = limit and compiled_here > limit and site not in _warned_sites
        if warn:
            _warned_sites.add(site)
    if warn:
        filename, _, line = site.rpartition(":")
        warnings.warn_explicit(
            f"lazynum: the sync at {site} compiled {compiled_here} different programs; "
            f"what keeps changing: {reason}. Sizes that change between 0, 1 and larger "
            f"values, changing dtypes or ranks, or sizes made static (len(), int()) each "
            f"need a program (LAZYNUM_LOGS=recompiles shows every one).",
            RuntimeWarning, filename or site, int(line) if line.isdigit() else 0)


def explain(entries: list, candidates: list) -> str:
    """How ``entries`` differs from the nearest of ``candidates`` (both signature entries)."""
    def distance(other):
        return abs(len(other) - len(entries)) + sum(a != b for a, b in zip(entries, other))
    nearest = min(candidates, key=distance)
    if len(nearest) != len(entries):
        return (f"nearest cached program: the graph has {len(entries) - 1} inputs+ops, "
                f"the cached one {len(nearest) - 1}")
    for position, (new, old) in enumerate(zip(entries, nearest)):
        if new != old:
            return "nearest cached program: " + _describe_difference(position, new, old)
    return "same signature (the program was evicted or uncacheable)"


_FIELDS = {"leaf": ("kind", "dtype", "shape", "layout"),
           "outputs": ("kind", "outputs")}
_NODE_FIELDS = ("op", "attrs", "dtype", "shape", "args")


def _describe_difference(position, new, old) -> str:
    names = _FIELDS.get(new[0], _NODE_FIELDS)
    what = "input" if new[0] == "leaf" else f"op {new[0]!r}"
    for name, a, b in zip(names, new, old):
        if a != b:
            return f"{what} at position {position}: {name} {_show(a)} (cached: {_show(b)})"
    return f"{what} at position {position} differs"


_INFIX = {"add": "+", "sub": "-", "mul": "*", "floordiv": "//", "mod": "%"}


def _show(value) -> str:
    """Canonical forms as users read them: symbols as s0, s1[2..8], sizes as n - 2."""
    if type(value) is tuple and value and value[0] == SYM:
        name = f"s{value[1]}"
        return name if len(value) == 2 else f"{name}[{value[2]}..{value[3] or 'inf'}]"
    if type(value) is tuple and len(value) == 2 and value[0] == DTYPE:
        return value[1]
    if type(value) is tuple and len(value) == 3 and value[0] in _INFIX:
        return f"({_show(value[1])} {_INFIX[value[0]]} {_show(value[2])})"
    if type(value) is tuple and len(value) > _SHOWN_ITEMS:
        # a warning line, not a dump: a sync of 3000 outputs differs in one of them
        head = ", ".join(_show(v) for v in value[:_SHOWN_ITEMS - 2])
        tail = ", ".join(_show(v) for v in value[-2:])
        return f"({head}, ... {len(value) - _SHOWN_ITEMS} more ..., {tail})"
    if type(value) is tuple:
        return "(" + ", ".join(_show(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return getattr(value, "name", None) or str(value)


_SHOWN_ITEMS = 8        # longer tuples show their first and last items and a count


# --- the disk cache -----------------------------------------------------------------------------

def disk_cache():
    """The configured ``DiskCache`` (``LAZYNUM_CACHE_DIR``), or None when it is off or refused."""
    setting = config.get().cache_dir
    if setting in ("", "off"):
        return None
    directory = default_directory() if setting == "auto" else setting
    if _disk["dir"] != directory:
        _disk["dir"], _disk["cache"] = directory, DiskCache(directory, log=_log_rejected)
    return _disk["cache"] if _disk["cache"].usable else None


def _log_rejected(message: str) -> None:
    metrics.log("cache", f"entry {message}")


def _source_digest() -> str:
    """A digest of lazynum's own source: a program stored by other code is never loaded
    (op semantics and attr meanings change between commits, not only between versions)."""
    if _disk.get("source") is None:
        import pathlib
        package = pathlib.Path(__file__).resolve().parent.parent
        digest = hashlib.blake2b(digest_size=16)
        for path in sorted(package.rglob("*.py")):
            digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
        _disk["source"] = digest.hexdigest()
    return _disk["source"]


def _key_fields(backend, sig) -> dict:
    tag = backend.artifact_tag() if hasattr(backend, "artifact_tag") else backend.ARTIFACT_VERSION
    return cache_entry.key_fields(__version__, _source_digest(), backend.NAME, tag, repr(sig.key))


def _to_disk(backend, sig, entry) -> None:
    cache = disk_cache()
    if cache is None:
        return
    try:
        program = entry.program.to_bytes()
    except TypeError as exc:        # an attr the format cannot hold: memory-only entry
        metrics.log("cache", f"not stored on disk: {exc}")
        return
    fields = _key_fields(backend, sig)
    payload = cache_entry.encode(fields, entry.shape_fn.n_symbols, entry.shape_fn.source, program)
    if cache.put(cache_entry.name(fields), payload):
        metrics.counters["disk_writes"] += 1
        metrics.log("cache", f"stored {cache_entry.name(fields)} in {cache.path}")


class KernelStore:
    """Compiled kernel templates on disk, beside the programs (``LAZYNUM_CACHE_DIR``): the
    key is the template's full canonical text, verified like a program's before its object
    code reaches the backend (which bounds-checks it too)."""

    def __init__(self, backend):
        self.backend = backend

    def _fields(self, name: str, key_text: str) -> dict:
        tag = self.backend.artifact_tag()
        return cache_entry.key_fields(__version__, _source_digest(), f"{self.backend.NAME}-kernel",
                                      tag, f"kernel template {name}\n{key_text}")

    def load(self, name: str, key_text: str):
        cache = disk_cache()
        if cache is None:
            return None
        fields = self._fields(name, key_text)
        entry = cache_entry.name(fields)
        data = cache.get(entry)
        if data is None:
            return None
        try:
            _, obj = cache_entry.decode(data, fields, 0)
        except cache_entry.Rejected as exc:
            _reject(cache, entry, data, str(exc))
            return None
        metrics.log("cache", f"loaded kernel template {name} from {cache.path}")
        return obj

    def save(self, name: str, key_text: str, obj: bytes) -> None:
        cache = disk_cache()
        if cache is None:
            return
        fields = self._fields(name, key_text)
        if cache.put(cache_entry.name(fields), cache_entry.encode(fields, 0, "", obj)):
            metrics.counters["disk_writes"] += 1


_stores_installed: set = set()


def _install_kernel_store(backend) -> None:
    """Give a backend that caches kernel templates its disk store (once per backend)."""
    if backend.NAME not in _stores_installed and hasattr(backend, "use_kernel_store"):
        backend.use_kernel_store(KernelStore(backend))
        _stores_installed.add(backend.NAME)


def _from_disk(backend, sig):
    cache = disk_cache()
    if cache is None:
        return None
    fields = _key_fields(backend, sig)
    name = cache_entry.name(fields)
    data = cache.get(name)          # None when absent, or refused or damaged (it warned)
    if data is None:
        metrics.counters["cache_misses_disk"] += 1
        return None
    try:
        meta, program = cache_entry.decode(data, fields, len(sig.symbols))
        entry = _load(backend, meta, program)
    except cache_entry.Rejected as exc:
        _reject(cache, name, data, str(exc))
        metrics.counters["cache_misses_disk"] += 1
        return None
    metrics.counters["cache_hits"] += 1
    metrics.counters["cache_hits_disk"] += 1
    metrics.log("cache", f"loaded {name} from {cache.path}")
    return entry


def _load(backend, meta: dict, program: bytes) -> Entry:
    """Rebuild a verified entry's program and shape function; Rejected when that fails."""
    try:
        return Entry(backend.load(program), ShapeFunction(meta["shape_fn"], meta["n_symbols"]))
    except Exception as exc:  # noqa: BLE001 - whatever stored bytes make a loader raise, the
        # answer is the same: the entry is unusable and the program is compiled again
        raise cache_entry.Rejected(f"cannot be loaded ({type(exc).__name__}: {exc})") from None


def _reject(cache, name: str, data: bytes, reason: str) -> None:
    """An entry that failed verification: remove it if it is still the one read, say why."""
    path = cache.path / f"{name}.lzc"
    if cache.discard(name, data):
        reason += "; removed"
    metrics.log("cache", f"rejected {path}: {reason}")
    warnings.warn(f"lazynum: ignoring unusable compile-cache entry {path}: {reason}; the "
                  f"program is compiled again", RuntimeWarning, stacklevel=2)


def clear_memory() -> None:
    """Forget every in-memory program (tests; the disk cache is untouched)."""
    with _lock:
        _memory.clear()
        _history.clear()
        _warned_sites.clear()
        _compiled_at.clear()
