"""A fuzz program: named input arrays and a list of statements over named variables.

Statements are source text, run once with ``np`` bound to numpy and once with ``np`` bound
to lazynum (``numpy`` is always numpy itself).  A statement whose lazynum form differs (an
explicit ``x.sync()``, which NumPy has no counterpart for) carries ``lazy_text``; NumPy runs
``pass`` there.
"""
from __future__ import annotations

import ast
import dataclasses
import re

import numpy

from .values import array_literal

# Statement kinds whose NumPy errors can depend on the data (an index value, an exponent's
# sign, how many elements a mask selects), so lazynum may raise them at the next sync
# instead (README: known deviations; docs/bounded-dims.md: errors).
# Statement kinds whose IndexError/ValueError may depend on the data, raised at the sync
# (README: known deviations): index values, masks, bincount's negative values, histogram's
# non-finite autodetected range, ufunc.at's index values.
DATA_DEPENDENT_KINDS = frozenset({"fancy.get", "fancy.set", "elementwise.power", "write.mask",
                                  "produce.mask", "produce.nonzero", "produce.unique",
                                  "produce.compress", "count", "write.at", "produce.where1",
                                  "reduce.nanarg"})

NAME_PATTERN = re.compile(r"\b[a-z][a-z0-9_]*\b")


class Candidate:
    """A statement a kind proposes; ``bounded`` marks data-dependent producers."""
    __slots__ = ("text", "kind", "lazy_text", "bounded")

    def __init__(self, text, kind, lazy_text=None, bounded=False):
        self.text, self.kind, self.lazy_text, self.bounded = text, kind, lazy_text, bounded


@dataclasses.dataclass(frozen=True)
class Statement:
    text: str                 # what NumPy runs (and lazynum, unless lazy_text is set)
    kind: str                 # the generator's statement kind, e.g. "write.mask"
    lazy_text: str | None = None

    @property
    def group(self) -> str:
        """The generator kind that made it ("fancy.get" for "fancy.get:take")."""
        return self.kind.split(":")[0]

    def source(self, lazy: bool) -> str:
        return self.lazy_text if lazy and self.lazy_text is not None else self.text

    def writes(self) -> set:
        """Variables the statement binds or writes into (assignment targets, subscripted or
        augmented targets, ``out=``, ``np.copyto``'s destination, ``x.fill``/``x.sort``)."""
        try:
            tree = ast.parse(self.text)
        except SyntaxError:
            return set()
        written = set()
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign):
                targets = [node.target]
            elif isinstance(node, ast.Call):
                targets = [k.value for k in node.keywords if k.arg == "out"]
                if isinstance(node.func, ast.Attribute) and node.func.attr == "copyto" and node.args:
                    targets.append(node.args[0])
                if isinstance(node.func, ast.Attribute) and node.func.attr in ("fill", "sort"):
                    targets.append(node.func.value)
            for target in targets:
                while isinstance(target, (ast.Subscript, ast.Attribute)):
                    target = target.value
                written |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        return written

    def names(self) -> set:
        """Identifiers the statement mentions (variables among them)."""
        return set(NAME_PATTERN.findall(self.lazy_text or self.text)) | set(NAME_PATTERN.findall(self.text))


@dataclasses.dataclass(frozen=True)
class Program:
    seed: int
    inputs: tuple             # ((name, numpy.ndarray), ...)
    statements: tuple         # (Statement, ...)

    def replace(self, **changes) -> "Program":
        return dataclasses.replace(self, **changes)

    def numpy_inputs(self) -> dict:
        return {name: array.copy() for name, array in self.inputs}

    def lines(self, lazy: bool) -> list:
        """The program as plain source lines, inputs first (for reading; the runner binds
        the inputs itself)."""
        out = [f"{name} = np.asarray({array_literal(array)})" for name, array in self.inputs]
        out += [statement.source(lazy) for statement in self.statements]
        return out

    def size(self) -> tuple:
        """What the shrinker minimizes: statements, then input elements, then text length."""
        elements = sum(int(numpy.asarray(array).size) for _, array in self.inputs)
        text = sum(len(s.text) for s in self.statements)
        return (len(self.statements), elements, text)
