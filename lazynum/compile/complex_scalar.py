"""Complex scalar ops as pairs of real kernel statements, with NumPy's algorithms.

In a kernel a complex value is a pair ``(re, im)`` of statements of its part dtype
(float32 for complex64, float64 for complex128): loads and stores address the two parts
(``compile.lowering.KernelBuilder.load``), and each complex scalar op below becomes real
scalar ops, so every backend that computes real floats computes complex ones.  The
algorithms are NumPy 2's loops as measured on x86-64 (``tests/test_complex_kernels.py``
checks them bit for bit against NumPy, ``exp``/``sqrt`` to libm's tolerance):

- ``multiply``: ``re = fma(ar, br, -(ai*bi))``, ``im = fma(ar, bi, ai*br)`` (NumPy's SIMD
  complex loop; ``square`` is ``z * z``);
- ``divide``: Smith's method, NumPy's branches (a zero divisor divides each part by
  ``|br|``, giving NumPy's infinities and NaNs); ``reciprocal``: NumPy's own loop;
- ``sign``: NumPy 2's loop, ``z / hypot`` (within 2 ulps: this backend's hypot) and its
  special cases;
- ``absolute``: ``L * sqrt(fma(r, r, 1))`` with ``L = max(|re|, |im|)``, ``r = min / L``
  (NumPy's overflow-safe hypot; inf if a part is infinite, else NaN if one is NaN, 0 for 0);
- comparisons: ``==``/``!=`` on both parts; ``<``, ``<=``, ``>``, ``>=`` lexicographic
  (real parts first; NumPy's rule that a NaN imaginary part fails a real-part decision);
  ``maximum``/``minimum``/``fmax``/``fmin`` pick an operand by that order and NumPy's NaN rule;
- ``isnan``/``isinf``/``isfinite``, logical ops (a value is true when a part is nonzero);
- ``exp``, ``exp2``, ``sqrt``, ``log``, ``log2``, ``log10``, ``sin``, ``cos``, ``tan``,
  ``sinh``, ``cosh``, ``tanh`` with NumPy's (glibc's C99 Annex G) special values and branch cuts exactly; their
  finite values come from this backend's exp/cos/sin/cosh/sinh/hypot/log/atan2, so within a
  few ulps of NumPy's (the same difference as for the real functions; checked with that
  tolerance).  ``log1p``/``expm1`` stay extern:
  NumPy's formulas for them cancel, so another libm's last bits grow into many ulps.
  Where glibc raises the invalid flag for a NaN part (cexp: beside a finite one) a kernel's
  arithmetic on the quiet NaN raises none, so ``exp`` converts that NaN to an integer
  (``_raise_invalid``): NumPy's warnings, value by value.  The inverse trigonometric and
  hyperbolic functions stay extern (no kernel code written for them yet).

``OPS`` names the complex ops that have kernel code here; ``compile.wide_dtypes`` makes
the rest extern steps.  ``b`` below is a builder with ``scalar`` (a real scalar op),
``scalar_const`` and ``dtype_of``.
"""
from __future__ import annotations

import numpy as np

BOOL = np.dtype(np.bool_)
PART = {np.dtype(np.complex64): np.dtype(np.float32), np.dtype(np.complex128): np.dtype(np.float64)}
# Below these exp(x) is finite (float32, float64); above them exp(x/2) is used twice.
EXP_SAFE = {4: 88.0, 8: 709.0}
ORDER = {"less": "less", "less_equal": "less", "greater": "greater", "greater_equal": "greater"}


def _parts(b, name, args, dtype):
    return tuple(b.scalar(name, (x[k] for x in args), dtype) for k in (0, 1))


def _add(b, args, part):
    return _parts(b, "add", args, part)


def _subtract(b, args, part):
    return _parts(b, "subtract", args, part)


def _negative(b, args, part):
    return _parts(b, "negative", args, part)


def _multiply(b, args, part):
    (ar, ai), (br, bi) = args
    minus_ai_bi = b.scalar("negative", (b.scalar("multiply", (ai, bi), part),), part)
    re = b.scalar("fma", (ar, br, minus_ai_bi), part)
    im = b.scalar("fma", (ar, bi, b.scalar("multiply", (ai, br), part)), part)
    return re, im


def _divide(b, args, part):
    # Smith's method as NumPy writes it, both branches in one: with |br| >= |bi| (false for
    # a NaN) it is ((ar + ai*r), (ai - ar*r)) * s, r = bi/br, s = 1/(br + bi*r); else
    # ((ai + ar*r), (ai*r - ar)) * s with r = br/bi, s = 1/(bi + br*r): the same
    # statements on swapped operands (sums commute exactly), four divisions instead of six.
    (ar, ai), (br, bi) = args
    op = lambda name, *xs: b.scalar(name, xs, part)     # noqa: E731
    pick = lambda cond, x, y: b.scalar("select", (cond, x, y), part)    # noqa: E731
    abs_br, abs_bi = op("fabs", br), op("fabs", bi)
    major = b.scalar("greater_equal", (abs_br, abs_bi), BOOL)
    p, q = pick(major, br, bi), pick(major, bi, br)
    u, v = pick(major, ar, ai), pick(major, ai, ar)
    rat = op("divide", q, p)
    scl = op("divide", b.scalar_const(1.0, part), op("add", p, op("multiply", q, rat)))
    re = op("multiply", op("add", u, op("multiply", v, rat)), scl)
    u_rat = op("multiply", u, rat)
    im = op("multiply", pick(major, op("subtract", v, u_rat), op("subtract", u_rat, v)), scl)
    # a zero divisor: each part divided by |br| (NumPy's infinities and NaNs)
    zero = b.scalar_const(0.0, part)
    zero_divisor = b.scalar("logical_and", (b.scalar("equal", (abs_br, zero), BOOL),
                                            b.scalar("equal", (abs_bi, zero), BOOL)), BOOL)
    # (|p|: +0 there, as NumPy's |br|, and nonzero elsewhere, so the unused lanes raise no
    # divide-by-zero flag; a select on zero_divisor itself LLVM would fold away)
    by = op("fabs", p)
    value = (pick(zero_divisor, op("divide", ar, by), re), pick(zero_divisor, op("divide", ai, by), im))
    # NumPy's |br| >= |bi| is a signaling comparison: a NaN divisor part raises invalid
    nan_br = b.scalar("isnan", (br,), BOOL)
    nan_divisor = b.scalar("logical_or", (nan_br, b.scalar("isnan", (bi,), BOOL)), BOOL)
    return _raise_invalid(b, nan_divisor, pick(nan_br, br, bi), value, part)


def _reciprocal(b, args, part):
    # NumPy's loop: with |im| <= |re| (false for a NaN), r = im/re, d = re + im*r and the
    # result (1/d, -r/d); else r = re/im, d = re*r + im and (r/d, -1/d).  Both branches are
    # one formula on selected operands (p the larger part, q the other), so each lane does
    # exactly NumPy's divisions: its bits and its flags.  Its comparison is signaling: a
    # NaN part raises invalid.
    (re, im), = args
    op = lambda name, *xs: b.scalar(name, xs, part)     # noqa: E731
    pick = lambda cond, x, y: b.scalar("select", (cond, x, y), part)    # noqa: E731
    major = b.scalar("less_equal", (op("fabs", im), op("fabs", re)), BOOL)
    p, q = pick(major, re, im), pick(major, im, re)
    rat = op("divide", q, p)
    d = op("add", p, op("multiply", q, rat))
    one = b.scalar_const(1.0, part)
    value = (op("divide", pick(major, one, rat), d), op("negative", op("divide", pick(major, rat, one), d)))
    nan_re = b.scalar("isnan", (re,), BOOL)
    nan = b.scalar("logical_or", (nan_re, b.scalar("isnan", (im,), BOOL)), BOOL)
    return _raise_invalid(b, nan, pick(nan_re, re, im), value, part)


def _sign(b, args, part):
    # NumPy 2's loop: z / hypot(re, im); NaN if that is NaN; for an infinite |z|, (+-1, 0)
    # from an infinite real part beside a finite or NaN one, (0, +-1) from an infinite
    # imaginary part, NaN from two; 0 for 0.  (Special lanes divide by 1: no flag.)
    (re, im), = args
    op = lambda name, *xs: b.scalar(name, xs, part)     # noqa: E731
    pick = lambda cond, x, y: b.scalar("select", (cond, x, y), part)    # noqa: E731
    test = lambda name, *xs: b.scalar(name, xs, BOOL)   # noqa: E731
    c = lambda v: b.scalar_const(v, part)               # noqa: E731
    size = op("hypot", re, im)
    zero, one, nan = c(0.0), c(1.0), c(np.nan)
    plain = test("logical_and", test("isfinite", size), test("not_equal", size, zero))
    by = pick(plain, size, one)
    value = (op("divide", re, by), op("divide", im, by))
    unit = lambda v: pick(test("greater", v, zero), one, c(-1.0))     # noqa: E731
    inf_re, inf_im = test("isinf", re), test("isinf", im)
    both = test("logical_and", inf_re, inf_im)
    huge = (pick(both, nan, pick(inf_re, unit(re), zero)), pick(both, nan, pick(inf_re, zero, unit(im))))
    special = (pick(test("isnan", size), nan, pick(test("isinf", size), h, zero)) for h in huge)
    return tuple(pick(plain, v, sp) for v, sp in zip(value, special))


def _absolute(b, args, part):
    (re, im), = args
    op = lambda name, *xs: b.scalar(name, xs, part)     # noqa: E731
    a, c = op("fabs", re), op("fabs", im)
    large, small = op("maximum", a, c), op("minimum", a, c)     # (NaN propagates)
    one, zero = b.scalar_const(1.0, part), b.scalar_const(0.0, part)
    is_zero = b.scalar("equal", (large, zero), BOOL)
    infinite = b.scalar("logical_or", (b.scalar("isinf", (re,), BOOL), b.scalar("isinf", (im,), BOOL)), BOOL)
    # (0/0 and inf/inf would raise IEEE flags NumPy does not: those lanes divide by 2,
    # not 1, which LLVM would fold into a speculated division by ``large``)
    special = b.scalar("logical_or", (is_zero, infinite), BOOL)
    ratio = op("divide", small, b.scalar("select", (special, b.scalar_const(2.0, part), large), part))
    scaled = op("multiply", large, op("sqrt", op("fma", ratio, ratio, one)))
    value = b.scalar("select", (is_zero, zero, scaled), part)
    return b.scalar("select", (infinite, b.scalar_const(np.inf, part), value), part)


def _equal(b, args, part):
    eq = _parts(b, "equal", args, BOOL)
    return b.scalar("logical_and", eq, BOOL)


def _not_equal(b, args, part):
    ne = _parts(b, "not_equal", args, BOOL)
    return b.scalar("logical_or", ne, BOOL)


def _ordering(name):
    # NumPy's CLT and kin: (ar < br and neither imaginary part NaN) or (ar == br and ai < bi)
    def emit(b, args, part):
        (ar, ai), (br, bi) = args
        strict = b.scalar(ORDER[name], (ar, br), BOOL)
        no_nan = b.scalar("logical_not", (b.scalar("logical_or", (b.scalar("isnan", (ai,), BOOL),
                                                                 b.scalar("isnan", (bi,), BOOL)), BOOL),), BOOL)
        tie = b.scalar("logical_and", (b.scalar("equal", (ar, br), BOOL),
                                       b.scalar(name, (ai, bi), BOOL)), BOOL)
        return b.scalar("logical_or", (b.scalar("logical_and", (strict, no_nan), BOOL), tie), BOOL)
    return emit


def _extreme(order, nan_side):
    # NumPy's complex maximum/minimum/fmax/fmin: the first operand where it wins (or ties)
    # the lexicographic comparison or where operand ``nan_side`` has a NaN part (maximum:
    # the first's NaN propagates; fmax: the second's NaN is passed over), else the second.
    def emit(b, args, part):
        wins = _ordering(order)(b, args, part)
        nan = _either("isnan", "logical_or")(b, (args[nan_side],), part)
        keep = b.scalar("logical_or", (wins, nan), BOOL)
        return tuple(b.scalar("select", (keep, x, y), part) for x, y in zip(*args))
    return emit


def _exp(b, args, part):
    # exp(x)(cos y + i sin y), with C99 Annex G's special values as NumPy returns them: an
    # imaginary zero stays (exp(x), y); exp(+inf + i(inf or nan)) is inf + nan i and
    # exp(-inf + i(inf or nan)) is +0 + copysign(0, y) i.  Above x = 709 (88 for float32)
    # exp(x) overflows where the product may not: exp(x/2) multiplies twice.
    (x, y), = args
    op = lambda name, *xs: b.scalar(name, xs, part)     # noqa: E731
    pick = lambda cond, u, v: b.scalar("select", (cond, u, v), part)    # noqa: E731
    test = lambda name, *xs: b.scalar(name, xs, BOOL)   # noqa: E731
    c, s = op("cos", y), op("sin", y)
    ex = op("exp", x)
    half = op("exp", op("multiply", x, b.scalar_const(0.5, part)))
    big = test("greater", x, b.scalar_const(EXP_SAFE[part.itemsize], part))
    re = pick(big, op("multiply", op("multiply", half, c), half), op("multiply", ex, c))
    im = pick(big, op("multiply", op("multiply", half, s), half), op("multiply", ex, s))
    zero, inf = b.scalar_const(0.0, part), b.scalar_const(np.inf, part)
    real_y = test("equal", y, zero)
    re, im = pick(real_y, ex, re), pick(real_y, y, im)
    wild_y = test("logical_not", test("isfinite", y))
    plus_inf = test("logical_and", test("equal", x, inf), wild_y)
    minus_inf = test("logical_and", test("equal", x, op("negative", inf)), wild_y)
    re = pick(plus_inf, inf, pick(minus_inf, zero, re))
    im = pick(plus_inf, b.scalar_const(np.nan, part), pick(minus_inf, op("copysign", zero, y), im))
    # glibc's cexp (NumPy's) raises the invalid flag for a NaN part beside a finite one
    # (y NaN; or x NaN and y finite, nonzero), where arithmetic on the quiet NaN raises none
    finite_x, finite_y = test("isfinite", x), test("isfinite", y)
    nan_y = test("isnan", y)
    flagged = test("logical_or", test("logical_and", finite_x, nan_y),
                   test("logical_and", test("isnan", x),
                        test("logical_and", finite_y, test("not_equal", y, zero))))
    return _raise_invalid(b, flagged, pick(nan_y, y, x), (re, im), part)


# An integer conversion of a NaN sets the CPU's invalid flag (as NumPy's casts do); the
# flag is how a kernel reports an error.  The conversion's result feeds a choice that is
# never taken (it is 0 or the minimum integer, never 1), so the compiler keeps it.
_PROBE = {4: np.dtype(np.int32), 8: np.dtype(np.int64)}


def _raise_invalid(b, where, nan, value, part):
    """``value`` (a pair), after raising the invalid flag in the lanes ``where`` is true
    (``nan`` holds a NaN there)."""
    probe_dtype = _PROBE[part.itemsize]
    probe = b.scalar("cast", (b.scalar("select", (where, nan, b.scalar_const(0.0, part)), part),),
                     probe_dtype)
    never = b.scalar("equal", (probe, b.scalar_const(1, probe_dtype)), BOOL)
    re, im = value
    return b.scalar("select", (never, im, re), part), im


def _sqrt(b, args, part):
    # The principal root as NumPy computes it: t = sqrt((|x| + hypot(x, y)) / 2), then
    # (t, y/2t) for x >= 0, else (|y|/2t, copysign(t, y)): the branch cut on the negative
    # real axis follows the sign of y's zero.  Extreme magnitudes are scaled by a power of 4
    # first (exactly; so |x| + hypot neither overflows nor loses subnormal bits).  Special
    # values: sqrt(+-0 + 0i) = (+0, y), an infinite y gives (inf, y); the other infinities
    # and NaNs come out of the formula as NumPy's.
    (x, y), = args
    op = lambda name, *xs: b.scalar(name, xs, part)     # noqa: E731
    pick = lambda cond, u, v: b.scalar("select", (cond, u, v), part)    # noqa: E731
    test = lambda name, *xs: b.scalar(name, xs, BOOL)   # noqa: E731
    k = 54 if part.itemsize == 8 else 24
    c = lambda v: b.scalar_const(v, part)               # noqa: E731
    m = op("maximum", op("fabs", x), op("fabs", y))
    big = test("greater", m, c(float(np.finfo(part).max) / 16))
    small = test("less", m, c(float(np.finfo(part).tiny) * 2.0 ** k))
    into = pick(big, c(0.25), pick(small, c(2.0 ** (2 * k)), c(1.0)))
    out = pick(big, c(2.0), pick(small, c(2.0 ** -k), c(1.0)))
    xs, ys = op("multiply", x, into), op("multiply", y, into)
    t = op("sqrt", op("multiply", op("add", op("fabs", xs), op("hypot", xs, ys)), c(0.5)))
    twice = op("multiply", t, c(2.0))
    twice = pick(test("equal", t, c(0.0)), c(2.0), twice)     # (no 0/0 flag at zero)
    upper = test("greater_equal", x, c(0.0))
    re = pick(upper, t, op("divide", op("fabs", ys), twice))
    im = pick(upper, op("divide", ys, twice), op("copysign", t, ys))
    re, im = op("multiply", re, out), op("multiply", im, out)
    zero = test("equal", m, c(0.0))
    infinite_y = test("isinf", y)
    re = pick(infinite_y, c(np.inf), pick(zero, c(0.0), re))
    im = pick(infinite_y, y, pick(zero, y, im))
    return re, im


def _log(b, args, part):
    # log|z| + i atan2(y, x), C99's special values from log/hypot/atan2 themselves (log of
    # 0 is -inf with NumPy's divide flag, of an infinity +inf; atan2 gives the quadrants'
    # angles and the branch cut's sign of zero).  |z| is scaled by a power of 2 where hypot
    # would overflow or lose subnormal bits.  Near |z| = 1, where log(hypot) loses the low
    # bits, the real part is log1p(x^2 + y^2 - 1) / 2 with that sum exact to its last bits
    # (_unit_excess), as glibc's clog, which NumPy calls, computes it.
    (x, y), = args
    op = lambda name, *xs: b.scalar(name, xs, part)     # noqa: E731
    pick = lambda cond, u, v: b.scalar("select", (cond, u, v), part)    # noqa: E731
    test = lambda name, *xs: b.scalar(name, xs, BOOL)   # noqa: E731
    c = lambda v: b.scalar_const(v, part)               # noqa: E731
    k = 54 if part.itemsize == 8 else 24
    m = op("maximum", op("fabs", x), op("fabs", y))
    big = test("greater", m, c(float(np.finfo(part).max) / 4))
    small = test("less", m, c(float(np.finfo(part).tiny)))
    into = pick(big, c(0.5), pick(small, c(2.0 ** k), c(1.0)))
    shift = pick(big, c(float(np.log(2.0))), pick(small, c(-k * float(np.log(2.0))), c(0.0)))
    h = op("hypot", op("multiply", x, into), op("multiply", y, into))
    far = op("add", op("log", h), shift)
    near = test("logical_and", test("greater_equal", h, c(0.71)), test("less_equal", h, c(1.73)))
    # (other lanes take 1 + 0i: no overflow or invalid flag from the unused branch)
    excess = _unit_excess(b, pick(near, x, c(1.0)), pick(near, y, c(0.0)), part)
    re = pick(near, op("multiply", op("log1p", excess), c(0.5)), far)
    return re, op("arctan2", y, x)


def _unit_excess(b, x, y, part):
    """x^2 + y^2 - 1 to a few ulps of itself for |x + iy| near 1: the squares split
    exactly (fma), their sum and the low parts added with error-free two-sums, so the
    cancellation against 1 (exact: the high sum lies in [0.5, 2]) leaves correct bits."""
    op = lambda name, *xs: b.scalar(name, xs, part)     # noqa: E731

    def split_square(v):
        high = op("multiply", v, v)
        return high, op("fma", v, v, op("negative", high))

    def two_sum(u, v):
        total = op("add", u, v)
        back = op("subtract", total, u)
        return total, op("add", op("subtract", u, op("subtract", total, back)), op("subtract", v, back))

    (xx, xx_low), (yy, yy_low) = split_square(x), split_square(y)
    high, high_low = two_sum(xx, yy)
    low, low_err = two_sum(high_low, xx_low)
    low, low_err2 = two_sum(low, yy_low)
    head = op("add", op("subtract", high, b.scalar_const(1.0, part)), low)
    return op("add", head, op("add", low_err, low_err2))


def _scaled_log(factor):
    # NumPy's log2/log10: log(z) with both parts multiplied by log2(e) (log10(e))
    def emit(b, args, part):
        scale = b.scalar_const(factor, part)
        return tuple(b.scalar("multiply", (p, scale), part) for p in _log(b, args, part))
    return emit


def _exp2(b, args, part):
    # NumPy's: exp of z with both parts multiplied by ln 2
    ln2 = b.scalar_const(float(np.log(2.0)), part)
    return _exp(b, (tuple(b.scalar("multiply", (p, ln2), part) for p in args[0]),), part)


def _hyperbolic(sine, infinite_re=np.inf):
    # csinh/ccosh of x + iy: (sinh x cos y, cosh x sin y) / (cosh x cos y, sinh x sin y),
    # with exp(|x|/2) twice where cosh would overflow first (|x| > 709; 88 in float32), and
    # glibc's special values as NumPy returns them: y == 0 gives (sinh x, y) / (cosh x, copysign(0, x) y,
    # y itself for a NaN x); x == 0 beside an infinite or NaN y gives (x, NaN) / (NaN, +0);
    # an infinite x beside one gives (infinite_re, NaN) / (inf, NaN).  csinh raises invalid
    # for a NaN y beside a finite nonzero x (glibc does; quiet NaN arithmetic does not).
    def emit(b, args, part):
        (x, y), = args
        op = lambda name, *xs: b.scalar(name, xs, part)     # noqa: E731
        pick = lambda cond, u, v: b.scalar("select", (cond, u, v), part)    # noqa: E731
        test = lambda name, *xs: b.scalar(name, xs, BOOL)   # noqa: E731
        c = lambda v: b.scalar_const(v, part)               # noqa: E731
        ch, sh = op("cosh", x), op("sinh", x)
        cos_y, sin_y = op("cos", y), op("sin", y)
        first, second = (sh, ch) if sine else (ch, sh)
        half = op("exp", op("multiply", op("fabs", x), c(0.5)))
        big = test("greater", op("fabs", x), c(EXP_SAFE[part.itemsize]))
        signed_half = op("copysign", half, x)
        big_first, big_second = (signed_half, half) if sine else (half, signed_half)
        re = pick(big, op("multiply", op("multiply", op("multiply", big_first, c(0.5)), cos_y), half),
                  op("multiply", first, cos_y))
        im = pick(big, op("multiply", op("multiply", op("multiply", big_second, c(0.5)), sin_y), half),
                  op("multiply", second, sin_y))
        zero, nan = c(0.0), c(np.nan)
        real_y = test("equal", y, zero)
        nan_x = test("isnan", x)
        if sine:
            re, im = pick(real_y, sh, re), pick(real_y, y, im)
        else:
            signed = pick(nan_x, y, op("multiply", op("copysign", zero, x), y))
            re, im = pick(real_y, ch, re), pick(real_y, signed, im)
        wild_y = test("logical_not", test("isfinite", y))
        zero_x = test("logical_and", test("equal", x, zero), wild_y)
        re = pick(zero_x, op("copysign", zero, x) if sine else nan, re)
        im = pick(zero_x, nan if sine else zero, im)
        inf_x = test("logical_and", test("isinf", x), wild_y)
        re = pick(inf_x, c(infinite_re) if sine else c(np.inf), re)
        im = pick(inf_x, nan, im)
        if not sine:
            return re, im
        flagged = test("logical_and", test("isnan", y),
                       test("logical_and", test("isfinite", x), test("not_equal", x, zero)))
        return _raise_invalid(b, flagged, y, (re, im), part)
    return emit


# Past these |x| (float32, float64) tanh's real part is +-1 and its imaginary part
# 4 sin y cos y exp(-2|x|) (glibc's threshold: half the exponent range)
TANH_HUGE = {4: 44.0, 8: 354.0}


def _tanh(b, args, part):
    # glibc's ctanh (NumPy's): (sinh x cosh x, sin y cos y) / (sinh^2 x + cos^2 y); past
    # TANH_HUGE (+-1, 4 sin y cos y exp(-2|x|)).  Special values: an infinite x gives
    # (+-1, a zero signed as sin y cos y for finite |y| > 1, else as y); a NaN x beside a zero
    # y is (NaN, y); else a NaN or infinite part gives (x if x == 0 else NaN, NaN).
    (x, y), = args
    op = lambda name, *xs: b.scalar(name, xs, part)     # noqa: E731
    pick = lambda cond, u, v: b.scalar("select", (cond, u, v), part)    # noqa: E731
    test = lambda name, *xs: b.scalar(name, xs, BOOL)   # noqa: E731
    c = lambda v: b.scalar_const(v, part)               # noqa: E731
    sin_y, cos_y = op("sin", y), op("cos", y)
    sin_cos = op("multiply", sin_y, cos_y)
    sh, ch = op("sinh", x), op("cosh", x)
    den = op("add", op("multiply", sh, sh), op("multiply", cos_y, cos_y))
    re = op("divide", op("multiply", sh, ch), den)
    im = op("divide", sin_cos, den)
    one = op("copysign", c(1.0), x)
    fade = op("exp", op("negative", op("fabs", x)))
    huge = test("greater", op("fabs", x), c(TANH_HUGE[part.itemsize]))
    re = pick(huge, one, re)
    im = pick(huge, op("multiply", op("multiply", op("multiply", c(4.0), sin_cos), fade), fade), im)
    zero, nan = c(0.0), c(np.nan)
    finite_y = test("isfinite", y)
    inf_x = test("isinf", x)
    turn = test("logical_and", finite_y, test("greater", op("fabs", y), c(1.0)))
    inf_im = op("copysign", zero, pick(turn, sin_cos, y))
    wild = test("logical_not", test("logical_and", test("isfinite", x), finite_y))
    nan_x_real_y = test("logical_and", test("isnan", x), test("equal", y, zero))
    re = pick(wild, pick(inf_x, one, pick(nan_x_real_y, x, pick(test("equal", x, zero), x, nan))), re)
    im = pick(wild, pick(inf_x, inf_im, pick(nan_x_real_y, y, nan)), im)
    return re, im


def _tan(b, args, part):
    # ctan(z) = -i ctanh(iz), iz = -y + ix
    (x, y), = args
    re, im = _tanh(b, ((b.scalar("negative", (y,), part), x),), part)
    return im, b.scalar("negative", (re,), part)


def _trigonometric(sine):
    # csin(z) = -i csinh(iz), ccos(z) = ccosh(iz), iz = -y + ix (glibc's csin gives +inf
    # where this csinh's real part is infinite: the sign is unspecified in C99)
    hyperbolic = _hyperbolic(sine, -np.inf)

    def emit(b, args, part):
        (x, y), = args
        re, im = hyperbolic(b, ((b.scalar("negative", (y,), part), x),), part)
        return (im, b.scalar("negative", (re,), part)) if sine else (re, im)
    return emit


def _either(test, join):
    def emit(b, args, part):
        (re, im), = args
        return b.scalar(join, (b.scalar(test, (re,), BOOL), b.scalar(test, (im,), BOOL)), BOOL)
    return emit


def truth(b, value, part) -> str:
    """The bool statement ``value != 0`` of a complex pair (either part nonzero)."""
    zero = b.scalar_const(0.0, part)
    return b.scalar("logical_or", (b.scalar("not_equal", (value[0], zero), BOOL),
                                   b.scalar("not_equal", (value[1], zero), BOOL)), BOOL)


def _logical(name):
    def emit(b, args, part):
        bools = [truth(b, a, part) if isinstance(a, tuple) else a for a in args]
        return b.scalar(name, bools, BOOL)
    return emit


OPS = {
    "add": _add, "subtract": _subtract, "negative": _negative, "multiply": _multiply,
    "divide": _divide, "reciprocal": _reciprocal, "sign": _sign, "absolute": _absolute,
    "equal": _equal, "not_equal": _not_equal,
    "isnan": _either("isnan", "logical_or"), "isinf": _either("isinf", "logical_or"),
    "isfinite": _either("isfinite", "logical_and"),
    **{name: _ordering(name) for name in ORDER},
    "exp": _exp, "sqrt": _sqrt, "log": _log, "log2": _scaled_log(float(np.log2(np.e))),
    "log10": _scaled_log(float(np.log10(np.e))), "exp2": _exp2,
    "sinh": _hyperbolic(True), "cosh": _hyperbolic(False), "sin": _trigonometric(True),
    "cos": _trigonometric(False), "tanh": _tanh, "tan": _tan,
    "maximum": _extreme("greater_equal", 0), "minimum": _extreme("less_equal", 0),
    "fmax": _extreme("greater_equal", 1), "fmin": _extreme("less_equal", 1),
    **{name: _logical(name) for name in ("logical_and", "logical_or", "logical_xor", "logical_not")},
}


def emit(b, name: str, args, part) -> str | tuple:
    """Complex scalar op ``name`` on ``args`` (pairs; a logical op's real operands may be
    bool statements) whose parts are ``part`` floats: a pair, or a bool statement."""
    if name not in OPS:
        raise NotImplementedError(f"no kernel code for complex {name}")
    return OPS[name](b, args, part)
