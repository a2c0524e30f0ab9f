"""`make audit` says how much it audited, and fails unless it audited everything."""

from __future__ import annotations

from pathlib import Path

from monopoly_site.audit import run_pip_audit, summarise


def skipped(name: str) -> dict[str, str]:
    return {"name": name, "skip_reason": f"Dependency not found on PyPI: {name}"}


def clean(name: str) -> dict[str, object]:
    return {"name": name, "version": "1.0", "vulns": []}


def test_reports_that_nothing_was_audited_when_no_package_could_be_looked_up() -> None:
    status, lines = summarise({"dependencies": [skipped("django"), skipped("celery")]})
    assert status == 2
    assert "NOTHING was audited" in lines[-1]


def test_an_audit_with_packages_left_out_is_incomplete() -> None:
    status, lines = summarise({"dependencies": [clean("django"), skipped("celery")]})
    assert status == 2
    assert "1 of 2 packages could not be looked up" in "\n".join(lines)
    assert "INCOMPLETE" in lines[-1]


def test_a_known_vulnerability_fails_and_names_the_fix() -> None:
    vulnerable = {
        "name": "django",
        "version": "5.2.0",
        "vulns": [{"id": "PYSEC-2025-1", "fix_versions": ["5.2.1"]}],
    }
    status, lines = summarise({"dependencies": [vulnerable, clean("celery")]})
    assert status == 1
    assert "django 5.2.0: PYSEC-2025-1 (fixed in 5.2.1)" in lines


def test_a_complete_clean_audit_passes() -> None:
    status, lines = summarise({"dependencies": [clean("django"), clean("celery")]})
    assert status == 0
    assert lines == ["audit: all 2 pinned packages audited; no known vulnerabilities."]


def test_pip_audit_reads_a_pinned_lock_file(tmp_path: Path) -> None:
    # Whether or not the service answers here, each package comes back
    # either looked up or skipped with a reason: never silently dropped.
    lock = tmp_path / "requirements.lock"
    lock.write_text("django-csp==4.0\n")
    [package] = run_pip_audit(lock)["dependencies"]
    assert package["name"] == "django-csp"
    assert "vulns" in package or "skip_reason" in package
