"""The package's layout rules: one folder per part, imports one way, modules and functions a reader can hold.

The rules are read off the source with `ast` (no module is imported), so a
rule broken anywhere, even in code no test runs, fails here. Each rule is
also fed a small package written to break it, to show that it can fail.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "verify_perceptron"

#: What each part may import from the package (besides itself). The data flow one way:
#: data -> notes -> run -> check -> certify -> report -> cli (and api, the notebook front, beside cli at the
#: end), with the pipeline joining run and check, and harness and proofs beside the chain.
ALLOWED = {
    "errors": set(),
    "data": {"errors"},
    "notes": {"data", "errors"},
    "run": {"data", "notes", "errors"},
    "check": {"data", "notes", "errors"},  # never run: the checker does not trust the engine
    "certify": {"data", "notes", "run", "check", "errors", "audit"},  # (a digest certificate: what audit reads)
    "pipeline": {"data", "notes", "run", "check", "errors", "heap"},  # (heap: malloc_trim between phases)
    "report": {"data", "notes", "check", "certify", "errors"},
    "proofs": {"data", "notes", "run", "errors", "deadline"},
    "harness": {"data", "notes", "run", "check", "certify", "errors", "deadline"},
    "__init__": {"data", "notes", "run", "check", "certify", "pipeline", "report", "api", "errors"},
    "api": {"data", "notes", "run", "check", "certify", "pipeline", "report", "errors", "deadline", "progress",
            "heap"},  # (heap: malloc_trim before the separability decision, as the CLI)
    "cli": {"data", "notes", "run", "check", "certify", "pipeline", "report", "api", "proofs", "harness", "errors",
            "deadline", "arguments", "progress", "heap",
            "__init__"},
    "gallery": {"data", "errors", "report", "cli"},
    "deadline": set(),
    "heap": set(),  # glibc's malloc_trim between the CLI's phases
    "progress": {"check"},  # a bound's digits, as the checker writes them
    "arguments": {"data", "notes", "run", "pipeline", "report", "errors", "__init__"},
    "__main__": {"cli"},
    "audit": set(),  # the certificate auditor: nothing of the package (tests/test_audit.py: standard library only)
}
#: Where each heavy library may load: SymPy in the proofs, Hypothesis in the harness, matplotlib in the plots.
LIBRARIES = {"sympy": ("proofs",), "hypothesis": ("harness",), "matplotlib": ("report/plots",)}
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def _modules(root: Path) -> list[tuple[str, Path, ast.Module]]:
    """``(part, path, tree)`` for every module under `root` (a part is a folder or a top-level module)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        part = relative.parts[0] if len(relative.parts) > 1 else relative.stem
        found.append((part, path, ast.parse(path.read_text(encoding="utf-8"))))
    return found


def _imports(root: Path, path: Path, tree: ast.Module) -> list[tuple[int, str]]:
    """Every module an import statement in `tree` names, absolute, with its line (relative ones resolved)."""
    package = list(path.relative_to(root.parent).with_suffix("").parts)[:-1]  # a module's, or an __init__'s own
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                if node.module:
                    names.append((node.lineno, ".".join([*base, node.module])))
                else:
                    names += [(node.lineno, ".".join([*base, alias.name])) for alias in node.names]
            else:
                names.append((node.lineno, node.module or ""))
    return names


def layering_violations(root: Path) -> list[str]:
    """Each import that breaks `ALLOWED` or `LIBRARIES`, as ``file:line: part imports target``."""
    found = []
    top = root.name
    for part, path, tree in _modules(root):
        where = path.relative_to(root).as_posix()
        for line, name in _imports(root, path, tree):
            pieces = name.split(".")
            if pieces[0] == top:
                target = pieces[1] if len(pieces) > 1 else "__init__"
                if target == "__version__":
                    target = "__init__"
                if target != part and target not in ALLOWED.get(part, set()):
                    found.append(f"{where}:{line}: {part} imports {target}")
            elif pieces[0] in LIBRARIES and not where.startswith(LIBRARIES[pieces[0]]):
                found.append(f"{where}:{line}: {part} imports {pieces[0]}")
    return found


def size_violations(root: Path) -> list[str]:
    """Each module over `MAX_MODULE_LINES` lines and each function over `MAX_FUNCTION_LINES`, docstring included."""
    found = []
    for _, path, tree in _modules(root):
        where = path.relative_to(root).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            found.append(f"{where}: {lines} lines")
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    found.append(f"{where}:{node.lineno}: {node.name} is {length} lines")
    return found


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "verify_perceptron"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


# --- the package as it is --------------------------------------------------------------------------


def test_every_part_imports_only_what_its_rule_allows() -> None:
    assert layering_violations(PACKAGE) == []


def test_no_module_or_function_is_too_long_to_hold_in_mind() -> None:
    assert size_violations(PACKAGE) == []


def test_every_folder_is_a_part_with_a_rule() -> None:
    folders = sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert folders == sorted(p for p in ALLOWED if (PACKAGE / p).is_dir())
    for folder in folders:
        doc = ast.get_docstring(ast.parse((PACKAGE / folder / "__init__.py").read_text(encoding="utf-8")))
        assert doc is not None and 2 <= len(doc.splitlines()) <= 3, folder  # owns what, may import what


def test_every_top_level_module_is_a_part_with_a_rule() -> None:
    modules = sorted(p.stem for p in PACKAGE.glob("*.py"))
    assert set(modules) <= set(ALLOWED), set(modules) - set(ALLOWED)


# --- the rules can fail ---------------------------------------------------------------------------


@pytest.mark.parametrize(("files", "expected"), [
    ({"check/__init__.py": "", "check/checker.py": "from ..run import fast\n", "run/__init__.py": ""},
     ["check/checker.py:1: check imports run"]),
    ({"check/__init__.py": "", "check/checker.py": "import verify_perceptron.run.kernel\n"},
     ["check/checker.py:1: check imports run"]),
    ({"data/__init__.py": "", "data/samples.py": "from ..notes.conventions import Convention\n"},
     ["data/samples.py:1: data imports notes"]),
    ({"notes/__init__.py": "", "notes/claims.py": "def f():\n    from ..check import checker\n"},
     ["notes/claims.py:2: notes imports check"]),
    ({"run/__init__.py": "", "run/fast.py": "from .. import pipeline\n"},
     ["run/fast.py:1: run imports pipeline"]),
    ({"report/__init__.py": "", "report/text.py": "from ..harness import strategies\n"},
     ["report/text.py:1: report imports harness"]),
    ({"report/__init__.py": "", "report/text.py": "import sympy\n"},
     ["report/text.py:1: report imports sympy"]),
    ({"run/__init__.py": "", "run/fast.py": "from hypothesis import given\n"},
     ["run/fast.py:1: run imports hypothesis"]),
    ({"report/__init__.py": "", "report/documents.py": "import matplotlib.pyplot\n"},
     ["report/documents.py:1: report imports matplotlib"]),
])
def test_a_broken_import_rule_is_reported_with_its_place(tmp_path: Path, files: dict[str, str],
                                                         expected: list[str]) -> None:
    assert layering_violations(_package(tmp_path, files)) == expected


def test_the_allowed_imports_are_not_reported(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "check/__init__.py": "", "check/checker.py": "from ..data import samples\nfrom . import results\n",
        "report/__init__.py": "", "report/plots/__init__.py": "import matplotlib\n",
        "proofs/__init__.py": "import sympy\n",
    })
    assert layering_violations(root) == []


def test_a_long_module_and_a_long_function_are_reported(tmp_path: Path) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    root = _package(tmp_path, {
        "run/__init__.py": "", "run/long.py": "def long():\n" + body + "\n" * MAX_MODULE_LINES,
        "run/short.py": "def short():\n" + body[: -len(f"    x{MAX_FUNCTION_LINES - 1} = {MAX_FUNCTION_LINES - 1}\n")],
    })
    assert size_violations(root) == [f"run/long.py: {MAX_FUNCTION_LINES + MAX_MODULE_LINES + 1} lines",
                                     f"run/long.py:1: long is {MAX_FUNCTION_LINES + 1} lines"]
