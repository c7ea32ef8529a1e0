"""Fusion decisions: kernel counts for the canonical patterns (issue 4), and no
intermediate buffers for anything fused."""
import re

import numpy as np
import pytest

import lazynum as lnp

from .llvm_harness import compiled, on_llvm

RNG = np.random.default_rng(7)
X = RNG.standard_normal((33, 70)).astype(np.float32)


def softmax(m, x):
    e = m.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layernorm(m, x):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / m.sqrt(var + 1e-5)


# (name, function, kernels, extern calls): the documented counts.
CANONICAL = [
    ("elementwise chain", lambda m, x: 2 * x + 3 * x * x - x / (x + 1), 1, 0),
    ("mask -> sum", lambda m, x: (x * (x > 0.5)).sum(), 1, 0),
    ("where -> sum over rows", lambda m, x: m.where(x > 0, x, 0).sum(axis=1), 1, 0),
    ("softmax (max, sum, normalize: 3 phases)", softmax, 1, 0),
    ("layernorm (mean, variance, normalize: 3 phases)", layernorm, 1, 0),
    ("x - x.mean(axis)", lambda m, x: x - x.mean(axis=1, keepdims=True), 1, 0),
    # the result keeps NumPy's 'K' layout: a free NumPy view of the kernel's output
    ("transpose + slice + negative stride views", lambda m, x: x.T[::-2, 1:] * 2 + 1, 1, 1),
    ("matmul epilogue: extern then fused bias+relu", lambda m, x: m.maximum(x @ x.T + 1, 0), 1, 1),
]


@pytest.mark.parametrize("name, fn, kernels, externs", CANONICAL, ids=[c[0] for c in CANONICAL])
def test_canonical_patterns_compile_to_the_documented_kernel_counts(name, fn, kernels, externs):
    value, program = compiled(fn, X)
    assert (program.kernel_count, program.extern_count) == (kernels, externs), program.describe()
    np.testing.assert_allclose(value, fn(np, X), rtol=2e-5, atol=1e-5)


def test_fused_intermediates_get_no_buffer():
    # Only the output is allocated: the chain's temporaries live in registers.
    _, program = compiled(lambda m, x: m.sqrt(m.abs(x) + 1) * 2 - x, X)
    assert len(program.values) == 1


def test_a_value_read_by_an_extern_and_a_kernel_is_materialized_once():
    def fn(m, x):
        y = m.exp(x)
        return m.sort(y, axis=1) + y
    value, program = compiled(fn, X)
    assert (program.kernel_count, program.extern_count) == (2, 1)
    np.testing.assert_allclose(value, fn(np, X), rtol=1e-5)


def test_refused_fusions_are_recorded_and_logged(capsys):
    def fn(m, x):
        s = x.sum(axis=1, keepdims=True)
        return x + s[::-1]          # reads the row sums of *other* rows: not a row epilogue
    with lnp.config(logs="fusion"):
        value, program = compiled(fn, X)
    np.testing.assert_allclose(value, fn(np, X), rtol=1e-5, atol=1e-5)
    assert program.kernel_count == 2
    err = capsys.readouterr().err
    assert "not fused" in err


def test_a_refused_fusion_names_both_nodes_with_their_lines_and_the_reason(capsys):
    def fn(m, x):
        total = (x * 2.0).sum()
        rows = x.sum(axis=0)
        return (rows + total).sum()
    first = fn.__code__.co_firstlineno
    with lnp.config(logs="fusion"):
        compiled(fn, X)
    refusals = [line for line in capsys.readouterr().err.splitlines() if "not fused" in line]
    assert len(refusals) == 1, refusals
    pattern = (r"\[lazynum:fusion\] not fused: reduce_sum %\d+ at (.+):(\d+) with reduce_sum %\d+ at "
               r"(.+):(\d+): it reduces axes \(0,\) of extents \(n\d\); the kernel's reductions reduce axes")
    match = re.match(pattern, refusals[0])
    assert match, refusals[0]
    file_a, line_a, file_b, line_b = match.groups()
    assert file_a == file_b == __file__
    assert {int(line_a), int(line_b)} <= {first + 1, first + 2, first + 3} and line_a != line_b


def test_extern_choices_are_logged_with_their_reason(capsys):
    with lnp.config(logs="fusion"):
        compiled(lambda m, x: m.sort(x, axis=1) + 1.0, X)
    err = capsys.readouterr().err
    assert "extern: sort" in err and "test_fusion.py:" in err and "NumPy reference runs" in err


def test_kernels_print_with_the_user_ops_they_came_from(capsys):
    with lnp.config(logs="kernels"):
        compiled(softmax, X)
    err = capsys.readouterr().err
    assert re.search(r"kernel k[0-9a-f]{20}\n", err) and "phase 2 (map)" in err
    assert "exp" in err and "test_fusion.py" in err


def test_programs_keep_no_graph_nodes():
    from lazynum.expr.node import Node
    _, program = compiled(layernorm, X)
    seen, stack = set(), [program.__dict__]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        assert not isinstance(obj, Node)
        if isinstance(obj, dict):
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set)):
            stack.extend(obj)
        elif hasattr(obj, "__slots__"):
            stack.extend(getattr(obj, s) for s in obj.__slots__ if hasattr(obj, s))


def test_one_program_serves_every_size():
    with on_llvm() as programs:
        for n in (5, 17, 1000):
            x = RNG.standard_normal((n, 3))
            np.testing.assert_allclose(np.asarray(softmax(lnp, lnp.asarray(x))), softmax(np, x),
                                       rtol=1e-12)
    assert len(programs) == 1


def _passes(program):
    """Reduction passes per kernel: phases that hold reductions."""
    return [sum(1 for p in k.phases if p.reductions) for k in program.kernels_ir]


def test_independent_reductions_share_one_pass_and_dependent_ones_do_not():
    x = RNG.standard_normal(5000)
    with on_llvm() as programs:
        a = lnp.asarray(x)
        results = (a.sum(), (a * a).sum(), a.max(), (a > 0).sum())
        lnp.sync(*results)
    (program,) = programs
    assert program.kernel_count == 1 and _passes(program) == [1]
    assert [len(p.reductions) for p in program.kernels_ir[0].phases] == [4]
    for got, want in zip(results, (x.sum(), (x * x).sum(), x.max(), (x > 0).sum())):
        assert float(got) == pytest.approx(float(want), rel=1e-12)
    # softmax's sum reads the max: two passes over each row, still one kernel
    _, program = compiled(softmax, X)
    assert _passes(program) == [2]


@pytest.mark.parametrize("rows", [40, 5000])
def test_reductions_over_the_same_leading_axes_share_one_pass(rows):
    points = RNG.standard_normal((rows, 3))
    labels = RNG.integers(0, 4, rows)
    with on_llvm() as programs:
        p, a = lnp.asarray(points), lnp.asarray(labels)
        means = [p[a == c].mean(axis=0) for c in range(4)]    # a sum and a count each
        lnp.sync(*means)
    (program,) = programs
    widest = max(len(phase.reductions) for k in program.kernels_ir for phase in k.phases)
    assert widest == 8
    for c, got in enumerate(means):
        np.testing.assert_allclose(np.asarray(got), points[labels == c].mean(axis=0), rtol=1e-12)


def test_map_kernels_grow_without_a_trial_lowering_per_merged_node(monkeypatch):
    """Several outputs of one map kernel: merging each pointwise root lowers nothing on trial
    (planning stayed linear in the kernel's size), and the kernel is the same one."""
    from lazynum.compile import schedule
    trials = []
    real = schedule.lower_kernel

    def counting(cut, buffers, spec, name):
        trials.append(name)
        return real(cut, buffers, spec, name)
    monkeypatch.setattr(schedule, "lower_kernel", counting)

    def fn(m, x):
        e = m.exp(x)
        return tuple(e * k + m.sqrt(e + k) for k in range(6))
    x = X.astype(np.float64)
    with on_llvm() as programs:
        lazy = fn(lnp, lnp.asarray(x))
        got = [np.asarray(v) for v in lazy]
    for value, expected in zip(got, fn(np, x)):
        np.testing.assert_allclose(value, expected, rtol=1e-12, atol=1e-14)
    assert "probe" not in trials
    assert [p.kernel_count for p in programs] == [1]
