"""The OpenAPI document: valid OpenAPI 3, served with browsable docs, and
no operation answers a server error, on valid or invalid input
(schemathesis against the live schema)."""

from __future__ import annotations

import json
from typing import Any

import hypothesis
import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, given
from openapi_spec_validator import validate

from accounts.models import User
from games import services
from monopoly_site.wsgi import application
from tests.api.conftest import api_for


def test_the_openapi_document_validates_as_openapi_3(db: None) -> None:
    answer = Client().get("/api/v1/openapi.json")
    assert answer.status_code == 200
    document = answer.json()
    assert document["openapi"].startswith("3.")
    validate(document)
    paths = document["paths"]
    for path in ("/api/v1/games", "/api/v1/games/{game_id}", "/api/v1/games/{game_id}/actions"):
        assert path in paths


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    duplicated = sorted({key for key in keys if keys.count(key) > 1})
    assert not duplicated, f"duplicated keys {duplicated} in {keys}"
    return dict(pairs)


def test_the_openapi_document_has_no_duplicated_key(db: None) -> None:
    # Swagger UI parses the document as YAML, which refuses a key twice in
    # one object ("duplicated mapping key"); Python's json keeps the last.
    answer = Client().get("/api/v1/openapi.json")
    document = json.loads(answer.content, object_pairs_hook=_refuse_duplicates)
    stream = document["paths"]["/api/v1/games/{game_id}/stream"]["get"]["responses"]["200"]
    assert list(stream["content"]) == ["application/x-ndjson"]


def test_the_docs_page_is_served(db: None) -> None:
    answer = Client().get("/api/v1/docs")
    assert answer.status_code == 200
    assert b"swagger" in answer.content.lower()


EXAMPLES = 5  # per operation and mode: the run stays well under a minute


@pytest.mark.slow  # 11 s: in make test-long, which CI runs too
def test_no_operation_answers_a_server_error(alice: User, bob: User, no_bot_tasks: Any) -> None:
    game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
    headers = {"Authorization": f"Bearer {api_for(alice).token}"}
    seen: list[tuple[str, int]] = []
    # As Django's test client does: the WSGI handler would close the test's
    # connection (and its transaction) at the end of each request.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 8
        for operation in operations:
            for mode in (
                schemathesis.GenerationMode.POSITIVE,
                schemathesis.GenerationMode.NEGATIVE,
            ):
                run(operation, mode, game.public_id, headers, seen)
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
    assert len({label for label, _ in seen}) == len(operations)
    assert any(status == 200 for _, status in seen)


def run(
    operation: Any, mode: Any, game_id: str, headers: dict[str, str], seen: list[tuple[str, int]]
) -> None:
    """A bounded, derandomized run of one operation: half of the examples
    aim at a real game, so that the checks past the 404 run too."""

    @given(case=operation.as_strategy(mode))
    @hypothesis.settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def check(case: Any) -> None:
        if case.path_parameters and "game_id" in case.path_parameters and len(seen) % 2:
            case.path_parameters["game_id"] = game_id
        response = case.call(headers=headers)
        seen.append((operation.label, response.status_code))
        assert response.status_code < 500, (case.as_curl_command(), response.text)

    check()
