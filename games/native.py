"""The engine compiled with mypyc, and how to tell it is current.

``games/engine/`` is plain, strictly typed Python. ``python -m
games.build_engine build`` compiles the same sources with mypyc into
extension modules next to them (``games/engine/*.so``, plus the shared
``monopoly_engine_native__mypyc`` at the top level), which Python imports in
preference to the ``.py`` files: the same rules, about three times as fast.
``clean`` removes them, and the engine is pure Python again.

An extension module shadows its source, so an edited source with an old
build would silently run old rules. The build therefore records a digest of
the sources it compiled, and ``status()`` compares it with the sources now.
On a stale build ``games/__init__.py`` warns and imports the engine from its
sources instead, and a test fails.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import sys
from pathlib import Path

GAMES = Path(__file__).resolve().parent
ENGINE = GAMES / "engine"
ROOT = GAMES.parent
# The shared library sits at the top level: mypyc derives the packages' paths
# from its place, and puts them wrong when it is inside a package.
GROUP = "monopoly_engine_native"
STAMP = ENGINE / "native.digest"
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def sources() -> list[Path]:
    return sorted(ENGINE.glob("*.py"))


def source_digest() -> str:
    """What the build depends on: the engine's sources and this Python."""
    h = hashlib.sha256(sys.version.encode())
    for path in sources():
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def built_files() -> list[Path]:
    found = [p for p in ENGINE.iterdir() if p.name.endswith(SUFFIXES)]
    found += [p for p in ROOT.iterdir() if p.name.startswith(GROUP + "__mypyc")]
    return sorted(found)


def status() -> str:
    """``"pure"`` (no build), ``"compiled"`` (a build of these very sources)
    or ``"stale"`` (a build of other sources, or a broken one)."""
    if not built_files():
        return "pure"
    try:
        recorded = STAMP.read_text().strip()
    except OSError:
        return "stale"
    return "compiled" if recorded == source_digest() else "stale"


def stale_message() -> str:
    return (
        "The compiled engine (games/engine/*.so) was built from other sources than "
        "games/engine/*.py now hold, so this process runs the pure-Python sources. "
        "Run `make engine` to rebuild it, or `python -m games.build_engine clean` to remove it."
    )


def prefer_sources() -> None:
    """Make this process import the engine from its ``.py`` files even where
    a build exists. Call it before anything imports ``games.engine``."""
    dirs = {str(GAMES), str(ENGINE)}
    loaders = [(importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)]

    def hook(path: str) -> importlib.machinery.FileFinder:
        if os.path.realpath(path) not in dirs:
            raise ImportError  # not ours: the next hook handles it
        return importlib.machinery.FileFinder(path, *loaders)

    sys.path_hooks.insert(0, hook)
    sys.path_importer_cache.clear()


def clean() -> None:
    for path in built_files():
        path.unlink()
    STAMP.unlink(missing_ok=True)


def build() -> None:
    # Imported here: mypyc and setuptools are build tools, not site code.
    from mypyc.build import mypycify
    from setuptools import setup

    digest = source_digest()
    if status() == "compiled":
        print("games/engine: the compiled build is current")
        STAMP.touch()  # for make's timestamps
        return
    print("games/engine: compiling with mypyc (about a minute)", flush=True)
    clean()
    modules = [str(p.relative_to(ROOT)) for p in sources()]
    os.chdir(ROOT)
    setup(
        name="monopoly-engine-native",
        packages=[],
        py_modules=[],
        script_args=["--quiet", "build_ext", "--inplace"],
        ext_modules=mypycify(modules, opt_level="3", group_name=GROUP),
    )
    # Written last: an interrupted build leaves no digest and reads as stale.
    STAMP.write_text(digest + "\n")


def main(argv: list[str]) -> int:
    """``python -m games.build_engine build|clean|status`` (a module of its
    own: ``games`` imports this one, and ``-m`` would run it twice)."""
    if argv == ["build"]:
        try:
            build()
        except (Exception, SystemExit) as e:  # setuptools exits on a compiler error
            clean()
            print(
                f"games/engine: the mypyc build failed ({e}); the pure-Python engine runs "
                "instead, about three times slower.",
                file=sys.stderr,
            )
            # CI measures and tests the compiled engine: there it must build.
            return 1 if os.environ.get("CI") == "true" else 0
    elif argv == ["clean"]:
        clean()
    elif argv == ["status"]:
        print(status())
    else:
        print("usage: python -m games.build_engine build|clean|status", file=sys.stderr)
        return 2
    return 0
