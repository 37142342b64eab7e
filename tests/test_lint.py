"""The house rules CI keeps: ruff's lint (ruff.toml) and the rooms' import layers
(.importlinter: a room imports only the rooms below it, in the order of the paper's
Figure 2). Both tools come with the `test` extra."""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
BIN = pathlib.Path(sys.executable).parent

pytestmark = pytest.mark.fast


def _tool(name: str) -> str:
    path = BIN / name if (BIN / name).exists() else shutil.which(name)
    if not path:
        pytest.fail(f"{name} is not installed: `pip install -e '.[test]' -c constraints.txt`")
    return str(path)


def _run(cmd: list) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(REPO)))


def test_ruff_finds_nothing():
    done = _run([_tool("ruff"), "check", "--no-cache", "."])
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_rooms_import_only_downward():
    done = _run([_tool("lint-imports"), "--no-cache"])
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout and " kept" in done.stdout


def test_the_layers_contract_catches_an_upward_import(tmp_path):
    """The contract is live: a core module importing finalize breaks it."""
    probe = tmp_path / "repo"
    shutil.copytree(REPO, probe, ignore=shutil.ignore_patterns(
        ".venv", ".git", "out", "__pycache__", "tests", "docs", "benchmarks", "*.egg-info"))
    with open(probe / "transforms" / "core" / "hashing.py", "a", encoding="utf-8") as f:
        f.write("\nimport transforms.finalize.exports.files  # an upward arrow\n")
    done = subprocess.run([_tool("lint-imports"), "--no-cache"], cwd=probe, capture_output=True,
                          text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(probe)))
    assert done.returncode != 0
    assert "transforms.core is not allowed to import transforms.finalize" in done.stdout


def _packages():
    for root in ("transforms", "models", "runners"):
        for init in sorted((REPO / root).rglob("__init__.py")):
            yield init.parent


def test_every_package_docstring_maps_its_modules():
    """A package's docstring lists each of its modules and sub-packages once (`- `name``),
    so a newcomer finds the room of a change from the package alone."""
    import ast
    import re
    stale = []
    for pkg in _packages():
        doc = ast.get_docstring(ast.parse((pkg / "__init__.py").read_text())) or ""
        listed = set(re.findall(r"^- `(\w+)/?`", doc, flags=re.M))
        have = {p.stem for p in pkg.glob("*.py") if p.name != "__init__.py"}
        have |= {d.name for d in pkg.iterdir() if (d / "__init__.py").exists()}
        if not doc:
            stale.append(f"{pkg.relative_to(REPO)}: no docstring")
        elif listed != have:
            stale.append(f"{pkg.relative_to(REPO)}: missing {sorted(have - listed)}, "
                         f"gone {sorted(listed - have)}")
    assert not stale, "\n".join(stale)


def test_tests_mirror_the_packages():
    """Each test module lives in the folder of the room it tests (tests/<room>/), and each
    such folder is named after a package; shared helpers live in tests/fixtures/."""
    rooms = {d.name for d in (REPO / "transforms").iterdir() if (d / "__init__.py").exists()}
    rooms |= {"models", "beam_pipelines", "runners", "benchmarks", "fixtures"}
    loose = [p.name for p in (REPO / "tests").glob("test_*.py") if p.name != "test_lint.py"]
    assert not loose, f"test modules outside a room folder: {loose}"
    folders = {d.name for d in (REPO / "tests").iterdir()
               if d.is_dir() and (d / "__init__.py").exists()}
    assert folders <= rooms, f"test folders named after no package: {sorted(folders - rooms)}"


def test_every_third_party_import_is_declared_in_setup_py():
    """A module the library imports comes from a requirement of setup.py (Dataflow workers
    install from it), not from whatever another package happened to pull in."""
    import ast
    import importlib.metadata as md
    import re
    declared = {d.lower().replace("_", "-") for d in re.findall(
        r'^\s+"([A-Za-z0-9_.\-]+)[\[<>=!~ ]', (REPO / "setup.py").read_text(), flags=re.M)}
    ours = {"transforms", "models", "beam_pipelines", "runners", "benchmarks", "tests"}
    dists = md.packages_distributions()
    missing = {}
    for root in ("transforms", "models", "beam_pipelines", "runners"):
        for path in (REPO / root).rglob("*.py"):
            if "templates" in path.parts:      # shipped into the release, not imported
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    names = [node.module]
                else:
                    continue
                for top in {n.split(".")[0] for n in names}:
                    if top in sys.stdlib_module_names or top in ours:
                        continue
                    owners = {d.lower().replace("_", "-") for d in dists.get(top, [])}
                    if not owners & declared:
                        missing.setdefault(top, str(path.relative_to(REPO)))
    assert not missing, f"imported but not declared in setup.py: {missing}"
