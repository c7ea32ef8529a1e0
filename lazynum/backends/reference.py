"""The reference backend: runs the DAG op by op with NumPy (``LAZYNUM_BACKEND=numpy``).

It is the oracle the compiled backends are tested against and the debugging backend.
Each op's reference implementation lives with the op in ``lazynum.expr``; this module
only lowers a cut into a ``Program`` (a list of steps that hold no nodes: op, argument
positions, attrs and expected shape with run-time sizes as slots), and replays it: frees
intermediates after their last use and checks that every result has the shape and dtype
its rules promised.
"""
from __future__ import annotations

import json

import sys

import numpy as np

from ..control import telemetry as metrics
from ..compile.cut import SizeSlot, fill, has_slot
from ..expr import fp_state
from ..expr.registry import lookup
from ..expr.symbolic import SymInt

NAME = "numpy"
ARTIFACT_VERSION = "reference-1"


class InternalError(AssertionError):
    """A primitive's reference disagreed with its own shape/dtype rule (a lazynum bug)."""


class Step:
    """One op application: ``op(values at args, attrs) -> values[position]``."""
    __slots__ = ("op", "args", "attrs", "dynamic_attrs", "dynamic_shape", "shape", "dtype",
                 "frees", "inplace")

    def __init__(self, op, args, attrs, shape, dtype, frees, inplace):
        self.op, self.args, self.attrs, self.shape, self.dtype = op, args, attrs, shape, dtype
        self.dynamic_attrs = has_slot(attrs)
        self.dynamic_shape = has_slot(shape)
        self.frees = frees          # steps whose value dies after this one
        self.inplace = inplace      # structurally allowed to update args[0] in place


def compile(cut):  # noqa: A001 - the backend interface's name
    """Lower ``cut`` into a replayable ``Program``."""
    last = {}
    for j, node in enumerate(cut.order):
        for arg in node.args:
            last[cut.ref(arg)] = j
    outputs = [cut.ref(node) for node in cut.outputs]
    for ref in outputs:
        last[ref] = len(cut.order)
    steps = []
    for j, node in enumerate(cut.order):
        args = tuple(_encode_ref(cut.ref(a)) for a in node.args)
        frees = tuple(sorted({a[1] for a in map(cut.ref, node.args)
                              if a[0] == "step" and last[a] == j}))
        first = cut.ref(node.args[0]) if node.args else None
        inplace = (node.op.reference_inplace is not None and first[0] == "step"
                   and last[first] == j and node.args.count(node.args[0]) == 1)
        steps.append(Step(node.op, args, cut.attrs(node).template, cut.shape(node.shape),
                          node.dtype, frees, inplace))
    return Program(steps, [_encode_ref(r) for r in outputs])


def _encode_ref(ref) -> int:
    """Leaves as ``-1 - i``, steps as ``j``: one int per argument."""
    return -1 - ref[1] if ref[0] == "leaf" else ref[1]


class Program:
    """A lowered cut: replay with ``run(inputs, sizes, sites)``."""

    def __init__(self, steps, outputs):
        self.steps = steps
        self.outputs = outputs

    def run(self, inputs, sizes, sites=None):
        values = [None] * len(self.steps)
        log, lines = fp_state.active_log(), fp_state.LogLines()
        with numpy_errors(log, lines):
            for j, step in enumerate(self.steps):
                arrays = [values[a] if a >= 0 else inputs[-1 - a] for a in step.args]
                values[j] = self._run_step(j, step, arrays, values, sizes, sites)
                if lines.lines:
                    log.step(j, lines.take())
                for dead in step.frees:
                    values[dead] = None
        metrics.counters["kernels_launched"] += len(self.steps)
        return [values[r] if r >= 0 else inputs[-1 - r] for r in self.outputs]

    def _run_step(self, j, step, arrays, values, sizes, sites):
        attrs = fill(step.attrs, sizes) if step.dynamic_attrs else step.attrs
        shape = step.shape
        if step.dynamic_shape:
            shape = tuple([sizes[d.index] if type(d) is SizeSlot else d for d in shape])
        reference = step.op.reference
        if step.inplace and _owned_and_unshared(arrays, values):
            reference = step.op.reference_inplace
        try:
            out = reference(arrays, attrs)
        except (IndexError, ValueError, OverflowError) as exc:
            site = sites(j) if sites else None       # also names the failing node
            exc.add_note(f"raised by lazynum op {step.op.name!r} traced at {site or '?'}")
            raise
        if type(out) is not np.ndarray:
            out = np.asarray(out)        # NumPy returns scalars for 0-d results
        if out.dtype != step.dtype or out.shape != shape:
            raise InternalError(f"op {step.op.name} produced {out.dtype}{out.shape}, "
                                f"its rules said {step.dtype}{shape}")
        return out

    # --- persistence (the disk cache): plain JSON data, no code objects ---------------------
    def to_bytes(self) -> bytes:
        steps = [[s.op.name, list(s.args), _dump(s.attrs), _dump(s.shape), s.dtype.str,
                  list(s.frees), s.inplace] for s in self.steps]
        return json.dumps({"steps": steps, "outputs": self.outputs}).encode()


def load(data: bytes) -> Program:
    """The ``Program`` stored by ``Program.to_bytes`` (ValueError when malformed)."""
    try:
        doc = json.loads(data.decode())
        steps = [Step(lookup(name), tuple(args), _load(attrs), _load(shape), np.dtype(dtype),
                      tuple(frees), bool(inplace))
                 for name, args, attrs, shape, dtype, frees, inplace in doc["steps"]]
        return Program(steps, [int(r) for r in doc["outputs"]])
    except (KeyError, TypeError, ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"malformed reference program: {exc}") from None


def run_trace(trace) -> list:
    """Interpret one trace's pending nodes with NumPy, op by op: the interpreter tier.

    A ``Program`` is a cut lowered for replay (sizes as slots, attrs as templates); building
    one costs more than running it once (5,000 nodes: 55 ms to build, 30 ms to run).  The
    interpreter tier runs every trace anew, so it reads the trace itself: each node's attrs
    and shape hold this trace's sizes (a ``SymInt`` *is* its value), and the signature has
    found every argument's position (``trace.refs``).  Same semantics as ``Program.run``:
    values die after their last use, a scatter updates its base in place when the run owns
    it, and every result is checked against the node's shape and dtype.  ``trace(j)`` names
    a failing step's line.
    """
    order, all_refs, sized = trace.order, trace.refs, trace.sized_attrs
    inputs = [leaf.buffer for leaf in trace.leaves]
    last = {}
    for j, refs in enumerate(all_refs):
        for a in refs:
            last[a] = j
    results = trace.results
    for r in results:
        last[r] = len(order)
    values = [None] * len(order)
    log, lines = fp_state.active_log(), fp_state.LogLines()
    with numpy_errors(log, lines):
        for j, node in enumerate(order):
            refs = all_refs[j]
            arrays = [values[a] if a >= 0 else inputs[-1 - a] for a in refs]
            attrs = concrete_attrs(node.attrs) if j in sized else node.attrs
            values[j] = _run_node(j, node, attrs, refs, arrays, values, last, trace)
            if lines.lines:
                log.step(j, lines.take())
            for a in refs:
                if a >= 0 and last[a] == j:
                    values[a] = None
    metrics.counters["kernels_launched"] += len(order)
    return [values[r] if r >= 0 else inputs[-1 - r] for r in results]


def _run_node(j, node, attrs, args, arrays, values, last, trace):  # noqa: PLR0913  # noqa: PLR0913
    op = node.op
    reference = op.reference
    if (op.reference_inplace is not None and args and args[0] >= 0 and last[args[0]] == j
            and args.count(args[0]) == 1 and _owned_and_unshared(arrays, values)):
        reference = op.reference_inplace
    try:
        out = reference(arrays, attrs)
    except (IndexError, ValueError, OverflowError) as exc:
        exc.add_note(f"raised by lazynum op {op.name!r} traced at {trace(j) or '?'}")
        raise          # (asking the trace names the failing node)
    if type(out) is not np.ndarray:
        out = np.asarray(out)        # NumPy returns scalars for 0-d results
    if out.dtype != node.dtype or out.shape != node.shape:    # (a SymInt compares as its value)
        raise InternalError(f"op {op.name} produced {out.dtype}{out.shape}, "
                            f"its rules said {node.dtype}{tuple(map(int, node.shape))}")
    return out


def concrete_attrs(value):
    """An attr with each ``SymInt`` as the plain int it is in this trace (references do
    arithmetic on attrs; a SymInt would build expressions)."""
    kind = type(value)
    if kind is SymInt:
        return int(value)
    if kind is tuple:      # (plain ints, the common element, without a call each)
        return tuple([v if type(v) is int else concrete_attrs(v) for v in value])
    return value


def numpy_errors(log, lines):
    """NumPy's floating-point state for a run's NumPy calls: each error written to
    ``lines`` in NumPy's words when the sync collects them (``log``, see
    ``runtime/fp_errors``), else ignored."""
    return np.errstate(all="ignore") if log is None else np.errstate(all="log", call=lines)


def _owned_and_unshared(arrays, values) -> bool:
    """May a scatter update ``arrays[0]`` in place?  The program made that buffer (a step
    value at its last use, checked at compile time), it owns its memory, and no other live
    value (a view made from it earlier) can read it afterwards."""
    buffer = arrays[0]
    if buffer.base is not None or not buffer.flags.writeable or not buffer.flags.c_contiguous:
        return False
    # It owns its memory, so every view of it holds it as its ``base``: its only references
    # are then its slot in ``values``, ``arrays[0]``, ``buffer`` here and getrefcount's own
    # argument.  (Scanning every value for overlap made a program with many in-place
    # steps quadratic: 1,700 scatters over 23,000 steps, a second per run.)
    return sys.getrefcount(buffer) <= _UNSHARED_REFERENCES


_UNSHARED_REFERENCES = 4


def _dump(value):
    """Attrs/shapes as JSON data: tuples, numbers, strings, dtypes and size slots."""
    if type(value) is SizeSlot:
        return {"slot": value.index}
    if type(value) is tuple:
        return {"tuple": [_dump(v) for v in value]}
    if isinstance(value, np.dtype):
        return {"dtype": value.str}
    if type(value) is float:
        return {"float": repr(value)}
    if value is None or type(value) in (int, str, bool):
        return value
    raise TypeError(f"attr {value!r} of type {type(value).__name__} cannot be stored")


def _load(doc):
    if isinstance(doc, dict):
        (kind, value), = doc.items()
        if kind == "slot":
            return SizeSlot(int(value))
        if kind == "tuple":
            return tuple(_load(v) for v in value)
        if kind == "dtype":
            return np.dtype(value)
        if kind == "float":
            return float(value)
        raise ValueError(f"unknown attr kind {kind!r}")
    return doc
