"""The OpenAPI document: valid OpenAPI 3, served with browsable docs, and
true to the server: schemathesis's command line, every check on, against a
live server finds nothing (the streams left out: they never end)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from openapi_spec_validator import validate

from accounts.models import User
from games import services
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


def _operations(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{method.upper()} {path}", operation)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
    ]


def test_every_error_answer_is_documented_as_a_problem_document(db: None) -> None:
    document = Client().get("/api/v1/openapi.json").json()
    for label, operation in _operations(document):
        for status, answer in operation["responses"].items():
            if int(status) >= 400:
                assert list(answer["content"]) == ["application/problem+json"], (label, status)


def test_every_request_body_refuses_fields_it_does_not_name(db: None) -> None:
    document = Client().get("/api/v1/openapi.json").json()
    schemas = document["components"]["schemas"]
    bodies = [
        ref.rsplit("/", 1)[1]
        for _, operation in _operations(document)
        for media in operation.get("requestBody", {}).get("content", {}).values()
        # A body that may be left out (a follow's) is anyOf it and null.
        for ref in re.findall(r'"\$ref": "([^"]+)"', json.dumps(media["schema"]))
    ]
    assert bodies
    for name in bodies:
        assert schemas[name]["additionalProperties"] is False, name


def test_a_body_field_of_another_json_type_or_name_is_refused(alice: User) -> None:
    api = api_for(alice)
    game_id = api.post("/games", {"seats": 2}).json()["id"]
    for body in ({"confirm_blocked": 0}, {"confirm_blocked": "true"}, {"unknown": 1}):
        answer = api.post(f"/games/{game_id}/join", body)
        assert answer.status_code == 422, body
    assert api.post("/games", {"seats": 2.0}).status_code == 201  # JSON's 2.0 is 2
    assert api.post("/games", {"seats": True}).status_code == 422


def test_the_docs_page_is_served(db: None) -> None:
    answer = Client().get("/api/v1/docs")
    assert answer.status_code == 200
    assert b"swagger" in answer.content.lower()


# The bounded run of `make test` (about a minute): a few examples of each
# operation, and the coverage phase's edge cases of every constraint.
BOUNDED = ["--max-examples", "5", "--phases", "coverage,fuzzing"]
# The full run of `make test-long`: every phase and check, stateful sequences
# included; 50 examples an operation keep `make test-long` under 20 minutes.
FULL = ["--max-examples", "50", "--phases", "examples,coverage,fuzzing,stateful"]


@pytest.fixture
def no_rate_limits(settings: Any) -> None:
    """schemathesis sends far more than any budget allows, from one address."""
    settings.RATE_LIMITS = dict.fromkeys(settings.RATE_LIMITS, ())


def schemathesis_run(url: str, tmp_path: Path, phases: list[str]) -> tuple[int, str]:
    """``schemathesis run --checks all`` against the live server, as alice,
    with the ids of real games and people offered for the path parameters
    (random ones would mostly meet a 404): a public lobby of bob's, alice's
    lobby with bob seated, and a game the two of them play. Its exit status
    and its report (written as it runs to ``schemathesis.log``)."""
    alice, bob = (
        User.objects.create_user(name, f"{name}@example.com", f"pw-{name}-123")
        for name in ("alice", "bob")
    )
    lobby = services.create_game(host=bob, max_seats=4, bot_delay_ms=0)
    ready = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
    services.join_game(public_id=ready.public_id, user=bob)
    playing = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
    services.join_game(public_id=playing.public_id, user=bob)
    services.start_game(public_id=playing.public_id, user=alice)
    games = [lobby.public_id, ready.public_id, playing.public_id]
    config = tmp_path / "schemathesis.toml"
    config.write_text(
        f"""
[warnings]
fail-on = ["validation_mismatch"]
[dictionaries.games]
values = {json.dumps(games)}
[dictionaries.people]
values = ["alice", "bob"]
[parameters]
"path.game_id" = {{ dictionary = "games", probability = 0.8 }}
"path.username" = {{ dictionary = "people", probability = 0.8 }}
# The coverage phase tries each seat rule's branch (api/switch_schema.py)
# with each field's edge values: minutes of games created, on this one
# operation. Fuzzing and the stateful phase still send it every kind of body.
[[operations]]
include-path = "/api/v1/games"
include-method = "POST"
phases.coverage.enabled = false
# Whether an action of the right shape is legal depends on the game's state
# (its legal_actions), which no schema can state: an action of the schema's
# shape that the game refuses is the documented 422 (docs/api.md).
[[operations]]
include-path = "/api/v1/games/{{game_id}}/actions"
include-method = "POST"
checks.positive_data_acceptance.expected-statuses = [
    "2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"
]
"""
    )
    command = [
        str(Path(sys.executable).parent / "schemathesis"),
        *("--config-file", str(config), "run", f"{url}/api/v1/openapi.json"),
        *("--checks", "all", "--exclude-path-regex", "/stream"),
        *("--header", f"Authorization: Bearer {api_for(alice).token}"),
        *("--seed", "34", "--workers", "1", "--generation-database", "none"),
        *("--request-timeout", "60"),
        *("--no-color", "--output-truncate", "false", *phases),
    ]
    log = tmp_path / "schemathesis.log"
    with log.open("w") as out:
        status = subprocess.run(
            command, stdout=out, stderr=subprocess.STDOUT, check=False, timeout=1800, cwd=tmp_path
        ).returncode
    return status, log.read_text()


def test_schemathesis_finds_nothing_in_a_bounded_run(
    live_server: Any, no_rate_limits: None, no_bot_tasks: Any, tmp_path: Path
) -> None:
    status, report = schemathesis_run(live_server.url, tmp_path, BOUNDED)
    assert status == 0, report


@pytest.mark.slow  # every phase, 50 examples each: minutes
def test_schemathesis_finds_nothing_in_a_full_run(
    live_server: Any, no_rate_limits: None, no_bot_tasks: Any, tmp_path: Path
) -> None:
    status, report = schemathesis_run(live_server.url, tmp_path, FULL)
    assert status == 0, report
