"""The CUDA backend's package rules: it renders the compile layer's plan without the other
backends, imports no GPU library at module level, and is not selectable yet."""
from __future__ import annotations

import ast
import pathlib

import pytest

import lazynum.backends.cuda as cuda_backend
from lazynum.control import settings

from ...test_layers import PACKAGE_ROOT, module_imports

CUDA_ROOT = pathlib.Path(cuda_backend.__file__).parent


def test_cuda_imports_neither_other_backend():
    graph = module_imports(PACKAGE_ROOT)
    for module, edges in graph.items():
        if module.startswith("lazynum.backends.cuda"):
            for target, line in edges:
                assert not target.startswith(("lazynum.backends.llvm", "lazynum.backends.reference")), (
                    module, target, line)


def test_no_module_imports_cupy_at_import_time():
    for path in CUDA_ROOT.glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not any(n.split(".")[0] == "cupy" for n in names), path


def test_the_backend_is_planned_not_selectable():
    assert "cuda" in settings.PLANNED_BACKENDS and "cuda" not in settings.VALID_BACKENDS
    with pytest.raises(ValueError, match="host side does not run yet"):
        settings._parse_backend("cuda")
