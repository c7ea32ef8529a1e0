"""NumPy's floating-point warnings at the sync: ``RuntimeWarning``, ``FloatingPointError``,
``seterrcall``'s function or log object, as each op's recorded error state says.

How a run finds its errors (the backends fill a ``RunLog``):

* NumPy's own calls (the reference backend, the interpreter tier, extern steps of
  compiled programs) run under ``numpy.errstate(all='log')`` with a collector: NumPy
  itself says, per step, which errors it met, in its own words ("divide by zero
  encountered in divide", "overflow encountered in reduce", ...).
* Compiled kernels say only *whether* an IEEE flag was raised: the llvm backend reads the
  hardware's sticky flags once per program run (and per worker slice), never per element,
  so kernels are the code they were.  Flags are a superset of NumPy's errors (padded lanes,
  speculated ops and internal steps of math functions raise them too) and name no op, so
  when one is raised that some op of the run does not ignore, the run is checked again on
  the reference backend, whose NumPy calls name each op exactly.  A run without errors
  (the common case) costs two C calls.  Integer division by zero raises no IEEE flag in a
  kernel (the kernel selects 0): a divisor that is a program input is checked for zeros on
  the host, a computed one makes the run checked again.

``settle`` then acts on each error as the op's recorded state says (``expr/fp_state``), in
the order the ops were recorded, once per op per sync as NumPy acts once per ufunc call; a
``raise`` stops there, so later ops warn nothing, and the failed sync leaves arrays as they
were (the runtime undoes the writes that reached the op).
"""
from __future__ import annotations

import sys
import warnings

import numpy as np

from ..backends import reference
from ..compile.cut import Cut
from ..expr import fp_state
from ..expr.signature import bind, signature

# Ops that never raise a floating-point error (a flag such a node's state would honour
# is no reason to check a run again).
_QUIET = frozenset({
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
    "logical_or", "logical_xor", "logical_not", "isnan", "isinf", "isfinite", "signbit",
    "negative", "positive", "absolute", "fabs", "copysign", "conjugate", "maximum",
    "minimum", "fmax", "fmin", "select", "bitwise_and", "bitwise_or", "bitwise_xor",
    "invert", "left_shift", "right_shift", "floor", "ceil", "trunc", "rint", "sign"})
_RAISING_KINDS = ("elementwise", "reduce", "scan")
_MULTI_OUTPUT = frozenset({"divmod", "modf", "frexp"})
_INT_DIVISIONS = frozenset({"floor_divide", "remainder", "fmod", "divmod"})


class _ReplaySites:
    """The ``sites`` of a checking run: the failing step's line."""
    __slots__ = ("order", "failed")

    def __init__(self, order):
        self.order, self.failed = order, None

    def __call__(self, j: int) -> str:
        self.failed = self.order[j]
        return self.order[j].site


def collecting():
    """The block around a program run: backends note its errors in the returned log."""
    return fp_state.logging_run(fp_state.RunLog())


def settle(log, order, outputs, site: str) -> None:
    """Act on the floating-point errors of the run ``log`` describes (see the module)."""
    if log.flags is None:               # NumPy's calls only: their errors are exact
        if log.events:
            report(order, log.events, fp_state.current(), site)
        return
    divisions = [node for node in order
                 if node.op.name in _INT_DIVISIONS and node.dtype.kind in "iu"]
    if not (log.flags or divisions or log.events):
        return                          # the common case: nothing raised, nothing to ask
    default = fp_state.current()
    if _needs_check(log.flags, order, divisions, default):
        log = _check_again(order, outputs)
    if log.events:
        report(order, log.events, default, site)


def _needs_check(flags: int, order, divisions, default) -> bool:
    for node in divisions:
        if fp_state.state_of(node.id, default)[0] != "ignore" and _divisor_may_be_zero(node):
            return True
    kinds = [k for k, kind in enumerate(fp_state.KINDS) if flags & fp_state.BITS[kind]]
    if not kinds:
        return False
    for node in order:
        op = node.op
        if op.kind not in _RAISING_KINDS or op.name in _QUIET:
            continue
        state = fp_state.state_of(node.id, default)
        if any(state[k] != "ignore" for k in kinds):
            return True
    return False


def _divisor_may_be_zero(node) -> bool:
    divisor = node.args[1]
    if divisor.buffer is None:
        return True         # computed in this run: only the reference run can tell
    return bool(np.any(divisor.buffer == 0))


def _check_again(order, outputs):
    """Run the trace again on the reference backend, whose NumPy calls name each error."""
    sig = signature(order, outputs)
    cut = Cut(order, outputs, sig)
    program = reference.compile(cut)
    inputs = [leaf.buffer for leaf in sig.leaves]
    with collecting() as log:
        program.run(inputs, cut.finish()(bind(sig, order)), _ReplaySites(order))
    return log


def report(order, events, default, site: str) -> None:
    """Warn, raise, call or log each error of ``events`` [(step, NumPy log lines)] as
    its op's recorded state says, in the order the ops were recorded."""
    calls = set()
    for j, lines in sorted(events, key=lambda event: order[event[0]].id):
        node = order[j]
        if node.op.name in _MULTI_OUTPUT:   # one ufunc call, one node per output
            call = (node.op.name, tuple(a.id for a in node.args))
            if call in calls:
                continue
            calls.add(call)
        state = fp_state.state_of(node.id, default)
        errors = [_parse(line) for line in lines]
        status = 0
        for kind, _ in errors:
            status |= fp_state.BITS[kind]
        for kind, name in errors:
            _act(node, state, kind, name, status, site)


def _parse(line: str) -> tuple:
    """NumPy's log line "Warning: divide by zero encountered in divide" -> (kind, ufunc)."""
    words, _, name = line.strip().removeprefix("Warning: ").partition(" encountered in ")
    return fp_state.KIND_OF_WORDS[words], name


def _act(node, state, kind: str, name: str, status: int, site: str) -> None:
    mode = state[fp_state.KINDS.index(kind)]
    words = fp_state.WORDS[kind]
    message = f"{words} encountered in {name}"
    where = node.site or site
    if mode == "ignore":
        return
    if mode == "warn":
        _warn(message, where)
    elif mode == "raise":
        error = FloatingPointError(message)
        error.add_note(f"raised by lazynum op {node.op.name!r} traced at "
                       f"{node.site or f'? (synced at {site})'}")
        error.lazynum_failed_node = node
        raise error
    elif mode == "call":
        handler = state[4]
        if handler is None:
            raise ValueError(f"python callback specified for {words} (in {name}) but no "
                             f"function found.")
        handler(words, status)
    elif mode == "print":
        sys.stdout.write(f"Warning: {message}\n")
    elif mode == "log":
        if state[4] is None:
            raise ValueError(f"log specified for {words} (in {name}) but no object with "
                             f"write method found.")
        state[4].write(f"Warning: {message}\n")


# Per source file, the registry warnings' "default" action reads (shown once per line),
# as NumPy's warnings, which are raised in the user's frame, use that module's.
_registries: dict = {}


def _warn(message: str, where: str) -> None:
    filename, _, line = where.rpartition(":")
    filename = filename or where
    registry = _registries.setdefault(filename, {})
    module = filename.rpartition("/")[2].removesuffix(".py") or "<lazynum>"
    warnings.warn_explicit(message, RuntimeWarning, filename,
                           int(line) if line.isdigit() else 0, module, registry)
