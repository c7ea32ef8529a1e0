"""Backends run a cut of the pending graph and return the values of its outputs.

Interface: a backend module exposes ``run(order, outputs) -> list[numpy.ndarray]`` where
``order`` is the pending nodes in dependency order and ``outputs`` the nodes whose values
the caller needs.  Backends import ``lazynum.expr`` (below them), never the front end.
"""
from __future__ import annotations

import importlib

from .. import settings as config

_MODULES = {"numpy": "lazynum.backends.reference"}


def get(name: str | None = None):
    """The backend module for ``name`` (default: the configured ``LAZYNUM_BACKEND``)."""
    name = name or config.get().backend
    if name not in _MODULES:
        raise ValueError(f"unknown backend {name!r}; valid backends: {', '.join(_MODULES)}")
    return importlib.import_module(_MODULES[name])
