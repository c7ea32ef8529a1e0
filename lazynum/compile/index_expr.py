"""Index expressions of the kernel IR: integer polynomials over loop variables and sizes.

Every address a kernel computes is ``base + index`` where ``index`` is an ``Index``: a sum
of integer-coefficient monomials whose factors are *atoms*:

``("v", k)``      loop variable k of the kernel (ranges over ``[0, extent_k)``)
``("s", k)``      run-time size ``sizes[k]`` (a ``SizeSlot`` of the cut)
``("t", i, j)``   run-time element stride of dim j of input i (non-contiguous inputs)
``("div", a, b)`` floor division ``a // b`` of an index by a positive one
``("mod", a, b)`` floor remainder ``a % b`` (in ``[0, b)``) of an index by a positive one
``("clamp", a, b)`` ``a`` limited to ``[0, b]`` (``max(min(a, b), 0)``: 0 when ``b < 0``); a
                  write into a box of an array reads its value there (``KernelBuilder.region_index``)
(``a`` may be negative: the simplifier takes multiples of ``b`` out of a non-negative
index, ``(-2*i + j + 2) // 2`` becomes ``(-2*i + j) // 2 + 1``, exact in floor semantics
only, which every renderer must implement)

Views, broadcasts, transposes, slices and reshapes compose into such expressions; the
simplifier removes the ``//`` and ``%`` that reshapes introduce whenever value ranges prove
them redundant (``(4*i + j) // 4 == i`` for ``j < 4``; ``i % n == i`` when ``i``'s loop has
extent ``n``), so the common cases stay affine and their inner loops vectorize.
"""
from __future__ import annotations


# Atoms built from two indexes (everything else is a variable or a run-time parameter).
COMPOSITE_ATOMS = ("div", "mod", "clamp")


class Index:
    """An immutable polynomial: ``terms`` is a sorted tuple of ``(monomial, coefficient)``."""
    __slots__ = ("terms", "_hash")

    def __init__(self, terms):
        merged: dict = {}
        for monomial, coef in terms:
            merged[monomial] = merged.get(monomial, 0) + coef
        self.terms = tuple(sorted((m, c) for m, c in merged.items() if c))
        self._hash = hash(self.terms)

    def __eq__(self, other):
        return isinstance(other, Index) and self.terms == other.terms

    def __hash__(self):
        return self._hash

    def __lt__(self, other):        # atoms holding indexes sort inside monomials
        return self.terms < other.terms

    def __reduce__(self):
        return (Index, (self.terms,))

    def __add__(self, other):
        other = as_index(other)
        return Index(self.terms + other.terms)

    __radd__ = __add__

    def __mul__(self, other):
        other = as_index(other)
        return Index([(tuple(sorted(m1 + m2)), c1 * c2)
                      for m1, c1 in self.terms for m2, c2 in other.terms])

    __rmul__ = __mul__

    def __neg__(self):
        return Index([(m, -c) for m, c in self.terms])

    def __sub__(self, other):
        return self + (-as_index(other))

    def constant(self):
        """The int value when the index has no atoms, else None."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    def atoms(self) -> set:
        out = set()
        for monomial, _ in self.terms:
            out.update(monomial)
        return out

    def __repr__(self):
        return format_index(self)


ZERO = Index(())


def as_index(value) -> Index:
    if isinstance(value, Index):
        return value
    return Index([((), int(value))])


def var(k: int) -> Index:
    return Index([((("v", k),), 1)])


def slot(k: int) -> Index:
    return Index([((("s", k),), 1)])


def stride_param(i: int, j: int) -> Index:
    return Index([((("t", i, j),), 1)])


def size_index(d) -> Index:
    """An ``Index`` for a size as ``Cut.size`` answers it (an int or a ``SizeSlot``)."""
    if isinstance(d, int):
        return as_index(d)
    return slot(d.index)


# --- simplification --------------------------------------------------------------------------

class Ranges:
    """Static value ranges of loop variables (their extents), used to drop ``//`` and ``%``."""

    def __init__(self, extents: dict):
        self.extents = extents          # var k -> Index extent

    def bounds(self, index: Index):
        """``(low, high)`` ints bounding ``index``, or None when a factor is unbounded."""
        low = high = 0
        for monomial, coef in index.terms:
            lo, hi = 1, 1
            for atom in monomial:
                b = self._atom_bounds(atom)
                if b is None:
                    return None
                products = (lo * b[0], lo * b[1], hi * b[0], hi * b[1])
                lo, hi = min(products), max(products)
            lo, hi = sorted((lo * coef, hi * coef))
            low, high = low + lo, high + hi
        return low, high

    def _atom_bounds(self, atom):
        if atom[0] == "v":
            extent = self.extents.get(atom[1])
            n = extent.constant() if extent is not None else None
            return None if n is None or n <= 0 else (0, n - 1)
        if atom[0] == "mod":
            d = atom[2].constant()
            return None if not d else (0, d - 1)
        if atom[0] == "div":
            num, d = self.bounds(atom[1]), atom[2].constant()
            return None if num is None or not d else (num[0] // d, num[1] // d)
        if atom[0] == "clamp":
            hi = self.bounds(atom[2])
            return None if hi is None else (0, max(hi[1], 0))
        return None

    def below(self, index: Index, bound: Index) -> bool:
        """Is ``0 <= index < bound`` provable?"""
        if index == ZERO:
            return True
        if len(index.terms) == 1:        # a lone variable whose extent is the bound
            monomial, coef = index.terms[0]
            if coef == 1 and len(monomial) == 1 and monomial[0][0] == "v":
                if self.extents.get(monomial[0][1]) == bound:
                    return True
        b, d = self.bounds(index), bound.constant()
        return b is not None and d is not None and b[0] >= 0 and b[1] < d


def _split_multiples(index: Index, divisor: Index):
    """``index == divisor * quotient + rest`` taking every term divisible by the monomial
    ``divisor``; returns ``(quotient, rest)`` (``(None, index)`` if divisor is not a monomial)."""
    if len(divisor.terms) != 1:
        return None, index
    dmono, dcoef = divisor.terms[0]
    quotient, rest = [], []
    for monomial, coef in index.terms:
        remaining = list(monomial)
        ok = coef % dcoef == 0
        for atom in dmono:
            if ok and atom in remaining:
                remaining.remove(atom)
            else:
                ok = False
        if ok:
            quotient.append((tuple(remaining), coef // dcoef))
        else:
            rest.append((monomial, coef))
    return Index(quotient), Index(rest)


def floordiv(index: Index, divisor: Index, ranges: Ranges) -> Index:
    """``index // divisor`` (floor; a positive divisor), simplified."""
    if divisor == as_index(1):
        return index
    quotient, rest = _split_multiples(index, divisor)
    if quotient is None:
        quotient, rest = ZERO, index
    if ranges.below(rest, divisor):
        return quotient
    c, d = rest.constant(), divisor.constant()
    if c is not None and d:
        return quotient + c // d
    return quotient + Index([((("div", rest, divisor),), 1)])


def mod(index: Index, divisor: Index, ranges: Ranges) -> Index:
    """``index % divisor`` (floor; a positive divisor), simplified."""
    if divisor == as_index(1):
        return ZERO
    _, rest = _split_multiples(index, divisor)
    if ranges.below(rest, divisor):
        return rest
    c, d = rest.constant(), divisor.constant()
    if c is not None and d:
        return as_index(c % d)
    return Index([((("mod", rest, divisor),), 1)])


def clamp(index: Index, high: Index, ranges: Ranges) -> Index:
    """``index`` limited to ``[0, high]``, simplified (no clamp where ranges prove it idle)."""
    b, h = ranges.bounds(index), high.constant()
    if index == ZERO or (b is not None and h is not None and b[0] >= 0 and b[1] <= h):
        return index
    if h is not None and h <= 0:
        return ZERO
    return Index([((("clamp", index, high),), 1)])


def substitute(index: Index, values: dict) -> Index:
    """Replace loop variables: ``values`` maps var k -> Index."""
    out = ZERO
    for monomial, coef in index.terms:
        term = as_index(coef)
        for atom in monomial:
            term = term * _substitute_atom(atom, values)
        out = out + term
    return out


def _substitute_atom(atom, values):
    if atom[0] == "v":
        return values.get(atom[1], Index([((atom,), 1)]))
    if atom[0] in COMPOSITE_ATOMS:
        return Index([(((atom[0], substitute(atom[1], values), substitute(atom[2], values)),), 1)])
    return Index([((atom,), 1)])


def coefficient(index: Index, k: int):
    """``(c, rest)`` with ``index == c * v_k + rest`` if var k appears only linearly, else None."""
    coef_terms, rest = [], []
    for monomial, c in index.terms:
        n = monomial.count(("v", k))
        if n == 0:
            if any(a[0] in COMPOSITE_ATOMS and ("v", k) in _all_atoms(a) for a in monomial):
                return None
            rest.append((monomial, c))
        elif n == 1:
            coef_terms.append((tuple(a for a in monomial if a != ("v", k)), c))
        else:
            return None
    return Index(coef_terms), Index(rest)


def all_atoms(index: Index) -> set:
    """Every atom of ``index``, those inside ``//``, ``%`` and clamps included."""
    out = set()
    for atom in index.atoms():
        out |= _all_atoms(atom)
    return out


def composite_atoms(index: Index) -> set:
    """The ``//``, ``%`` and clamp atoms of ``index``, nested ones included."""
    return {a for a in all_atoms(index) if a[0] in COMPOSITE_ATOMS}


def _all_atoms(atom) -> set:
    out = set()
    stack = [atom]
    while stack:
        a = stack.pop()
        out.add(a)
        if a[0] in COMPOSITE_ATOMS:
            for sub in (a[1], a[2]):
                stack.extend(sub.atoms())
    return out


# --- printing --------------------------------------------------------------------------------

def format_atom(atom, var_names=None) -> str:
    kind = atom[0]
    if kind == "v":
        return var_names[atom[1]] if var_names else f"i{atom[1]}"
    if kind == "s":
        return f"n{atom[1]}"
    if kind == "t":
        return f"stride{atom[1]}_{atom[2]}"
    if kind == "clamp":
        return f"clamp({format_index(atom[1], var_names)}, 0, {format_index(atom[2], var_names)})"
    op = "//" if kind == "div" else "%"
    return f"({format_index(atom[1], var_names)} {op} {format_index(atom[2], var_names)})"


def format_index(index: Index, var_names=None) -> str:
    if not index.terms:
        return "0"
    parts = []
    for monomial, coef in index.terms:
        factors = [format_atom(a, var_names) for a in monomial]
        if coef != 1 or not factors:
            factors.insert(0, str(coef))
        parts.append("*".join(factors))
    return " + ".join(parts).replace("+ -", "- ")
