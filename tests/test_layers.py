"""The package's layers: imports point downward, and no two modules import each other.

The layer order is written once, here (highest first).  Every import between lazynum's
modules counts, function-level ones included: a lazy import hides a cycle from Python, not
from a reader.  The checker runs on the real tree and, to show it can fail, on small broken
trees built in a temporary directory.
"""
from __future__ import annotations

import ast
import pathlib

import lazynum

LAYERS = (
    "lazynum",              # the namespace (__init__, lib, random: NumPy's submodules), census,
                            # __main__, demo
    "lazynum.distributed",  # Dask clusters: distributed inputs, cut -> Dask graph, block programs
    "lazynum.autograd",     # grad / vjp / jvp over the front end
    "lazynum.bounded",      # data-dependent shapes, plugged into the front end by dispatch
    "lazynum.eager",        # NumPy-backed arrays of dtypes with no lazy form, by dispatch
    "lazynum.frontend",     # NumPy semantics -> graph nodes
    "lazynum.array",        # the ndarray data model, layouts, dtypes, conversion
    "lazynum.runtime",      # sync, compile cache, disk cache, failed-write undo
    "lazynum.backends",     # reference (NumPy), llvm and cuda (CUDA C; imports neither other
                            # backend: tests/backends/cuda): render and run plans
    "lazynum.compile",      # cut -> plan: schedule, lowering, kernel IR, loop strategies
    "lazynum.expr",         # nodes, op registry, symbolic sizes, signatures
    "lazynum.control",      # settings and telemetry
)


def module_imports(root: pathlib.Path, package: str = "lazynum") -> dict:
    """{module: {(imported module, line)}} for every import between the package's modules."""
    modules = {_module_name(root, path, package): path for path in root.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        here = name if is_package else name.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            for target in _targets(node, here, modules):
                if target != name:
                    edges.add((target, node.lineno))
        graph[name] = edges
    return graph


def _module_name(root, path, package) -> str:
    parts = [package, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _targets(node, here, modules):
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in modules]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = here.split(".")[: len(here.split(".")) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    if target not in modules:
        return []
    submodules = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules]
    named = len(submodules) < len(node.names)
    return submodules + ([target] if named or not submodules else [])


def layer_of(module: str, layers=LAYERS) -> int:
    """Index of the deepest layer ``module`` belongs to (0 is the top)."""
    best = None
    for k, layer in enumerate(layers):
        if module == layer or module.startswith(layer + "."):
            if best is None or len(layer) > len(layers[best]):
                best = k
    return best


def upward_imports(graph, layers=LAYERS) -> list:
    """(importer, imported, line) where a lower layer imports a higher one."""
    return sorted((a, b, line) for a, edges in graph.items() for b, line in edges
                  if layer_of(b, layers) < layer_of(a, layers))


def cycles(graph) -> list:
    """The strongly connected components with more than one module (iterative Tarjan)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(b for b, _ in graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(b for b, _ in graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


PACKAGE_ROOT = pathlib.Path(lazynum.__file__).parent


def test_every_module_belongs_to_a_layer():
    graph = module_imports(PACKAGE_ROOT)
    assert all(layer_of(m) is not None for m in graph)
    assert {m for m in graph if layer_of(m) == 0} == {"lazynum", "lazynum.__main__", "lazynum.demo",
                                                      "lazynum.lib", "lazynum.lib.stride_tricks",
                                                      "lazynum.random", "lazynum.random.generators",
                                                      "lazynum.census"}


def test_imports_point_downward():
    assert upward_imports(module_imports(PACKAGE_ROOT)) == []


def test_no_import_cycles():
    assert cycles(module_imports(PACKAGE_ROOT)) == []


def _tree(tmp_path, files: dict) -> pathlib.Path:
    root = tmp_path / "lazynum"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_checks_catch_a_broken_tree(tmp_path):
    root = _tree(tmp_path, {
        "__init__.py": "from .frontend import api\n",
        "frontend/__init__.py": "",
        "frontend/api.py": "from ..array import core\n",
        "array/__init__.py": "",
        "array/core.py": "def f():\n    from ..frontend.api import g   # upward and a cycle\n",
        "expr/__init__.py": "",
        "expr/a.py": "from . import b\n",
        "expr/b.py": "def h():\n    from .a import x\n",
    })
    graph = module_imports(root)
    assert upward_imports(graph) == [("lazynum.array.core", "lazynum.frontend.api", 2)]
    assert cycles(graph) == [["lazynum.array.core", "lazynum.frontend.api"],
                             ["lazynum.expr.a", "lazynum.expr.b"]] or sorted(cycles(graph)) == [
        ["lazynum.array.core", "lazynum.frontend.api"], ["lazynum.expr.a", "lazynum.expr.b"]]
