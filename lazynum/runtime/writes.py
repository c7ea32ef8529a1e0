"""Pending writes, remembered so a failed sync can leave arrays as NumPy would.

NumPy raises at the statement whose write is bad (``x[[1, 9]] = -1``) and leaves ``x``
unchanged.  lazynum learns of the bad index only at the sync, after the program went on.
Every write records the value it replaced (``remember``); when a sync fails at a node,
each array whose pending value reaches that node goes back to its value before the first
write that reached it (``undo``): the failing write and the ones recorded after it on the
same array never happen (NumPy would not have run them), every other array keeps its
state, and the next computation is right.  Entries whose array is computed are dropped at
every sync (``prune``), so the table holds writes into pending arrays only.
"""
from __future__ import annotations

import threading
import weakref

# (target, value before the write, value after it); ``target`` is a weakref to an owner
# array or to a Storage (the value shared by views): whichever held the value when it was
# written.  Weak, so a rebound array's old storage (``f[i] = ...`` then ``f = np.where(...)``)
# does not keep its never-computed graph alive from run to run.
_pending: list = []
_lock = threading.Lock()


def remember(target, before, after) -> None:
    """Record a write of ``after`` over ``before`` into ``target`` (an array or a Storage)."""
    if after.buffer is not None:
        return
    holder = weakref.ref(target)
    with _lock:
        _pending.append((holder, before, after))


def prune() -> None:
    """Forget writes with nothing left to undo: the array died, or its value (or the
    write's) is computed.  (A write overwritten within one sync is never computed itself:
    the array's value decides, or the entry would keep the old graph alive.)"""
    with _lock:
        _pending[:] = [entry for entry in _pending if _undoable(entry)]


def _undoable(entry) -> bool:
    target = _target(entry[0])
    return target is not None and entry[2].buffer is None and _current(target).buffer is None


def undo(failed) -> None:
    """Writes whose value reaches the ``failed`` node do not happen (see module docstring)."""
    with _lock:
        entries = list(_pending)
    restored = set()
    for holder, before, after in entries:          # oldest first: the first bad write wins
        target = _target(holder)
        if target is None or id(target) in restored or not _reaches(after, failed):
            continue
        if not _reaches(_current(target), failed):
            continue                               # fully overwritten since: nothing to undo
        restored.add(id(target))
        _restore(target, before)


def _target(holder):
    return holder()


def _current(target):
    return target.node if hasattr(target, "version") else target._n()


def _restore(target, before) -> None:
    if hasattr(target, "version"):                 # a Storage: every view re-reads it
        target.node = before
        target.version += 1
    else:
        target._restore(before)


def _reaches(root, failed) -> bool:
    """Whether ``failed`` is in ``root``'s pending graph (an iterative walk)."""
    if root is failed:
        return True
    seen, stack = {id(root)}, [root]
    while stack:
        node = stack.pop()
        for arg in node.args:
            if arg is failed:
                return True
            if arg.buffer is None and id(arg) not in seen:
                seen.add(id(arg))
                stack.append(arg)
    return False
