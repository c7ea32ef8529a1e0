"""The reverse pass: walk a recorded graph from its outputs and build the cotangent graph.

Nothing is computed here.  The walk visits the pending nodes between the outputs and the
differentiated inputs in reverse dependency order (node ids grow with creation, so sorting
ids is a topological order: no recursion, any depth), applies each op's VJP rule (declared
beside the op, ``Op.vjp``) and sums the cotangents that reach a node from its users.  The
result is more lazy graph, which the next sync compiles together with the forward pass.
"""
from __future__ import annotations

import functools

from ..expr.derivatives import Masked, NoGradient, add, call, is_inexact, masked


class SyncedIntermediateError(RuntimeError):
    """A value on the path from the inputs to the output was computed (synced) while the
    function ran, so the graph behind it is gone and no gradient can flow through it."""


def backward(outputs, seeds, inputs, snapshot=None, traced_after=None) -> list:
    """Cotangents of ``inputs`` (nodes) given ``seeds`` (cotangent nodes, or None) for
    ``outputs``; None for an input no gradient reaches.

    ``snapshot`` maps node ids to their arguments as recorded (a ``vjp`` pullback called
    after its output was synced walks that record).  ``traced_after``: nodes with a larger
    id were created by the differentiated function; finding one synced is an error.
    """
    input_ids = {node.id for node in inputs}
    reached, args_of = _reachable(outputs, input_ids, snapshot or {}, traced_after)
    order = sorted(reached)
    relevant = _relevant(order, reached, args_of, input_ids)
    cotangents: dict = {}
    masks: dict = {}             # node id -> bool node outside which its cotangent is zero
    for out, seed in zip(outputs, seeds):
        if seed is not None and out.id in relevant:
            _accumulate(cotangents, masks, out, seed, None, "the output")
    for node_id in reversed(order):
        if node_id in input_ids or node_id not in relevant:
            continue
        g = cotangents.pop(node_id, None)
        if g is not None:
            node = reached[node_id]
            args = args_of.get(node_id, node.args)
            _propagate(node, args, g, masks.pop(node_id, None), relevant, cotangents, masks)
    return [cotangents.get(node.id) for node in inputs]


def _reachable(outputs, input_ids, snapshot, traced_after):
    """Nodes reachable from ``outputs`` (stopping at inputs and computed values) and the
    arguments to walk for each."""
    reached, args_of = {}, {}
    stack = list(outputs)
    while stack:
        node = stack.pop()
        if node.id in reached:
            continue
        reached[node.id] = node
        if node.id in input_ids:
            continue
        args = node.args if node.buffer is None else snapshot.get(node.id)
        if args is None:
            if traced_after is not None and node.id > traced_after and node.op.kind != "leaf":
                raise SyncedIntermediateError(
                    f"a {node.op.name} result computed inside the differentiated function was "
                    "synced (printed, converted with float()/bool()/item(), or computed with a "
                    "live array that was), so its graph is gone and no gradient can flow "
                    "through it; keep the function free of syncs (LAZYNUM_SYNC=raise finds them)")
            continue
        args_of[node.id] = args
        stack.extend(a for a in args if a.id not in reached)
    return reached, args_of


def _relevant(order, reached, args_of, input_ids) -> set:
    """Ids of float and complex nodes that depend on an input (only they carry
    cotangents; a complex one's cotangent is complex, in JAX's convention)."""
    relevant = set()
    for node_id in order:
        if node_id in input_ids:
            relevant.add(node_id)
            continue
        args = args_of.get(node_id)
        if args and any(a.id in relevant for a in args):
            if is_inexact(reached[node_id]):
                relevant.add(node_id)
    return relevant


def _propagate(node, args, g, mask, relevant, cotangents, masks) -> None:
    """Apply ``node``'s VJP rule to its cotangent ``g`` and pass the results to its args.

    ``mask`` (None, a bool node, or a function that builds one): ``g`` is exactly zero
    where it is false.  Through an elementwise op the same positions of a same-shaped
    argument get zero, so the mask is re-applied to the rule's result (a derivative that
    is inf or NaN there would make ``0 * inf``) and travels on; a view maps it onto its
    base.  Masks are built only where they are applied: an unused node would linger.
    """
    rule = node.op.vjp
    if isinstance(rule, NoGradient):
        return
    if rule is None:
        raise NotImplementedError(f"no VJP rule for op {node.op.name!r}: gradients cannot flow "
                                  "through it yet (its registration declares none)")
    keeps_zeros = getattr(rule, "keeps_zeros", False)
    mask_node = _once(mask)
    contributions = _apply_rule(rule, node, args, g, mask if keeps_zeros else mask_node, relevant)
    elementwise = mask is not None and node.op.kind == "elementwise"
    carry = getattr(rule, "carry_mask", None) if mask is not None else None
    for index, (arg, contribution) in enumerate(zip(args, contributions)):
        if contribution is None or arg.id not in relevant:
            continue
        arg_mask = None
        if isinstance(contribution, Masked):
            contribution, arg_mask = contribution.value, contribution.mask
        elif elementwise and arg.shape == node.shape:
            arg_mask = mask
            if not keeps_zeros and mask_node() is not None:
                contribution, arg_mask = masked(mask_node(), contribution), mask_node()
        elif carry is not None:       # a view moves zeros: the mask maps onto its base
            arg_mask = functools.partial(_carried, carry, node, mask_node, index)
        _accumulate(cotangents, masks, arg, contribution, arg_mask, f"op {node.op.name!r}")


def _apply_rule(rule, node, args, g, mask, relevant):
    """Call ``rule`` with the options it takes (``needs``: build only for arguments a
    gradient must reach; ``mask``: mask before summing to broadcast operands)."""
    options = {}
    if getattr(rule, "takes_needs", False):
        options["needs"] = tuple(a.id in relevant for a in args)
    if getattr(rule, "takes_mask", False):
        built = mask() if callable(mask) and getattr(mask, "is_once", False) else mask
        if built is not None:
            options["mask"] = built
    restore = node.buffer is not None and not node.args and args
    if restore:                       # a synced node, walked from the pullback's record
        node.args = args
    try:
        return rule(node, g, **options)
    finally:
        if restore:
            node.args = ()


def _once(mask):
    """A function returning ``mask`` as a node (or None), built at most once."""
    built = []

    def get():
        if not built:
            built.append(_built(mask))
        return built[0]
    get.is_once = True
    return get


def _carried(carry, node, mask_node, index):
    mask = mask_node()
    return None if mask is None else carry(node, mask, index)


def _accumulate(cotangents, masks, node, contribution, mask, source) -> None:
    if contribution.shape != node.shape or contribution.dtype != node.dtype:
        raise AssertionError(f"VJP of {source} gave a cotangent {contribution.dtype}"
                             f"{list(contribution.shape)} for a {node.dtype}{list(node.shape)} value")
    held = cotangents.get(node.id)
    if held is None:
        cotangents[node.id] = contribution
        masks[node.id] = mask
        return
    cotangents[node.id] = add(held, contribution)
    known = masks.get(node.id)
    if known is None or mask is None:
        masks[node.id] = None         # some contribution may be nonzero anywhere
    elif known is not mask:
        masks[node.id] = functools.partial(_either, known, mask)


def _either(first, second):
    first, second = _built(first), _built(second)
    return None if first is None or second is None else call("logical_or", first, second)


def _built(mask):
    """A mask given as a function (built only when used; it may find no mask) as a node."""
    return mask() if callable(mask) else mask
