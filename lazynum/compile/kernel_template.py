"""Kernel templates: the unit of native code, keyed by structure alone.

A lowered kernel names the program's run-time values by program-wide numbers: size slots
``("s", k)`` of the cut (extents, slice offsets and strides the signature made symbolic)
and element strides ``("t", i, j)`` of input ``i``.  The same loop body traced at another
trip count, or in another program, differs only in those numbers: Gauss elimination's
update at column 5 reads ``n7 + o1`` where column 6 reads ``n9 + o1``.

Static sizes are plain integers in the kernel (a signature keeps small static shapes
static), so a loop that grows an array by concatenation reads ``v[3 + o0]``, then
``v[6 + o0]``: integer constants of index math (offsets, strides other than 1, extents)
differ the same way.  ``templatize`` renames both to kernel-local parameters ``("s", 0),
("s", 1), ...`` in order of first use, and returns the bindings (which program atom or
constant each parameter takes at a launch).  The template's canonical text (buffers named by argument position, no source
comments, no shapes) is its key; its name is a digest of that text, so equal names mean
equal code in every program and every process: a backend compiles each template once and
a new program whose templates are all compiled costs no code generation at all.
"""
from __future__ import annotations

import dataclasses
import hashlib
import re

from . import index_expr as ix
from .kernel_ir import Kernel, Loop, Phase, Stmt, format_kernel

PARAMETER_KINDS = ("s", "t")       # program-wide atoms a template turns into parameters
# (``bindings`` also holds ``("c", value)``: an integer constant lifted into a parameter)


def templatize(kernel: Kernel) -> tuple[Kernel, tuple]:
    """``(template, bindings)``: ``kernel`` with its size and stride atoms renamed to local
    parameters (``bindings[j]`` is the program atom parameter ``j`` stands for), named
    by its structure (``template_name``)."""
    renamer = _Renamer()
    outer = [Loop(loop.var, renamer.index(loop.extent)) for loop in kernel.outer]
    phases = [_phase(phase, renamer) for phase in kernel.phases]
    buffers = [dataclasses.replace(b, shape=tuple("?" for _ in b.shape)) for b in kernel.buffers]
    targets = [dataclasses.replace(t, size=renamer.index(t.size), offset=renamer.index(t.offset),
                                   init=_phase(t.init, renamer)) for t in kernel.targets]
    template = Kernel(kernel.name, buffers, outer, phases, list(kernel.sources), kernel.strategy,
                      targets)
    template.name = template_name(template)
    return template, tuple(renamer.bindings)


def _phase(phase: Phase, renamer) -> Phase:
    inner = [Loop(loop.var, renamer.index(loop.extent)) for loop in phase.inner]
    body = []
    for stmt in phase.body:
        if stmt.op in ("load", "index") and isinstance(stmt.args[-1], ix.Index):
            args = stmt.args[:-1] + (renamer.index(stmt.args[-1]),)
            stmt = Stmt(stmt.name, stmt.op, args, stmt.dtype, stmt.origin)
        body.append(stmt)
    stores = [dataclasses.replace(s, index=renamer.index(s.index)) for s in phase.stores]
    nested = [_phase(n, renamer) for n in phase.nested]
    return Phase(inner, body, list(phase.reductions), stores, list(phase.scatters), nested)


class _Renamer:
    """Program atoms and integer constants -> local parameters, numbered in order of first
    use.  Terms are visited in an order that ignores the program numbers and values, so two
    kernels that differ only in them number their parameters alike.  Each constant
    occurrence is its own parameter (a constant term, or a coefficient other than 1 and -1,
    whose sign stays in the code): which values happen to coincide never changes a template.
    Unit coefficients stay in the code (a unit stride is what makes a loop vectorize), and so
    does everything inside ``//`` and ``%`` (reshapes' index math, simplified for its values).
    An index used twice is renamed once, so the template computes it once."""

    def __init__(self):
        self.local: dict = {}
        self.bindings: list = []
        self.memo: dict = {}

    def index(self, index: ix.Index) -> ix.Index:
        out = self.memo.get(index)
        if out is None:
            terms = []
            for monomial, coef in _structural_order(index):
                monomial = tuple(self.atom(a) for a in monomial)
                if not monomial:
                    monomial, coef = (self.constant(coef),), 1
                elif coef not in (1, -1):
                    monomial, coef = monomial + (self.constant(abs(coef)),), (1 if coef > 0 else -1)
                terms.append((monomial, coef))
            out = self.memo[index] = ix.Index(terms)
        return out

    def constant(self, value: int):
        self.bindings.append(("c", value))
        return ("s", len(self.bindings) - 1)

    def atom(self, atom):
        kind = atom[0]
        if kind in PARAMETER_KINDS:
            local = self.local.get(atom)
            if local is None:
                local = self.local[atom] = ("s", len(self.bindings))
                self.bindings.append(atom)
            return local
        if kind == "clamp":     # a box write's offsets: parameters, as top-level terms are
            return (kind, self.index(atom[1]), self.index(atom[2]))
        if kind in ix.COMPOSITE_ATOMS:
            return (kind, _rename_inside(atom[1], self), _rename_inside(atom[2], self))
        return atom


def _rename_inside(index: ix.Index, renamer: _Renamer) -> ix.Index:
    """Inside ``//`` and ``%``: program atoms become parameters, constants stay."""
    return ix.Index([(tuple(renamer.atom(a) for a in monomial), coef)
                     for monomial, coef in _structural_order(index)])


def _structural_order(index: ix.Index) -> list:
    """``index``'s terms in an order that ignores program numbers and values."""
    return sorted(index.terms, key=lambda term: (_shape_key(term[0]), term[1]))


def _shape_key(monomial) -> tuple:
    return tuple(_atom_shape(a) for a in monomial)


def _atom_shape(atom):
    kind = atom[0]
    if kind in PARAMETER_KINDS:
        return (kind,)
    if kind == "clamp":
        return (kind, tuple(sorted(_shape_key(m) for m, _ in atom[1].terms)),
                tuple(sorted(_shape_key(m) for m, _ in atom[2].terms)))
    if kind in ix.COMPOSITE_ATOMS:      # their constants are part of the code: in the key
        return (kind, tuple(sorted((_shape_key(m), c) for m, c in atom[1].terms)),
                tuple(sorted((_shape_key(m), c) for m, c in atom[2].terms)))
    return atom


def canonical_text(kernel: Kernel) -> str:
    """The kernel's code with buffers named by argument position and no comments: equal
    texts compute the same function of their arguments and parameters."""
    renames = {}
    pointer = scalar = 0
    for buf in kernel.buffers:
        if buf.role == "param":
            renames[buf.name] = f"scalar{scalar}"
            scalar += 1
        else:
            renames[buf.name] = f"arg{pointer}"
            pointer += 1
    unnamed = dataclasses.replace(kernel, name="", sources=[], strategy=None)
    lines = [re.sub(r"^\s*(output|temp)\s", "buffer ", line.split("#")[0].rstrip())
             for line in format_kernel(unnamed).splitlines()[1:]]
    body = "\n".join(lines)
    return re.sub(r"\b(in\d+|v\d+)\b", lambda m: renames.get(m.group(1), m.group(1)), body)


def template_name(kernel: Kernel) -> str:
    """``k`` and a digest of the canonical text: the template's name everywhere."""
    digest = hashlib.blake2b(canonical_text(kernel).encode(), digest_size=10).hexdigest()
    return f"k{digest}"
