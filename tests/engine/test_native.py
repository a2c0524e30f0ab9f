"""The mypyc build of the engine (games/native.py): current, and the same rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games import native

PROBE = Path(__file__).with_name("native_probe.py")


def _probe(mode: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, str(PROBE), mode],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_the_engine_in_use_is_built_from_its_sources() -> None:
    assert native.status() != "stale", native.stale_message()
    if os.environ.get("CI") == "true":
        # make test builds it; CI measures and tests what the site runs.
        assert native.status() == "compiled"


def test_compiled_and_pure_engines_play_identical_games() -> None:
    pure = _probe("pure")
    compiled = _probe("native")
    assert str(pure["game_module"]).endswith("game.py")
    if native.status() == "compiled":
        assert not str(compiled["game_module"]).endswith(".py")
    assert int(str(pure["actions"])) > 5000
    assert pure["digest"] == compiled["digest"]


def test_the_built_engine_loads_only_the_standard_library() -> None:
    code = (
        "import sys; before = set(sys.modules)\n"
        "import pkgutil, games.engine as e\n"
        "for m in pkgutil.iter_modules(e.__path__): __import__('games.engine.' + m.name)\n"
        "print('\\n'.join(sorted(set(sys.modules) - before)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=native.ROOT,
        env={**os.environ, "PYTHONPATH": str(native.ROOT)},
    ).stdout.split()
    ours = {"games", "games.native", "games.engine", native.GROUP + "__mypyc"}
    foreign = [
        m
        for m in out
        if m not in ours
        and not m.startswith("games.engine.")
        and m.split(".")[0].lstrip("_") not in sys.stdlib_module_names
        and m.split(".")[0] not in sys.stdlib_module_names
    ]
    assert len(out) > 20
    assert not foreign, foreign


def test_a_changed_source_makes_the_build_stale(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    engine = tmp_path / "engine"
    engine.mkdir()
    (engine / "a.py").write_text("x = 1\n")
    monkeypatch.setattr(native, "GAMES", tmp_path)
    monkeypatch.setattr(native, "ROOT", tmp_path)
    monkeypatch.setattr(native, "ENGINE", engine)
    monkeypatch.setattr(native, "STAMP", engine / "native.digest")
    assert native.status() == "pure"
    (engine / ("a" + native.SUFFIXES[0])).write_bytes(b"")
    assert native.status() == "stale"  # built, but no digest recorded
    native.STAMP.write_text(native.source_digest())
    assert native.status() == "compiled"
    (engine / "a.py").write_text("x = 2\n")
    assert native.status() == "stale"
    native.clean()
    assert native.status() == "pure"
    assert (engine / "a.py").exists()


def _copy_of_the_package(tmp_path: Path) -> Path:
    root = tmp_path / "copy"
    (root / "games" / "engine").mkdir(parents=True)
    for path in [*native.GAMES.glob("*.py"), *native.sources()]:
        target = root / path.relative_to(native.ROOT)
        target.write_bytes(path.read_bytes())
    return root


def test_a_stale_build_is_set_aside_for_the_sources(tmp_path: Path) -> None:
    # A copy of the package whose "build" is garbage with no digest: loading
    # it would fail, so the import only works if the sources are used.
    root = _copy_of_the_package(tmp_path)
    (root / "games" / "engine" / ("game" + native.SUFFIXES[0])).write_bytes(b"not a library")
    code = "import games.engine.game as g; print(g.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert "RuntimeWarning: The compiled engine" in out.stderr
    assert out.stdout.strip() == str(root / "games" / "engine" / "game.py")


@pytest.mark.slow  # two mypyc runs, about a minute
def test_a_failed_build_leaves_the_pure_engine_outside_ci(tmp_path: Path) -> None:
    root = _copy_of_the_package(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(root), "CC": "/bin/false"}
    env.pop("CI", None)
    build = [sys.executable, "-m", "games.build_engine", "build"]
    out = subprocess.run(build, capture_output=True, text=True, cwd=root, env=env, timeout=300)
    assert out.returncode == 0
    assert "the mypyc build failed" in out.stderr
    assert not list((root / "games" / "engine").glob("*.so"))
    assert not (root / "games" / "engine" / "native.digest").exists()
    # CI measures and tests the compiled engine: there a failed build fails.
    out = subprocess.run(
        build, capture_output=True, text=True, cwd=root, env={**env, "CI": "true"}, timeout=300
    )
    assert out.returncode == 1
