"""Transcendental functions that compute an element the same way wherever it falls.

The loop vectorizer splits a loop into a vector body, a vector epilogue of another width
and a scalar remainder, and a kernel's loops split again across threads and into a
reduction's parts.  When each piece called its own implementation (libmvec's 16-lane and
4-lane variants, scalar libm) ``cos(0.75)`` at index 0 differed from ``cos(0.75)`` at
index 10, so ``x == x.max()`` masks missed their maximum and ties flipped in sorts.

So each function has one implementation per dtype: glibc libmvec's variant for the vector
width the loop vectorizer uses on this CPU (``W`` lanes; ``_isa``).  Kernels call
``@lz.<fn>.<f32|f64>``, an internal function that runs that variant on a splat of its
argument and keeps lane 0 (what remainder loops and code left scalar call), and the call
names, in its ``vector-function-abi-variant`` attribute, the variant itself as its
``W``-lane version.  No other width is offered: a loop mixing float32 and float64 then
picks a width at which its calls are that variant (padded or split variants measured
slower than that choice), and any call left at another width runs the scalar function
per lane, still the same values.  A function libmvec lacks calls scalar libm at every
element, marked ``nobuiltin`` so LLVM does not vectorize it into another implementation.
Loops calling these functions interleave once (``codegen``): each call clobbers every
vector register.

``pow`` is libmvec's on ``|a|`` with C's signs applied around it (``_signed_pow_function``:
libmvec's own negative-base path is scalar), and ``power_uniform`` is NumPy's power for an
exponent that is one value for the whole loop (``_power_uniform_function``): out of line
too, so a kernel's loop holds one call rather than branches on the exponent that loop
unswitching would copy the loop for.
"""
from __future__ import annotations

import functools

import llvmlite.binding as llvm
import numpy as np

from . import jit

POWER_UNIFORM = "power_uniform"
ARITY = {
    "exp": 1, "exp2": 1, "log": 1, "log2": 1, "log10": 1, "sin": 1, "cos": 1, "tan": 1,
    "expm1": 1, "log1p": 1, "cbrt": 1, "asin": 1, "acos": 1, "atan": 1, "sinh": 1, "cosh": 1,
    "tanh": 1, "asinh": 1, "acosh": 1, "atanh": 1, "atan2": 2, "hypot": 2, "pow": 2,
    POWER_UNIFORM: 2,
}
_ISAS = ((512, "e", "avx512f"), (256, "d", "avx2"), (128, "b", None))   # x86 vector ABI letters
_ATTRS = "nounwind willreturn memory(none)"
# The scalar functions (what remainder loops call: a splat around one vector call) skip the
# optimizer and get fast instruction selection: each would cost a module about a
# millisecond of compile time, and their work is small next to the call they make.
_GLUE = f"noinline optnone {_ATTRS}"


def _type(itemsize: int) -> str:
    return "float" if itemsize == 4 else "double"


def _libm_name(name: str, itemsize: int) -> str:
    return name + ("f" if itemsize == 4 else "")


def _shim(name: str, itemsize: int) -> str:
    return f"lz.{name}.f{itemsize * 8}"


@functools.lru_cache(maxsize=None)
def vector_variant(name: str, itemsize: int):
    """(libmvec symbol, lanes) of the one implementation of ``name`` for this item size, or
    None when libmvec (or this function in it) is missing: scalar libm then.
    ``power_uniform`` has pow's."""
    if name == POWER_UNIFORM:
        return vector_variant("pow", itemsize)
    bits, isa = _isa()
    lanes = bits // (8 * itemsize)
    symbol = f"_ZGV{isa}N{lanes}{'v' * ARITY[name]}_{_libm_name(name, itemsize)}"
    return (symbol, lanes) if llvm.address_of_symbol(symbol) else None


@functools.lru_cache(maxsize=None)
def _isa():
    """(bits, x86 vector ABI letter) of libmvec's variants to use: the width the loop
    vectorizer picks on this CPU (256 bits on most AVX-512 Intel CPUs, 512 on AMD's),
    so loop bodies call the variant itself, not a padded one."""
    features = llvm.get_host_cpu_features()
    usable = [(bits, isa) for bits, isa, feature in _ISAS if feature is None or features.get(feature)]
    preferred = _vectorizer_bits()
    return next(((bits, isa) for bits, isa in usable if bits <= preferred), usable[-1])


def _vectorizer_bits() -> int:
    """The vector width (bits) LLVM's loop vectorizer chooses here for a float64 loop
    calling a function with variants of every width: one O3 run over a probe module."""
    widths = (2, 4, 8, 16)
    variants = "\n".join(
        f"declare <{w} x double> @sink.v{w}(<{w} x double>) {_ATTRS}\n"
        f"define internal <{w} x double> @probe.v{w}(<{w} x double> %x) noinline {_ATTRS} {{\n"
        f"  %r = call <{w} x double> @sink.v{w}(<{w} x double> %x)\n  ret <{w} x double> %r\n}}"
        for w in widths)
    kept = ", ".join(f"ptr @probe.v{w}" for w in widths)
    mapping = ",".join(f"_ZGV_LLVM_N{w}v_probe(probe.v{w})" for w in widths)
    tm = jit.target_machine()                # also loads libmvec when the system has it
    text = f"""target triple = "{tm.triple}"
target datalayout = "{tm.target_data}"
declare double @sink(double) {_ATTRS}
define internal double @probe(double %x) noinline {_ATTRS} {{
  %r = call double @sink(double %x)
  ret double %r
}}
{variants}
@llvm.compiler.used = appending global [{len(widths)} x ptr] [{kept}], section "llvm.metadata"
define void @loop(ptr noalias %out, ptr noalias %in, i64 %n) {{
entry:
  br label %head
head:
  %i = phi i64 [0, %entry], [%next, %body]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %p = getelementptr inbounds double, ptr %in, i64 %i
  %x = load double, ptr %p
  %y = call double @probe(double %x) {_ATTRS} "vector-function-abi-variant"="{mapping}"
  %q = getelementptr inbounds double, ptr %out, i64 %i
  store double %y, ptr %q
  %next = add nsw i64 %i, 1
  br label %head
done:
  ret void
}}
"""
    loop = str(jit.optimize(text)).split("define void @loop", 1)[1]
    used = [w for w in widths if f"@probe.v{w}(" in loop]
    return 64 * max(used) if used else 1 << 30


def call(e, name: str, dt: np.dtype, args) -> str:
    """Emit ``name(*args)`` in float dtype ``dt`` (see the module docstring); the module
    gets its definitions from ``definitions`` through ``e.math``."""
    t, bits, size = _type(dt.itemsize), dt.itemsize * 8, dt.itemsize
    operands = ", ".join(f"{t} {a}" for a in args)
    variant = vector_variant(name, size)
    if name == POWER_UNIFORM:
        if variant is None:       # a scalar body on sqrt (declared like the kernels' own) and pow
            e.declarations.add(f"declare {t} @llvm.sqrt.f{bits}({t}) #0")
            e.declarations.add(f"declare {t} @{_libm_name('pow', size)}({t}, {t}) #0")
        else:
            e.math.add(("pow", size))
    elif variant is None:
        fn = _libm_name(name, size)
        e.declarations.add(f"declare {t} @{fn}({', '.join([t] * len(args))}) #0")
        return e.assign(f"call {t} @{fn}({operands}) nobuiltin {_ATTRS}")
    e.math.add((name, size))
    e.math_calls += 1
    mapping = ""
    if variant is not None:
        shim, lanes = _shim(name, size), variant[1]
        mapping = (f" \"vector-function-abi-variant\"=\"_ZGV_LLVM_N{lanes}{'v' * ARITY[name]}_"
                   f"{shim}({_vector_name(name, size)})\"")
    return e.assign(f"call {t} @{_shim(name, size)}({operands}) {_ATTRS}{mapping}")


def _vector_name(name, itemsize) -> str:
    """The ``W``-lane function: libmvec's, or ours around it for ``pow`` and
    ``power_uniform`` (``_BODIES``)."""
    symbol, lanes = vector_variant(name, itemsize)
    return f"{_shim(name, itemsize)}.v{lanes}" if name in _BODIES else symbol


def definitions(used) -> list:
    """IR text for the ``(name, itemsize)`` pairs kernels call: declarations, our ``W``-lane
    bodies (kept alive by ``@llvm.compiler.used`` until the vectorizer has used them:
    only call attributes name them) and the scalar functions (listed there too, so their
    signatures stay the ones the variant attributes describe)."""
    declarations, lines, kept = set(), [], []
    for name, itemsize in sorted(used):
        variant = vector_variant(name, itemsize)
        if variant is None:       # power_uniform without libmvec: its scalar body on libm pow
            lines.append(_power_uniform_function(itemsize, None, declarations))
            continue
        symbol, lanes = variant
        vec = f"<{lanes} x {_type(itemsize)}>"
        declarations.add(f"declare {vec} @{symbol}({', '.join([vec] * ARITY[name])}) {_ATTRS}")
        if name in _BODIES:
            lines.append(_BODIES[name](itemsize, lanes, declarations))
            kept.append(f"ptr @{_vector_name(name, itemsize)}")
        lines.append(_scalar_function(name, itemsize, _vector_name(name, itemsize), lanes))
        # Listed as used, the scalar function counts as address-taken: interprocedural
        # passes keep its signature (IPSCCP and dead-argument elimination once dropped a
        # constant argument, leaving a call that no longer matched its vector variant, and
        # LLVM's loop vectorizer aborted the process).
        kept.append(f"ptr @{_shim(name, itemsize)}")
    if kept:
        lines.append(f"@llvm.compiler.used = appending global [{len(kept)} x ptr] "
                     f"[{', '.join(kept)}], section \"llvm.metadata\"")
    return sorted(declarations) + lines


def _scalar_function(name, itemsize, callee, lanes) -> str:
    """The scalar entry: ``callee`` (the ``W``-lane function) on a splat, lane 0 of its
    result; never inlined, so the vectorizer sees the call and its variant."""
    t, arity = _type(itemsize), ARITY[name]
    vec = f"<{lanes} x {t}>"
    body = []
    for i in range(arity):
        body.append(f"  %s{i} = insertelement {vec} poison, {t} %a{i}, i64 0")
        body.append(f"  %v{i} = shufflevector {vec} %s{i}, {vec} poison, <{lanes} x i32> zeroinitializer")
    body.append(f"  %r = call {vec} @{callee}({', '.join(f'{vec} %v{i}' for i in range(arity))})")
    body.append(f"  %e = extractelement {vec} %r, i64 0")
    params = ", ".join(f"{t} %a{i}" for i in range(arity))
    return "\n".join([f"define internal {t} @{_shim(name, itemsize)}({params}) {_GLUE} {{"]
                     + body + [f"  ret {t} %e", "}"])


def _signed_pow_function(itemsize, lanes, declarations) -> str:
    """``pow`` as libmvec's on ``|a|`` with C's sign rules: negative for a negative (or
    -0.0) base and an odd integer exponent, NaN for a finite negative base and a
    non-integer one.  (libmvec's own negative-base path calls scalar pow lane by lane:
    ``(-x) ** 3`` ran 4x slower than ``x ** 3``.)  ±inf exponents count as even
    integers, as in C: ``(-1) ** inf`` is 1 and ``(-0.5) ** inf`` 0."""
    scalar, bits = _type(itemsize), itemsize * 8
    t, cond, ints = f"<{lanes} x {scalar}>", f"<{lanes} x i1>", f"<{lanes} x i{bits}>"
    fabs, floor = f"llvm.fabs.v{lanes}f{bits}", f"llvm.floor.v{lanes}f{bits}"
    for intrinsic in (fabs, floor):
        declarations.add(f"declare {t} @{intrinsic}({t}) {_ATTRS}")
    symbol, _ = vector_variant("pow", itemsize)
    body = ["entry:", f"  %abs = call {t} @{fabs}({t} %a0)",
            f"  %p = call {t} @{symbol}({t} %abs, {t} %a1)",
            f"  %bits = bitcast {t} %a0 to {ints}", f"  %negative = icmp slt {ints} %bits, zeroinitializer",
            f"  %whole = call {t} @{floor}({t} %a1)", f"  %integer = fcmp oeq {t} %whole, %a1",
            f"  %half = fmul {t} %a1, splat ({scalar} 0.5)", f"  %halfwhole = call {t} @{floor}({t} %half)",
            f"  %halves = fcmp une {t} %halfwhole, %half", f"  %odd = and {cond} %integer, %halves",
            f"  %flip = and {cond} %negative, %odd", f"  %minus = fneg {t} %p",
            f"  %signed = select {cond} %flip, {t} %minus, {t} %p",
            f"  %below = fcmp olt {t} %a0, splat ({scalar} 0.0)",
            f"  %finite = fcmp one {t} %a0, splat ({scalar} 0xFFF0000000000000)",
            f"  %fraction = fcmp one {t} %whole, %a1",
            f"  %b1 = and {cond} %below, %finite", f"  %invalid = and {cond} %b1, %fraction",
            # x86's default NaN (sign set), what libmvec's and NumPy's invalid cases give
            f"  %r1 = select {cond} %invalid, {t} splat ({scalar} 0xFFF8000000000000), {t} %signed",
            # NaN operands come back as they were (|a| dropped a's sign; 1 ** nan is 1, -1 ** nan not)
            f"  %nanb = fcmp uno {t} %a1, %a1", f"  %notone = fcmp une {t} %a0, splat ({scalar} 1.0)",
            f"  %takeb = and {cond} %nanb, %notone", f"  %r2 = select {cond} %takeb, {t} %a1, {t} %r1",
            f"  %nana = fcmp uno {t} %a0, %a0", f"  %notzero = fcmp une {t} %a1, splat ({scalar} 0.0)",
            f"  %takea = and {cond} %nana, %notzero", f"  %r = select {cond} %takea, {t} %a0, {t} %r2",
            f"  ret {t} %r", "}"]
    return "\n".join([f"define internal {t} @{_vector_name('pow', itemsize)}({t} %a0, {t} %a1) "
                      f"{_ATTRS} {{"] + body)


def _power_uniform_function(itemsize, width, declarations) -> str:
    """NumPy's float power loop for an exponent of stride 0: -1, 0, 0.5, 1 and 2 give
    ``1/a``, ``1``, ``sqrt(a)``, ``a`` and ``a*a`` (exact IEEE operations, so every width
    agrees), any other exponent ``pow`` (one implementation, see the module docstring).
    The exponent is one value, so the function returns as soon as every lane has the
    same fast exponent (``x ** 2.0`` costs a multiply, not a pow); mixed lanes (never
    from a kernel, but the variant must match the scalar function) take every path.
    ``width`` None: a scalar function on libm's pow, where libmvec has none."""
    scalar, bits = _type(itemsize), itemsize * 8
    t = scalar if width is None else f"<{width} x {scalar}>"
    cond = "i1" if width is None else f"<{width} x i1>"
    sqrt = f"llvm.sqrt.f{bits}" if width is None else f"llvm.sqrt.v{width}f{bits}"
    if width is None:
        pow_fn, pow_attrs = _libm_name("pow", itemsize), f"nobuiltin {_ATTRS}"
    else:
        pow_fn, pow_attrs = _vector_name("pow", itemsize), _ATTRS
        declarations.add(f"declare {t} @{sqrt}({t}) {_ATTRS}")
        declarations.add(f"declare i1 @llvm.vector.reduce.and.v{width}i1({cond}) {_ATTRS}")

    def const(v):
        return f"{v!r}" if width is None else f"splat ({scalar} {v!r})"
    results = {2.0: (f"fmul {t} %a0, %a0", "%square"), 0.5: (f"call {t} @{sqrt}({t} %a0)", "%root"),
               -1.0: (f"fdiv {t} {const(1.0)}, %a0", "%inverse"), 1.0: (None, "%a0"),
               0.0: (None, const(1.0))}
    body = ["entry:"]
    for k, v in enumerate((2.0, 0.5, -1.0, 1.0, 0.0)):     # the likeliest first
        body.append(f"  %is{k} = fcmp oeq {t} %a1, {const(v)}")
        every = f"%is{k}"
        if width is not None:
            body.append(f"  %every{k} = call i1 @llvm.vector.reduce.and.v{width}i1({cond} %is{k})")
            every = f"%every{k}"
        body += [f"  br i1 {every}, label %fast{k}, label %next{k}", f"fast{k}:"]
        instruction, value = results[v]
        if instruction:
            body.append(f"  {value} = {instruction}")
        body += [f"  ret {t} {value}", f"next{k}:"]
    chain = f"{t} %a0"
    for k, v in ((0, 2.0), (1, 0.5), (2, -1.0), (4, 0.0)):  # one lane's value each
        instruction, value = results[v]
        if instruction:
            body.append(f"  {value}.m = {instruction}")
            value += ".m"
        body.append(f"  %m{k} = select {cond} %is{k}, {t} {value}, {chain}")
        chain = f"{t} %m{k}"
    body += [f"  %p = call {t} @{pow_fn}({t} %a0, {t} %a1) {pow_attrs}",
             f"  %f1 = or {cond} %is0, %is1", f"  %f2 = or {cond} %f1, %is2",
             f"  %f3 = or {cond} %f2, %is3", f"  %fast = or {cond} %f3, %is4",
             f"  %r = select {cond} %fast, {chain}, {t} %p", f"  ret {t} %r", "}"]
    name = _shim(POWER_UNIFORM, itemsize) + ("" if width is None else f".v{width}")
    attrs = _GLUE if width is None else _ATTRS
    return "\n".join([f"define internal {t} @{name}({t} %a0, {t} %a1) {attrs} {{"] + body)


_BODIES = {"pow": _signed_pow_function, POWER_UNIFORM: _power_uniform_function}
