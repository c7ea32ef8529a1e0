"""``grad``, ``value_and_grad``, ``vjp`` and ``jvp``: reverse-mode derivatives of lazy code.

The differentiated function runs once, recording its graph as usual; each differentiated
input enters it as a fresh node (an identity view of its value) that marks where the
reverse walk stops.  The backward pass is more lazy graph (``backward.py``), so a training
step's forward and backward compile into one program and replay from the cache.

While the function runs and while the backward graph is built, the automatic flush of
long pending graphs and the immediate tier are held off: either would compute (and cut)
part of the graph the gradient still has to walk.
"""
from __future__ import annotations

import functools
import numbers

import numpy as np

from ..control import settings
from ..array.arraytype import ndarray, wrap
from ..array.conversion import cast, to_node
from ..expr import derivatives as d
from ..expr.movement import VIEW
from ..expr.node import Node
from ..expr.shapes import c_strides
from . import pytree
from .backward import SyncedIntermediateError, backward

__all__ = ["grad", "value_and_grad", "vjp", "jvp"]

_UNLIMITED = 1 << 62


def _unflushed():
    """Settings block that keeps the traced graph whole: no automatic flush, and no
    immediate tier (it would compute a small node of computed arguments at once and
    leave it without arguments, which the reverse walk cannot tell from a synced one)."""
    return settings.config(flush_nodes=_UNLIMITED, flush_bytes=_UNLIMITED, immediate_below=0)


# --- inputs ----------------------------------------------------------------------------------
def _input_node(value, what: str, holomorphic: bool = False):
    """A fresh pending node holding ``value``: the differentiated input's identity.

    A new non-interned identity view, so two arguments holding the same array stay two
    inputs, and views taken inside the function are recorded as view nodes of it.
    """
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, numbers.Integral)
                                               and not isinstance(value, ndarray)):
        raise TypeError(f"grad requires floating-point inputs, but {what} is an integer "
                        f"({type(value).__name__}); pass a float array or Python float")
    base = to_node(value)
    if base.dtype.kind not in "fc":
        raise TypeError(f"grad requires floating-point or complex inputs, but {what} has dtype "
                        f"{base.dtype}; cast it to float32/float64 or leave it out of argnums")
    if holomorphic and base.dtype.kind != "c":
        raise TypeError(f"grad with holomorphic=True requires complex inputs, but {what} has "
                        f"dtype {base.dtype}")
    shape = tuple(base.shape)
    return Node(VIEW, (base,), (shape, c_strides(shape), 0), shape, base.dtype)


def _mark(tree, what: str, holomorphic: bool = False):
    """``(tree of fresh input arrays, their nodes, treedef)`` for a differentiated argument."""
    leaves, treedef = pytree.flatten(tree)
    marks = [_input_node(leaf, f"{what} (leaf {i})" if len(leaves) > 1 else what, holomorphic)
             for i, leaf in enumerate(leaves)]
    return pytree.unflatten(treedef, [wrap(m) for m in marks]), marks, treedef


def _gradient_trees(groups, cotangents) -> list:
    """One gradient tree per differentiated argument: ``groups`` holds each argument's
    ``(input nodes, treedef)``; ``cotangents`` all inputs' cotangents in order (None: an
    exact zero, no gradient reached that input)."""
    trees, k = [], 0
    for marks, treedef in groups:
        leaves = [wrap(c if c is not None else d.zeros(m.shape, m.dtype))
                  for m, c in zip(marks, cotangents[k:k + len(marks)])]
        trees.append(pytree.unflatten(treedef, leaves))
        k += len(marks)
    return trees


def _first_id(inputs):
    """Nodes with a larger id than this were recorded by the differentiated function."""
    return min((m.id for m in inputs), default=None)


def _check_inputs_pending(inputs) -> None:
    """A sync inside the function computes its inputs too (they are live arrays of the
    synced graph); views taken after it would read plain data, cut from the gradient."""
    if any(m.buffer is not None for m in inputs):
        raise SyncedIntermediateError(
            "a sync inside the differentiated function (printing, float()/bool()/item(), "
            "numpy.asarray, or a NumPy fallback such as interp/convolve) computed a value that depends on a differentiated input, so "
            "the gradient could miss what followed; keep the function free of syncs "
            "(LAZYNUM_SYNC=raise finds them)")


def _argnums(argnums, count):
    single = isinstance(argnums, int)
    nums = (argnums,) if single else tuple(argnums)
    for n in nums:
        if not isinstance(n, int) or not -count <= n < count:
            raise ValueError(f"argnums {argnums!r} out of range for {count} positional arguments")
    return single, tuple(n % count for n in nums)


# --- outputs ---------------------------------------------------------------------------------
def _scalar_output(out, name, holomorphic=False):
    node = to_node(out)
    if holomorphic and node.dtype.kind != "c":
        raise TypeError(f"{name} with holomorphic=True requires a complex output, got dtype "
                        f"{node.dtype}")
    if not holomorphic and node.dtype.kind != "f":
        hint = (" (pass holomorphic=True for the complex derivative of a holomorphic "
                "function, or use vjp)" if node.dtype.kind == "c" else "")
        raise TypeError(f"{name} requires a real floating-point output, got dtype {node.dtype}{hint}")
    if tuple(node.shape) != ():
        raise TypeError(f"{name} is defined for scalar-output functions only; the output has "
                        f"shape {tuple(node.shape)} (use vjp for other outputs)")
    return node


def _split_aux(result, has_aux, name):
    if not has_aux:
        return result, None
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise TypeError(f"{name}(has_aux=True) needs the function to return a pair (output, aux)")
    return result[0], result[1]


# --- public API ------------------------------------------------------------------------------
def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False):
    """Make a function that returns ``fun``'s value and its gradient.

    Parameters
    ----------
    fun : callable
        Returns a scalar of a floating dtype (a 0-d lazynum array, NumPy scalar or float),
        or ``(scalar, aux)`` with ``has_aux``.
    argnums : int or tuple of int, optional
        Positional arguments to differentiate (default the first).  Each may be an array
        (lazynum or NumPy, floating or complex dtype), a Python float or complex, or a
        tuple/list/dict of them.  The gradient of a real-valued function at a complex
        input ``z = x + iy`` is ``df/dx - i df/dy`` (JAX's convention).
    has_aux : bool, optional
        ``fun`` returns ``(output, aux)``; aux is passed through, not differentiated.
    holomorphic : bool, optional
        ``fun`` is holomorphic, with complex inputs and a complex output: the gradient is
        its complex derivative ``f'(z)`` (as ``jax.grad(..., holomorphic=True)``).

    Returns
    -------
    callable
        ``(*args, **kwargs) -> (value, gradient)`` (``((value, aux), gradient)`` with
        ``has_aux``).  The gradient has the structure, shapes and dtypes of the
        differentiated argument (a tuple of them when ``argnums`` is a tuple).  Everything
        is lazy: value and gradient compute at the next sync, as one program.

    Raises
    ------
    TypeError
        For an integer or bool input, a non-scalar output, or an output that is not real
        floating point (complex, with ``holomorphic=True``; then inputs must be complex).
    """
    @functools.wraps(fun)
    def value_and_grad_fun(*args, **kwargs):
        single, nums = _argnums(argnums, len(args))
        args = list(args)
        marked = []
        for n in nums:
            args[n], marks, treedef = _mark(args[n], f"argument {n}", holomorphic)
            marked.append((marks, treedef))
        with _unflushed():
            result = fun(*args, **kwargs)
            out, aux = _split_aux(result, has_aux, "value_and_grad")
            node = _scalar_output(out, "grad", holomorphic)
            inputs = [m for marks, _ in marked for m in marks]
            _check_inputs_pending(inputs)
            start = _first_id(inputs)
            cotangents = backward([node], [d.full((), 1, node.dtype)], inputs, traced_after=start)
        grads = _gradient_trees(marked, cotangents)
        value = wrap(node)
        gradient = grads[0] if single else tuple(grads)
        return ((value, aux) if has_aux else value), gradient
    return value_and_grad_fun


def grad(fun, argnums=0, has_aux=False, holomorphic=False):
    """Make a function that returns the gradient of scalar-valued ``fun``.

    See :func:`value_and_grad` for the parameters; the returned function gives only the
    gradient (``(gradient, aux)`` with ``has_aux``).  Gradients of gradients work:
    ``grad(grad(f))`` differentiates the backward graph, which is made of ordinary ops.

    Examples
    --------
    >>> import lazynum as lnp
    >>> df = lnp.grad(lambda x: (x ** 3).sum())
    >>> df(lnp.asarray([1.0, 2.0])).tolist()
    [3.0, 12.0]
    """
    value_and_grad_fun = value_and_grad(fun, argnums, has_aux, holomorphic)

    @functools.wraps(fun)
    def grad_fun(*args, **kwargs):
        (value, gradient) = value_and_grad_fun(*args, **kwargs)
        return (gradient, value[1]) if has_aux else gradient
    return grad_fun


def vjp(fun, *primals, has_aux=False):
    """Evaluate ``fun(*primals)`` and return its pullback (vector-Jacobian product).

    Parameters
    ----------
    fun : callable
        Takes the primals; returns an array or a tuple/list/dict of arrays.
    *primals
        Floating-point or complex arrays, Python floats, or trees of them (all are
        differentiated).  A complex cotangent ``c`` pulls back as JAX's does: for a
        holomorphic ``fun`` it is ``c * f'(z)``, unconjugated (docs/autograd.md).
    has_aux : bool, optional
        ``fun`` returns ``(output, aux)``; aux is returned as a third value.

    Returns
    -------
    output, pullback[, aux]
        ``pullback(cotangent)`` takes a cotangent with the structure, shapes and dtypes of
        ``output`` and returns a tuple with one gradient per primal.  It may be called more
        than once, also after ``output`` was synced.
    """
    marked = [_mark(p, f"primal {i}") for i, p in enumerate(primals)]
    args = [tree for tree, _, _ in marked]
    groups = [(marks, treedef) for _, marks, treedef in marked]
    inputs = [m for marks, _ in groups for m in marks]
    with _unflushed():
        start = _first_id(inputs)
        out, aux = _split_aux(fun(*args), has_aux, "vjp")
        out_leaves, out_tree = pytree.flatten(out)
        out_nodes = [to_node(leaf) for leaf in out_leaves]
        _check_inputs_pending(inputs)
        snapshot = _record_graph(out_nodes, {m.id for m in inputs})
    output = pytree.unflatten(out_tree, [wrap(n) for n in out_nodes])

    def pullback(cotangent):
        ct_leaves, ct_tree = pytree.flatten(cotangent)
        if not pytree.same_structure(ct_tree, out_tree):
            raise ValueError(f"cotangent structure {ct_tree} does not match the output's {out_tree}")
        seeds = [_seed(ct, node) for ct, node in zip(ct_leaves, out_nodes)]
        with _unflushed():
            cotangents = backward(out_nodes, seeds, inputs, snapshot=snapshot, traced_after=start)
        return tuple(_gradient_trees(groups, cotangents))
    return (output, pullback, aux) if has_aux else (output, pullback)


def _seed(cotangent, out_node):
    """The cotangent for one output, checked against it (None for an output that is not
    float or complex)."""
    if out_node.dtype.kind not in "fc":
        return None
    node = to_node(cotangent)
    if tuple(node.shape) != tuple(out_node.shape):
        raise ValueError(f"cotangent shape {tuple(node.shape)} does not match the output's "
                         f"{tuple(out_node.shape)}")
    return cast(node, out_node.dtype)


def _record_graph(outputs, input_ids) -> dict:
    """Node id -> arguments for the pending graph under ``outputs`` (stopping at inputs),
    so a pullback can walk it even after a sync has computed (and cut) it."""
    record, stack = {}, [n for n in outputs if n.buffer is None]
    while stack:
        node = stack.pop()
        if node.id in record or node.id in input_ids:
            continue
        record[node.id] = node.args
        stack.extend(a for a in node.args if a.buffer is None and a.id not in record)
    return record


def jvp(fun, primals, tangents):
    """Forward-mode product ``J(primals) @ tangents`` (built from two reverse passes).

    Parameters
    ----------
    fun : callable
        As for :func:`vjp`.
    primals, tangents : tuple
        Positional arguments and tangents of the same structures, shapes and dtypes.

    Returns
    -------
    (output, tangent_out)
        ``tangent_out`` has the output's structure.  The pullback is linear in its
        cotangent, so differentiating it with respect to that cotangent (at zero) gives the
        Jacobian-vector product.
    """
    primals, tangents = tuple(primals), tuple(tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"jvp: {len(primals)} primals but {len(tangents)} tangents")
    output, pullback = vjp(fun, *primals)
    out_leaves, out_tree = pytree.flatten(output)
    zero = pytree.unflatten(out_tree, [wrap(d.zeros(leaf.shape, leaf.dtype)) for leaf in out_leaves])
    _, transpose_pullback = vjp(pullback, zero)
    (tangent_out,) = transpose_pullback(tangents)
    return output, tangent_out
