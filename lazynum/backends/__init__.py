"""Backends compile a cut of the pending graph into a program and replay it.

Interface (``lazynum.runtime.compile_cache`` calls it): a backend module exposes ``NAME``,
``ARTIFACT_VERSION`` (or ``artifact_tag()``), ``compile(cut) -> Program`` (once per cache
miss; ``cut`` is a ``lazynum.compile.cut.Cut``) and ``load(data) -> Program`` (the disk
cache); a ``Program`` has ``run(inputs, sizes, sites) -> list[numpy.ndarray]`` and
``to_bytes()``.  Backends import ``lazynum.expr`` and ``lazynum.compile`` (below them),
never the front end.
"""
from __future__ import annotations

import importlib

from ..control import settings as config

_MODULES = {"llvm": "lazynum.backends.llvm", "numpy": "lazynum.backends.reference",
            "cuda": "lazynum.backends.cuda"}


def get(name: str | None = None):
    """The backend module for ``name`` (default: the configured ``LAZYNUM_BACKEND``)."""
    name = name or config.get().backend
    if name not in _MODULES:
        raise ValueError(f"unknown backend {name!r}; valid backends: {', '.join(_MODULES)}")
    return importlib.import_module(_MODULES[name])
