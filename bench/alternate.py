"""One benchmark, run alternately on two checkouts, with a table of both.

Absolute figures do not travel between these shared VMs, and drift within a
session; a ratio measured in alternation does. Runs the benchmark ``--pairs``
times on each tree, the order swapped every pair (A B, B A, A B...) so that a
trend over the session weighs on both alike, then prints each run's figures,
each tree's median, and the ratio of the medians (first tree over second).

    python bench/alternate.py --trees /work/main /work/base --pairs 3 \\
        -- bench/load.py --skip-crowd

By default the scripts are this tree's (bench/), started against each tree's
site (BENCH_SITE_DIR: the stack runs that checkout's code), so both runs
report the same figures, CPU by process kind included; ``--tools own`` runs
each tree's own copy of the script instead. Every run's whole JSON goes to
``--out`` (one line each). ``--metric a.b.c`` adds a figure (a dotted path
in the JSON); each script has defaults.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LIVE_DATABASE = "postgres://postgres@127.0.0.1:5432/monopoly_bench_live"

DEFAULT_METRICS = {
    "load.py": [
        "many_games.actions_per_second",
        "many_games.cpu_ms_per_move",
        "many_games.healthz_cpu_ms",
        "many_games.cpu_per_move_in_healthz",
        "many_games.cpu_ms_per_move_by_kind.daphne",
        "many_games.cpu_ms_per_move_by_kind.worker",
        "many_games.cpu_ms_per_move_by_kind.postgres",
        "many_games.post_ms.p50",
        "many_games.push_ms.p50",
    ],
    "api.py": [
        "actions_per_s",
        "cpu_ms_per_action",
        "cpu_ms_per_action_by_kind.daphne",
        "cpu_ms_per_action_by_kind.worker",
        "cpu_ms_per_action_by_kind.postgres",
        "post_p50_ms",
        "post_p99_ms",
    ],
    "live.py": [
        "push_ms.p50",
        "push_ms.p99",
        "healthz_p50_ms",
        "push_p50_in_healthz",
        "daphne_cpu_ms_per_move",
        "post_ms.p50",
    ],
}


def last_json(text: str) -> dict[str, Any] | None:
    """The last JSON object a benchmark printed (one line, or indented over
    several: it starts a line with "{")."""
    decoder = json.JSONDecoder()
    starts = [i for i in range(len(text)) if text[i] == "{" and (i == 0 or text[i - 1] == "\n")]
    for start in reversed(starts):
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


def dig(value: Any, path: str) -> float | None:
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def schedule(trees: list[str], pairs: int) -> list[str]:
    """A B, B A, A B...: each pair swaps the order of the last."""
    order: list[str] = []
    for pair in range(pairs):
        order += trees if pair % 2 == 0 else list(reversed(trees))
    return order


def command(tree: Path, script: str, args: list[str], tools: str) -> tuple[list[str], Path]:
    python = tree / ".venv" / "bin" / "python"
    interpreter = str(python) if python.exists() else sys.executable
    if tools == "own":
        return [interpreter, str(tree / script), *args], tree
    return [interpreter, str(HERE / Path(script).name), *args], HERE.parent


def run_once(
    tree: Path, label: str, script: str, args: list[str], tools: str, log: Any
) -> dict[str, Any]:
    argv, cwd = command(tree, script, args, tools)
    env = dict(os.environ)
    env.pop("BENCH_SITE_DIR", None)
    if tools != "own":
        env["BENCH_SITE_DIR"] = str(tree)
    if Path(script).name == "live.py" and "DATABASE_URL" not in os.environ:
        # bench-live keeps its database between runs: one per tree, whose
        # migrations differ.
        env["DATABASE_URL"] = f"{LIVE_DATABASE}_{label.lower()}"
    started = time.time()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    log.write(done.stderr)
    log.flush()
    result = last_json(done.stdout) or {"failed": f"exit {done.returncode}, no JSON"}
    return {
        "tree": str(tree),
        "started": time.strftime("%H:%M:%S", time.gmtime(started)),
        "seconds": round(time.time() - started, 1),
        "exit": done.returncode,
        "result": result,
    }


def table(runs: list[dict[str, Any]], trees: list[str], metrics: list[str]) -> str:
    labels = {tree: chr(ord("A") + i) for i, tree in enumerate(trees)}
    width = max(12, *(len(m) for m in metrics)) + 2
    lines = [" ".join(f"{labels[t]} = {t}" for t in trees)]
    header = f"{'metric':<{width}}" + "".join(
        f"{labels[r['tree']] + ' ' + r['started']:>14}" for r in runs
    )
    lines.append(header + "".join(f"{'med ' + labels[t]:>12}" for t in trees) + f"{'A/B':>8}")
    for metric in metrics:
        row = f"{metric:<{width}}"
        for run in runs:
            value = dig(run["result"], metric)
            row += f"{'-' if value is None else f'{value:.2f}':>14}"
        medians = []
        for tree in trees:
            values = [
                v for r in runs if r["tree"] == tree and (v := dig(r["result"], metric)) is not None
            ]
            medians.append(statistics.median(values) if values else None)
            row += f"{'-' if medians[-1] is None else f'{medians[-1]:.2f}':>12}"
        a, b = medians[0], medians[1] if len(medians) > 1 else None
        row += f"{f'{a / b:.2f}' if a is not None and b else '-':>8}"
        lines.append(row)
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        usage="%(prog)s --trees A B [--pairs N] [--metric PATH]... -- bench/SCRIPT.py [ARGS]",
    )
    parser.add_argument("--trees", nargs=2, required=True, help="two checkouts: A (new), B (old)")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--tools", choices=["this", "own"], default="this")
    parser.add_argument("--metric", action="append", default=[])
    parser.add_argument("--out", type=Path, default=None, help="one JSON line per run")
    parser.add_argument("bench", nargs=argparse.REMAINDER, help="-- bench/SCRIPT.py [ARGS]")
    opts = parser.parse_args()
    bench = opts.bench[1:] if opts.bench[:1] == ["--"] else opts.bench
    if not bench:
        parser.error("no benchmark given (after --)")
    script, args = bench[0], bench[1:]
    trees = [str(Path(t).resolve()) for t in opts.trees]
    metrics = DEFAULT_METRICS.get(Path(script).name, []) + opts.metric
    out = opts.out or HERE.parent / ".run" / f"alternate-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    runs = []
    with open(out, "a") as jsonl, open(out.with_suffix(".log"), "a") as log:
        for tree in schedule(trees, opts.pairs):
            print(f"[alternate {time.strftime('%H:%M:%S')}] {script} on {tree}", file=sys.stderr)
            label = "AB"[trees.index(tree)]
            run = run_once(Path(tree), label, script, args, opts.tools, log)
            runs.append(run)
            jsonl.write(json.dumps(run) + "\n")
            jsonl.flush()
            print(table(runs, trees, metrics), file=sys.stderr, flush=True)
    print(table(runs, trees, metrics))
    print(f"runs: {out}")
    return 0 if all(r["exit"] == 0 for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
