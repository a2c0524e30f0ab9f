"""py-spy profiles of the stack under a benchmark, and their summary.

``bench/load.py --py-spy DIR`` records Daphne #0 and Celery worker #0 (its
pool included) while the moves are counted; ``python bench/spy.py FILE``
prints the shares of a raw profile (``py-spy record -f raw``): the app's
own frames by inclusive share, the innermost app frame's module by
exclusive share, and the leaves. With ``--gil`` (the default here) py-spy
samples only the thread holding the GIL, so a share is one of Python CPU,
not of time spent waiting.

    python bench/spy.py /tmp/daphne.txt [--top 40]
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
import sys
from pathlib import Path

# The site's own packages: a sample is the innermost of these frames' cost.
APPS = (
    "games/", "live/", "notifications/", "monopoly_site/", "common/", "accounts/", "api/",
    "people/", "social/", "clubs/", "tournaments/", "ratings/",
)  # fmt: skip
FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^():]*?)(?::(?P<line>\d+))?\)$")


def py_spy() -> str | None:
    here = Path(sys.executable).parent / "py-spy"
    return str(here) if here.exists() else shutil.which("py-spy")


def record(
    pid: int, out: Path, seconds: float, subprocesses: bool = False
) -> subprocess.Popen[bytes]:
    """Start py-spy on ``pid`` for ``seconds`` (raw output to ``out``)."""
    binary = py_spy()
    if binary is None:
        raise RuntimeError("py-spy is not installed (.venv/bin/pip install py-spy)")
    args = [binary, "record", "--pid", str(pid), "--gil", "--rate", "100", "-d",
            str(int(seconds)), "-f", "raw", "-o", str(out), "--nonblocking"]  # fmt: skip
    if subprocesses:
        args.append("--subprocesses")
    log = open(out.with_suffix(".log"), "w")  # noqa: SIM115
    try:
        return subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    finally:
        log.close()


def read(path: Path) -> list[tuple[list[str], int]]:
    stacks = []
    for line in path.read_text(errors="replace").splitlines():
        frames, _, count = line.rpartition(" ")
        if frames.strip() and count.isdigit():
            stacks.append((frames.split(";"), int(count)))
    return stacks


def name(frame: str) -> tuple[str, str]:
    """(function, file) of a py-spy frame."""
    match = FRAME.match(frame)
    if not match:
        return frame, ""
    path = re.sub(r".*/site-packages/", "", match["file"])
    path = re.sub(r".*/lib/python3\.\d+/", "", path)
    return match["func"], path


def summary(path: Path, top: int = 40) -> str:
    stacks = read(path)
    total = sum(count for _, count in stacks) or 1
    inclusive: collections.Counter[str] = collections.Counter()
    module: collections.Counter[str] = collections.Counter()
    leaves: collections.Counter[str] = collections.Counter()
    for frames, count in stacks:
        named = [name(f) for f in frames]
        seen = set()
        for func, file in named:
            if file.startswith(APPS) and (func, file) not in seen:
                seen.add((func, file))
                inclusive[f"{func} ({file})"] += count
        inner = next((file for _, file in reversed(named) if file.startswith(APPS)), None)
        if inner is None:
            lib = named[-1][1].split("/")[0] if named else "?"
            inner = f"[no app frame] {lib}"
        module[inner] += count
        func, file = named[-1]
        leaves[f"{func} ({file})"] += count

    def block(title: str, counter: collections.Counter[str]) -> list[str]:
        return [f"== {title} =="] + [
            f"{100 * n / total:5.1f}%  {key}" for key, n in counter.most_common(top)
        ]

    lines = [f"{path}: {total} samples"]
    lines += block("the app's frames, inclusive", inclusive)
    lines += block("innermost app module (exclusive)", module)
    lines += block("leaves (self)", leaves)
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("raw", type=Path, nargs="+")
    parser.add_argument("--top", type=int, default=40)
    opts = parser.parse_args()
    for path in opts.raw:
        print(summary(path, opts.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
