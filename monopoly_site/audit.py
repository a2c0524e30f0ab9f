"""`make audit`: look up every pinned package of requirements.lock in the
vulnerability database (pip-audit, PyPI's advisory service), and say plainly
how much was actually audited.

pip-audit alone reports "No known vulnerabilities found" and exits 0 when it
could not look up a single package (no network, the service down): each one
is only "skipped". This reads its JSON instead and exits

    0  every package was looked up and none has a known vulnerability;
    1  a package has a known vulnerability;
    2  some or all packages could not be looked up (the audit is incomplete).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
LOCK = BASE_DIR / "requirements.lock"


def run_pip_audit(lock: Path = LOCK) -> dict[str, Any]:
    # --no-deps --disable-pip: the lock pins every package already, so there
    # is nothing to resolve and no virtualenv to build.
    command = [
        sys.executable, "-m", "pip_audit", "--requirement", str(lock), "--no-deps",
        "--disable-pip", "--progress-spinner", "off", "--format", "json",
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True)
    if not result.stdout.strip():
        raise SystemExit(f"audit: pip-audit failed ({result.returncode}):\n{result.stderr}")
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def summarise(report: dict[str, Any]) -> tuple[int, list[str]]:
    """The exit status and the lines to print for pip-audit's JSON report."""
    packages = report["dependencies"]
    skipped = [p for p in packages if "skip_reason" in p]
    vulnerable = [p for p in packages if p.get("vulns")]
    lines = []
    for package in vulnerable:
        for vuln in package["vulns"]:
            fixed = ", ".join(vuln.get("fix_versions") or []) or "no fixed version yet"
            lines.append(f"{package['name']} {package['version']}: {vuln['id']} (fixed in {fixed})")
    if skipped:
        lines.append(f"audit: {len(skipped)} of {len(packages)} packages could not be looked up:")
        lines += [f"  {p['skip_reason']}" for p in skipped]
    if packages and len(skipped) == len(packages):
        lines.append(
            "audit: could not reach the vulnerability service; NOTHING was audited. "
            "Run `make audit` where PyPI's JSON API answers."
        )
        return 2, lines
    if vulnerable:
        lines.append(f"audit: {len(vulnerable)} packages have known vulnerabilities.")
        return 1, lines
    if skipped:
        lines.append("audit: INCOMPLETE; the packages above were not audited.")
        return 2, lines
    lines.append(f"audit: all {len(packages)} pinned packages audited; no known vulnerabilities.")
    return 0, lines


def main() -> int:
    status, lines = summarise(run_pip_audit())
    print("\n".join(lines))
    return status


if __name__ == "__main__":
    sys.exit(main())
