"""Transcendental functions that compute an element the same way wherever it falls.

The loop vectorizer splits a loop into a vector body, a vector epilogue of another width
and a scalar remainder, and a kernel's loops split again across threads and into a
reduction's parts.  When each piece called its own implementation (libmvec's 16-lane and
4-lane variants, scalar libm) ``cos(0.75)`` at index 0 differed from ``cos(0.75)`` at
index 10, so ``x == x.max()`` masks missed their maximum and ties flipped in sorts.

So each function has one implementation per dtype: glibc libmvec's variant for the vector
width the loop vectorizer uses on this CPU (``W`` lanes; ``_isa``).  Kernels call
``@lz.<fn>.<f32|f64>``, an internal function that runs that variant on a splat of its
argument and keeps lane 0 (what the remainder loop and any code left scalar call), and
the call names, in its ``vector-function-abi-variant`` attribute, variants for the vector
widths its loop may use that run the same ``W``-lane function: itself at ``W`` lanes, on
a padded vector at ``W/2`` and on two halves at ``2W`` (``_widths``).  Padding lanes
repeat lane 0, a value of the data, so they never take a slow special-value path the data
does not.  A function libmvec lacks calls scalar libm at every element, marked
``nobuiltin`` so LLVM does not vectorize it into another implementation.  Loops calling
these functions interleave once (``codegen``): each call clobbers every vector register.

``power_uniform`` is NumPy's power for an exponent that is one value for the whole loop
(``_power_uniform_function``): out of line too, so a kernel's loop holds one call rather
than branches on the exponent that loop unswitching would copy the loop for.
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
# Functions around the vector calls (splats, pads, slices; the scalar remainder) skip the
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
    gets its definitions from ``definitions`` through ``e.math``, which collects
    ``(name, itemsize, width)`` (width None: the scalar function)."""
    t, bits, size = _type(dt.itemsize), dt.itemsize * 8, dt.itemsize
    operands = ", ".join(f"{t} {a}" for a in args)
    variant = vector_variant(name, size)
    if name == POWER_UNIFORM:
        # its scalar body takes sqrt (declared like the kernels' own) and pow
        e.declarations.add(f"declare {t} @llvm.sqrt.f{bits}({t}) #0")
        if variant is None:
            e.declarations.add(f"declare {t} @{_libm_name('pow', size)}({t}, {t}) #0")
        else:
            e.math.add(("pow", size, None))
    elif variant is None:
        fn = _libm_name(name, size)
        e.declarations.add(f"declare {t} @{fn}({', '.join([t] * len(args))}) #0")
        return e.assign(f"call {t} @{fn}({operands}) nobuiltin {_ATTRS}")
    e.math.add((name, size, None))
    e.math_calls += 1
    mappings = ""
    if variant is not None:
        widths = _widths(variant[1], size, e.value_sizes)
        e.math.update((name, size, w) for w in widths if w != variant[1])
        shim, params = _shim(name, size), "v" * ARITY[name]
        listed = ",".join(f"_ZGV_LLVM_N{w}{params}_{shim}({_variant_name(name, size, w)})"
                          for w in widths)
        mappings = f" \"vector-function-abi-variant\"=\"{listed}\""
    return e.assign(f"call {t} @{_shim(name, size)}({operands}) {_ATTRS}{mappings}")


def _widths(lanes: int, itemsize: int, value_sizes) -> tuple:
    """The vector widths a loop may call this function at: ``lanes`` when its dtype is the
    loop's widest type; half that beside a wider type (float32 math in a float64 loop),
    twice beside a narrower one.  (Any other width calls the scalar function once per
    lane: slower, the same values.)"""
    return ((lanes,) + ((max(lanes // 2, 2),) if any(s > itemsize for s in value_sizes) else ())
            + ((2 * lanes,) if any(4 <= s < itemsize for s in value_sizes) else ()))


def _variant_name(name, itemsize, width) -> str:
    symbol, lanes = vector_variant(name, itemsize)
    if width == lanes and name != POWER_UNIFORM:
        return symbol
    return f"{_shim(name, itemsize)}.v{width}"


def definitions(used) -> list:
    """IR text for what kernels call (``(name, itemsize, width)``, see ``call``):
    declarations, the scalar functions, the vector variants, and ``@llvm.compiler.used``
    keeping the variants (referenced only from call attributes) alive until the vectorizer
    uses them."""
    declarations, lines, kept = set(), [], []
    for name, itemsize in sorted({(n, i) for n, i, _ in used}):
        variant = vector_variant(name, itemsize)
        if name == POWER_UNIFORM:
            lines.append(_power_uniform_function(itemsize, None, declarations))
            if variant is not None:       # the W-lane function every width goes through
                lines.append(_power_uniform_function(itemsize, variant[1], declarations))
                kept.append(f"ptr @{_variant_name(name, itemsize, variant[1])}")
        else:
            symbol, lanes = variant
            vec = f"<{lanes} x {_type(itemsize)}>"
            declarations.add(f"declare {vec} @{symbol}({', '.join([vec] * ARITY[name])}) {_ATTRS}")
            lines.append(_scalar_function(name, itemsize, symbol, lanes))
        for width in sorted(w for n, i, w in used if (n, i) == (name, itemsize) and w is not None):
            lanes = variant[1]
            lines.append(_vector_function(name, itemsize, _variant_name(name, itemsize, lanes),
                                          lanes, width))
            kept.append(f"ptr @{_variant_name(name, itemsize, width)}")
    if kept:
        lines.append(f"@llvm.compiler.used = appending global [{len(kept)} x ptr] "
                     f"[{', '.join(kept)}], section \"llvm.metadata\"")
    return sorted(declarations) + lines


def _mask(indices) -> str:
    indices = list(indices)
    return f"<{len(indices)} x i32> <" + ", ".join(f"i32 {i}" for i in indices) + ">"


def _scalar_function(name, itemsize, symbol, lanes) -> str:
    """The scalar entry: never inlined, so the vectorizer sees the call and its variants."""
    t, arity = _type(itemsize), ARITY[name]
    vec = f"<{lanes} x {t}>"
    body = []
    for i in range(arity):
        body.append(f"  %s{i} = insertelement {vec} poison, {t} %a{i}, i64 0")
        body.append(f"  %v{i} = shufflevector {vec} %s{i}, {vec} poison, <{lanes} x i32> zeroinitializer")
    body.append(f"  %r = call {vec} @{symbol}({', '.join(f'{vec} %v{i}' for i in range(arity))})")
    body.append(f"  %e = extractelement {vec} %r, i64 0")
    params = ", ".join(f"{t} %a{i}" for i in range(arity))
    return "\n".join([f"define internal {t} @{_shim(name, itemsize)}({params}) {_GLUE} {{"]
                     + body + [f"  ret {t} %e", "}"])


def _vector_function(name, itemsize, symbol, lanes, width) -> str:
    """The ``width``-lane variant calling ``symbol`` (``lanes`` wide): one padded call below
    ``lanes``, slices above."""
    t, arity = _type(itemsize), ARITY[name]
    vec, wide = f"<{lanes} x {t}>", f"<{width} x {t}>"
    body, results = [], []
    for chunk in range(max(1, width // lanes)):
        picked = [chunk * lanes + k if k < width else 0 for k in range(lanes)]
        for i in range(arity):
            body.append(f"  %c{chunk}a{i} = shufflevector {wide} %a{i}, {wide} poison, {_mask(picked)}")
        call_args = ", ".join(f"{vec} %c{chunk}a{i}" for i in range(arity))
        body.append(f"  %r{chunk} = call {vec} @{symbol}({call_args})")
        results.append((f"%r{chunk}", lanes))
    result = _concatenate(body, results, t, width)
    params = ", ".join(f"{wide} %a{i}" for i in range(arity))
    return "\n".join([f"define internal {wide} @{_shim(name, itemsize)}.v{width}({params}) {_GLUE} {{"]
                     + body + [f"  ret {wide} {result}", "}"])


def _concatenate(body, parts, t, width) -> str:
    """Join ``parts`` (SSA name, lanes) into one vector of ``width`` lanes (a prefix when
    the one part is wider: the padded call)."""
    counter = 0
    while len(parts) > 1:
        joined = []
        for (a, n), (b, _) in zip(parts[0::2], parts[1::2]):
            counter += 1
            body.append(f"  %j{counter} = shufflevector <{n} x {t}> {a}, <{n} x {t}> {b}, "
                        f"{_mask(range(2 * n))}")
            joined.append((f"%j{counter}", 2 * n))
        parts = joined
    name, lanes = parts[0]
    if lanes == width:
        return name
    body.append(f"  %prefix = shufflevector <{lanes} x {t}> {name}, <{lanes} x {t}> poison, "
                f"{_mask(range(width))}")
    return "%prefix"


def _power_uniform_function(itemsize, width, declarations) -> str:
    """NumPy's float power loop for an exponent of stride 0: -1, 0, 0.5, 1 and 2 give
    ``1/a``, ``1``, ``sqrt(a)``, ``a`` and ``a*a`` (exact IEEE operations, so every width
    agrees), any other exponent ``pow`` (one implementation, see the module docstring).
    The exponent is one value, so the function returns as soon as every lane has the
    same fast exponent (``x ** 2.0`` costs a multiply, not a pow); mixed lanes (never
    from a kernel, but the variant must match the scalar function) take every path.
    ``width`` None: the scalar function."""
    scalar, bits = _type(itemsize), itemsize * 8
    t = scalar if width is None else f"<{width} x {scalar}>"
    cond = "i1" if width is None else f"<{width} x i1>"
    sqrt = f"llvm.sqrt.f{bits}" if width is None else f"llvm.sqrt.v{width}f{bits}"
    if width is None:
        variant = vector_variant("pow", itemsize)
        pow_fn = _shim("pow", itemsize) if variant else _libm_name("pow", itemsize)
        pow_attrs = _ATTRS if variant else f"nobuiltin {_ATTRS}"
    else:
        pow_fn, pow_attrs = _variant_name("pow", itemsize, width), _ATTRS
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
