"""Reverse-mode automatic differentiation on the lazy graph.

``grad``, ``value_and_grad``, ``vjp`` (and ``jvp``, from two reverse passes) record the
function's graph and build its backward pass as more lazy graph, from the VJP rule each
primitive declares beside its registration (``lazynum/expr``).  Forward and backward
compute together at the next sync.
"""
from .api import grad, jvp, value_and_grad, vjp
from .backward import SyncedIntermediateError

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "SyncedIntermediateError"]
