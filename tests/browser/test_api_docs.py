"""The browsable API docs (/api/v1/docs) render in a real browser: Swagger
UI parses the schema and lists the operations, with no "Parser error"."""

from __future__ import annotations

from typing import Any

import pytest

# A browser: in `make test-long` (which CI runs too), as most browser tests.
pytestmark = pytest.mark.slow


def test_the_api_docs_render_every_operation(page: Any, db: None) -> None:
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto("/api/v1/docs")
    page.locator(".opblock").first.wait_for()
    text = page.locator("#swagger-ui").inner_text()
    assert "Parser error" not in text and "duplicated mapping key" not in text
    assert page.locator(".errors-wrapper").count() == 0
    summaries = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/v1/games/{game_id}/stream" in [s.replace("\u200b", "") for s in summaries]
    assert not problems
