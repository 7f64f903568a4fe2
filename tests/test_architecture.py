"""The layers of docs/architecture.md hold: each package imports only from the layers before it.

solver <- bots.referee <- bots.players <- bots.envs <- bots.arena <- bots.app.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Layer of each package, lowest first; a module may import its own layer and lower ones.
LAYERS = {
    "solver": 0,
    "bots.referee": 1,
    "bots.players": 2,
    "bots.envs": 3,
    "bots.arena": 4,
    "bots.app": 5,
}


def _layer(module: str) -> int | None:
    """The layer of a dotted module name, or None for modules outside the project."""
    best = None
    for package, layer in LAYERS.items():
        if module == package or module.startswith(package + "."):
            best = layer
    return best


def _imports(path: Path) -> list[str]:
    """Every project module imported by ``path``, at any depth (lazy imports count too)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def test_each_layer_imports_only_from_the_layers_before_it():
    breaches = []
    for path in sorted([*ROOT.glob("solver/**/*.py"), *ROOT.glob("bots/**/*.py")]):
        own = _layer(_module(path))
        if own is None:
            continue
        for name in _imports(path):
            layer = _layer(name)
            if layer is not None and layer > own:
                breaches.append(f"{_module(path)} imports {name}")
    assert not breaches, "\n".join(breaches)


def test_bots_has_no_top_level_modules_but_its_package_files():
    loose = {p.name for p in (ROOT / "bots").glob("*.py")} - {"__init__.py", "__main__.py"}
    assert not loose, f"modules outside the layers: {sorted(loose)}"


def test_the_layer_packages_import():
    import bots.app  # noqa: F401
    import bots.arena  # noqa: F401
    import bots.envs  # noqa: F401
    import bots.players  # noqa: F401
    import bots.referee  # noqa: F401


def test_docs_architecture_names_every_module():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [str(path.relative_to(ROOT))
               for path in [*ROOT.glob("solver/*.py"), *ROOT.glob("bots/*/**/*.py")]
               if path.stem not in ("__init__", "__main__") and f"`{path.stem}`" not in text]
    assert not missing, f"modules missing from docs/architecture.md: {missing}"


MAX_FUNCTION_LINES = 80


def test_no_function_in_solver_or_bots_is_longer_than_80_lines():
    long = []
    for path in sorted([*ROOT.glob("solver/**/*.py"), *ROOT.glob("bots/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{_module(path)}.{node.name}: {lines} lines")
    assert not long, "\n".join(long)
