"""Stream compaction (the ``compact`` primitive) as two parallel LLVM kernels.

``compact(values, keep)`` moves the rows where ``keep`` is true to the front, in order,
and zeroes the rest.  The fused-loop kernel IR has no scan, so this is written directly as
LLVM IR, compiled once per process and item size (``compiled``: about 60 ms of O3 that
programs then share), as a chunked two-pass scan:

1. ``<name>.count``: each chunk of ``chunk`` rows counts its kept rows (parallel over
   chunks; the loop vectorizes).
2. ``<name>.scatter``: each chunk finds its output offset (the exclusive prefix sum of the
   counts before it: a few hundred adds), copies its kept rows there in order, and zeroes
   the rows of the padding that fall inside its own range, so every thread writes a
   disjoint part of the output.

Rows of one element are copied branch-free: every element is stored at the next free
slot and the slot only advances past a kept one; once a chunk's last kept row is placed,
the remaining stores go to a scratch slot (never into a neighbour's range).  Longer rows
branch per row and copy element by element.  Values move as integers of their item size:
bit-exact for every dtype (NaN payloads, -0.0).

Both functions take the kernels' calling convention ``(buffers, sizes, strides, start,
stop)`` over chunks ``[start, stop)``; ``buffers`` holds pointers to values, keep, out, the
int64 chunk counts and an int64 parameter block ``(rows, row_len, chunk, chunks)``.
"""
from __future__ import annotations

import ctypes
import functools

import numpy as np

from .. import buffer_pool
from . import codegen, jit, workers

# Rows per chunk at least (small arrays stay one chunk on one thread) and the most chunks
# (the offset loop in each chunk is linear in the chunk's index).
MIN_CHUNK = 1 << 14
MAX_CHUNKS = 256

_INT = {1: "i8", 2: "i16", 4: "i32", 8: "i64"}
_HEADER = ("define void @{name}(ptr %buffers, ptr %sizes, ptr %strides, i64 %start, "
           "i64 %stop) #1 {{")


def supports(dtype: np.dtype) -> bool:
    return np.dtype(dtype).itemsize in _INT


# The end of both functions' loop over chunks: the next chunk, or return.
_NEXT_CHUNK = ("  %c.next = add i64 %c, 1", "  br label %chunks", "exit:", "  ret void", "}")


def _prologue(lines, pointers, params):
    for i, p in pointers:
        lines += [f"  %{p}.at = getelementptr inbounds ptr, ptr %buffers, i64 {i}",
                  f"  %{p} = load ptr, ptr %{p}.at"]
    lines += ["  %params.at = getelementptr inbounds ptr, ptr %buffers, i64 4",
              "  %params = load ptr, ptr %params.at"]
    for i, p in params:
        lines += [f"  %{p}.at = getelementptr inbounds i64, ptr %params, i64 {i}",
                  f"  %{p} = load i64, ptr %{p}.at"]


def _chunk_bounds(lines):
    lines += ["  %lo = mul i64 %c, %chunk", "  %hi.raw = add i64 %lo, %chunk",
              "  %hi = call i64 @llvm.smin.i64(i64 %hi.raw, i64 %n)"]


def count_function(name: str) -> str:
    """``counts[c] = number of kept rows in chunk c`` for c in [start, stop)."""
    lines = [_HEADER.format(name=f"{name}.count"), "entry:"]
    _prologue(lines, [(1, "keep"), (3, "counts")], [(0, "n"), (2, "chunk")])
    lines += [
        "  br label %chunks",
        "chunks:",
        "  %c = phi i64 [%start, %entry], [%c.next, %done]",
        "  %more = icmp slt i64 %c, %stop",
        "  br i1 %more, label %body, label %exit",
        "body:"]
    _chunk_bounds(lines)
    lines += [
        "  br label %rows",
        "rows:",
        "  %i = phi i64 [%lo, %body], [%i.next, %row]",
        "  %acc = phi i64 [0, %body], [%acc.next, %row]",
        "  %in = icmp slt i64 %i, %hi",
        "  br i1 %in, label %row, label %done",
        "row:",
        "  %k.at = getelementptr inbounds i8, ptr %keep, i64 %i",
        "  %k = load i8, ptr %k.at",
        "  %kept = icmp ne i8 %k, 0",
        "  %one = zext i1 %kept to i64",
        "  %acc.next = add i64 %acc, %one",
        "  %i.next = add i64 %i, 1",
        "  br label %rows",
        "done:",
        "  %count.at = getelementptr inbounds i64, ptr %counts, i64 %c",
        "  store i64 %acc, ptr %count.at",
        *_NEXT_CHUNK]
    return "\n".join(lines)


def _sum_counts(lines, label, upto, result, after):
    """``result = counts[0] + ... + counts[upto - 1]``; continues at block ``after``."""
    lines += [
        f"  br label %{label}",
        f"{label}:",
        f"  %{label}.j = phi i64 [0, %{label}.from], [%{label}.j.next, %{label}.add]",
        f"  %{result} = phi i64 [0, %{label}.from], [%{result}.next, %{label}.add]",
        f"  %{label}.in = icmp slt i64 %{label}.j, %{upto}",
        f"  br i1 %{label}.in, label %{label}.add, label %{after}",
        f"{label}.add:",
        f"  %{label}.at = getelementptr inbounds i64, ptr %counts, i64 %{label}.j",
        f"  %{label}.v = load i64, ptr %{label}.at",
        f"  %{result}.next = add i64 %{result}, %{label}.v",
        f"  %{label}.j.next = add i64 %{label}.j, 1",
        f"  br label %{label}"]


def scatter_function(name: str, itemsize: int) -> str:
    """Copy each chunk's kept rows to its offset; zero the padding rows in its range."""
    t = _INT[itemsize]
    lines = [_HEADER.format(name=f"{name}.scatter"), "entry:",
             f"  %scratch = alloca {t}"]
    _prologue(lines, [(0, "values"), (1, "keep"), (2, "out"), (3, "counts")],
              [(0, "n"), (1, "row_len"), (2, "chunk"), (3, "nchunks")])
    lines += ["  %single = icmp eq i64 %row_len, 1", "  br label %total.from", "total.from:"]
    _sum_counts(lines, "total", "nchunks", "kept_total", "chunks")
    lines += [
        "chunks:",
        "  %c = phi i64 [%start, %total], [%c.next, %zeroed]",
        "  %more = icmp slt i64 %c, %stop",
        "  br i1 %more, label %offset.from, label %exit",
        "offset.from:"]
    _sum_counts(lines, "offset", "c", "off", "body")
    lines += ["body:"]
    _chunk_bounds(lines)
    lines += [
        "  %own.at = getelementptr inbounds i64, ptr %counts, i64 %c",
        "  %own = load i64, ptr %own.at",
        "  %end = add i64 %off, %own",
        "  br i1 %single, label %s.rows, label %m.rows",
        # one element per row: branch-free
        "s.rows:",
        "  %s.i = phi i64 [%lo, %body], [%s.i.next, %s.row]",
        "  %s.slot = phi i64 [%off, %body], [%s.slot.next, %s.row]",
        "  %s.in = icmp slt i64 %s.i, %hi",
        "  br i1 %s.in, label %s.row, label %zero.from",
        "s.row:",
        "  %s.k.at = getelementptr inbounds i8, ptr %keep, i64 %s.i",
        "  %s.k = load i8, ptr %s.k.at",
        "  %s.kept = icmp ne i8 %s.k, 0",
        f"  %s.v.at = getelementptr inbounds {t}, ptr %values, i64 %s.i",
        f"  %s.v = load {t}, ptr %s.v.at",
        "  %s.free = icmp slt i64 %s.slot, %end",
        f"  %s.dst = getelementptr inbounds {t}, ptr %out, i64 %s.slot",
        "  %s.to = select i1 %s.free, ptr %s.dst, ptr %scratch",
        f"  store {t} %s.v, ptr %s.to",
        "  %s.one = zext i1 %s.kept to i64",
        "  %s.slot.next = add i64 %s.slot, %s.one",
        "  %s.i.next = add i64 %s.i, 1",
        "  br label %s.rows",
        # longer rows: copy the kept ones element by element
        "m.rows:",
        "  %m.i = phi i64 [%lo, %body], [%m.i.next, %m.next]",
        "  %m.slot = phi i64 [%off, %body], [%m.slot.next, %m.next]",
        "  %m.in = icmp slt i64 %m.i, %hi",
        "  br i1 %m.in, label %m.row, label %zero.from",
        "m.row:",
        "  %m.k.at = getelementptr inbounds i8, ptr %keep, i64 %m.i",
        "  %m.k = load i8, ptr %m.k.at",
        "  %m.kept = icmp ne i8 %m.k, 0",
        "  %m.src = mul i64 %m.i, %row_len",
        "  %m.dst = mul i64 %m.slot, %row_len",
        "  br i1 %m.kept, label %m.copy, label %m.next",
        "m.copy:",
        "  %m.e = phi i64 [0, %m.row], [%m.e.next, %m.copy]",
        "  %m.from = add i64 %m.src, %m.e",
        "  %m.to = add i64 %m.dst, %m.e",
        f"  %m.v.at = getelementptr inbounds {t}, ptr %values, i64 %m.from",
        f"  %m.v = load {t}, ptr %m.v.at",
        f"  %m.o.at = getelementptr inbounds {t}, ptr %out, i64 %m.to",
        f"  store {t} %m.v, ptr %m.o.at",
        "  %m.e.next = add i64 %m.e, 1",
        "  %m.e.more = icmp slt i64 %m.e.next, %row_len",
        "  br i1 %m.e.more, label %m.copy, label %m.next",
        "m.next:",
        "  %m.one = zext i1 %m.kept to i64",
        "  %m.slot.next = add i64 %m.slot, %m.one",
        "  %m.i.next = add i64 %m.i, 1",
        "  br label %m.rows",
        # the padding rows [max(lo, total), hi) of this chunk's range
        "zero.from:",
        "  %z.lo.row = call i64 @llvm.smax.i64(i64 %lo, i64 %kept_total)",
        "  %z.lo = mul i64 %z.lo.row, %row_len",
        "  %z.hi = mul i64 %hi, %row_len",
        "  br label %zero",
        "zero:",
        "  %z.e = phi i64 [%z.lo, %zero.from], [%z.e.next, %zero.one]",
        "  %z.in = icmp slt i64 %z.e, %z.hi",
        "  br i1 %z.in, label %zero.one, label %zeroed",
        "zero.one:",
        f"  %z.at = getelementptr inbounds {t}, ptr %out, i64 %z.e",
        f"  store {t} 0, ptr %z.at",
        "  %z.e.next = add i64 %z.e, 1",
        "  br label %zero",
        "zeroed:",
        *_NEXT_CHUNK]
    return "\n".join(lines)


DECLARATIONS = ("declare i64 @llvm.smin.i64(i64, i64) #0", "declare i64 @llvm.smax.i64(i64, i64) #0")


def functions(name: str, itemsize: int) -> tuple:
    """(LLVM IR text of both functions, the function names)."""
    text = count_function(name) + "\n\n" + scatter_function(name, itemsize)
    return text, (f"{name}.count", f"{name}.scatter")


_SIGNATURE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                              ctypes.c_int64, ctypes.c_int64)


@functools.lru_cache(maxsize=None)
def _machine(itemsize: int):
    text, names = functions(f"compact{itemsize}", itemsize)
    tm = jit.target_machine()
    module = codegen.module_text([], None, tm.triple, str(tm.target_data), [text], DECLARATIONS)
    _, obj = jit.compile_module(module)
    machine = jit.load_object(obj, names)
    return machine, tuple(_SIGNATURE(machine.addresses[name]) for name in names)


def compiled(itemsize: int) -> tuple:
    """The (count, scatter) entry points for items of ``itemsize`` bytes (compiled once)."""
    return _machine(itemsize)[1]


def run(count_fn, scatter_fn, values: np.ndarray, keep: np.ndarray, shape) -> np.ndarray:
    """Compact ``values`` (rows along axis 0) by ``keep`` into a fresh padded array."""
    out = buffer_pool.empty(shape, values.dtype)
    n = int(keep.shape[0])
    if n == 0 or out.size == 0:
        return out
    values = np.ascontiguousarray(values)
    keep = np.ascontiguousarray(keep)
    chunk = max(MIN_CHUNK, -(-n // MAX_CHUNKS))
    chunks = -(-n // chunk)
    counts = np.empty(chunks, dtype=np.int64)
    params = np.array([n, out.size // n, chunk, chunks], dtype=np.int64)
    pointers = (ctypes.c_void_p * 5)(values.ctypes.data, keep.ctypes.data, out.ctypes.data,
                                     counts.ctypes.data, params.ctypes.data)
    work = out.size
    workers.launch(count_fn, pointers, None, None, chunks, work)
    workers.launch(scatter_fn, pointers, None, None, chunks, work)
    return out
