"""The CUDA backend's package rules: it renders the compile layer's plan without the llvm
backend (the reference backend's NumPy program is its host fallback), imports no GPU
library at module level, and is selectable, failing clearly where no GPU is usable."""
from __future__ import annotations

import ast
import pathlib

import pytest

import lazynum.backends.cuda as cuda_backend
from lazynum.control import settings

from ...test_layers import PACKAGE_ROOT, module_imports
from .plans import traced_always

CUDA_ROOT = pathlib.Path(cuda_backend.__file__).parent


def test_cuda_imports_no_llvm_and_only_its_runtime_the_reference_backend():
    graph = module_imports(PACKAGE_ROOT)
    for module, edges in graph.items():
        if module.startswith("lazynum.backends.cuda"):
            for target, line in edges:
                assert not target.startswith("lazynum.backends.llvm"), (module, target, line)
                if target.startswith("lazynum.backends.reference"):
                    assert module == "lazynum.backends.cuda.runtime", (module, target, line)


def test_no_module_imports_cupy_at_import_time():
    for path in CUDA_ROOT.glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not any(n.split(".")[0] == "cupy" for n in names), path


def test_the_backend_is_selectable_and_its_devices_are_named():
    assert "cuda" in settings.VALID_BACKENDS
    assert settings._parse_backend("CUDA") == "cuda"
    assert settings._parse_cuda_device("emulator") == "emulator"
    with pytest.raises(ValueError, match="LAZYNUM_CUDA_DEVICE"):
        settings._parse_cuda_device("gpu0")
    with pytest.raises(ValueError, match="LAZYNUM_CUDA_EMULATOR_ORDER"):
        settings._parse_emulator_order("backwards")
    assert settings._parse_emulator_order(" 17") == "17"


def test_without_a_usable_gpu_the_first_sync_names_what_is_missing():
    """This machine has CuPy installed and no driver (or no CuPy): either way the error
    says what is missing and how to run on the emulator instead."""
    import lazynum
    from lazynum.backends.cuda import runtime
    from lazynum.backends.cuda.device import DeviceUnavailable
    runtime._devices.pop("cupy", None)
    with lazynum.config(backend="cuda", cuda_device="cupy"), traced_always():
        x = lazynum.arange(5.0) * 2
        with pytest.raises(DeviceUnavailable, match="(no usable GPU|needs CuPy).*emulator"):
            x.sync()
