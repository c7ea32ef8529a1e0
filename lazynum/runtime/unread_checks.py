"""Run-time checks whose readers were all dropped: the next sync runs them.

NumPy raises an out-of-range ``y[5]`` at its line even when the statement's value is
discarded.  lazynum records ``take(data, check_index(5))``; if nothing reads that value
any more (no live array, no node of the sync), no sync would ever compute the check.  So
every run-time check a thread records (``expr.node``: ``TraceState.checks``) is followed
until a sync computes it:

- a check that a recorded node reads (``read_checks``, noted before each sync clears the
  intern table) and that neither the sync's cut nor a live array reaches any more is
  *dropped*: the sync runs it first, in a run of its own, and it raises once, naming its
  op and the line that recorded it;
- a check no node ever read was recorded by a call that raised before using it (a
  ufunc's TypeError after a bounded size check): NumPy raised that call's error, so the
  check is forgotten;
- a check still reached waits for the sync that computes it, as any value does.

A statement that raises at the call after reading a check (``y[-2] -= 4`` on a bounded
``y`` of one element: the read ``y[-2]`` is checked lazily, the write through the
true-size view raises NumPy's IndexError at once) reports that check's error itself:
``forget_recorded_at`` drops the checks recorded at its line, so it raises once.

A write that replaces a check's reader unread (``node.orphan_checks``) is the other way a
check is left behind; ``runtime.sync`` runs those the same way.
"""
from __future__ import annotations

from ..expr import node as node_mod


def _pending(state) -> list:
    checks = [c for c in state.checks if c.buffer is None]
    state.checks = checks
    if not checks:
        state.read_checks.clear()
    return checks


def note_readers() -> None:
    """Before a sync or flush clears the intern table: mark the pending checks a node
    recorded since the last one reads (the table holds every such pending node)."""
    state = node_mod.thread.state
    unknown = {c.id for c in _pending(state) if c.id not in state.read_checks}
    if not unknown:
        return
    for node in state.interned.values():
        for arg in node.args:
            if arg.id in unknown:
                state.read_checks.add(arg.id)


def dropped(cut, live_nodes) -> list:
    """This thread's pending checks that a recorded node read but neither ``cut`` (the
    nodes the sync computes) nor ``live_nodes()`` (what live arrays hold) reaches; the
    checks no node ever read are forgotten (see the module docstring)."""
    state = node_mod.thread.state
    checks = _pending(state)
    if not checks:
        return []
    cut_ids = {n.id for n in cut}
    outside = [c for c in checks if c.id not in cut_ids]
    if not outside:
        return []
    note_readers()
    reached = _reached(live_nodes(), min(c.id for c in outside))
    unread = [c for c in outside if c.id not in reached]
    if not unread:
        return []
    state.checks = [c for c in checks if c.id in cut_ids or c.id in reached]
    return [c for c in unread if c.id in state.read_checks]


def _reached(roots, oldest: int) -> set:
    """Ids of the pending nodes ``roots`` reach, walking only ids from ``oldest`` on (a
    node's arguments are older than it: the walk costs the nodes recorded since then)."""
    seen: set = set()
    stack = [n for n in roots if n.buffer is None and n.id >= oldest]
    while stack:
        node = stack.pop()
        if node.id in seen:
            continue
        seen.add(node.id)
        stack.extend(a for a in node.args if a.buffer is None and a.id >= oldest and a.id not in seen)
    return seen


def forget(nodes) -> None:
    """``nodes`` (checks among them) were computed by a run, or raised in one (a check
    raises once): no longer followed.  A sync realizes only its outputs, so a check it
    computed as an intermediate still reads as pending."""
    state = node_mod.thread.state
    if state.checks:
        ids = {n.id for n in nodes}
        state.checks = [c for c in state.checks if c.id not in ids]


def forget_recorded_at(site: str) -> None:
    """The statement at ``site`` (``file:line``) raised at the call: the checks it recorded
    are not run as dropped ones (a reader still computed raises as any value does)."""
    state = node_mod.thread.state
    if state.checks:
        state.checks = [c for c in state.checks if c.site != site]
