"""The OpenAPI document says what the server enforces before any view runs.

``monopoly_site.badinput`` refuses, at the door, control characters in an
address, a query and a JSON body, texts longer than ``MAX_JSON_TEXT`` and
numbers of more than ``MAX_DIGITS`` digits. The models cannot say so field
by field without repeating it everywhere, so the document is completed here
from badinput's own constants: every request string that no enum, pattern or
format already bounds gets the door's pattern and length, every integer the
door's bounds. Error answers are problem documents (``api.problems``), and
the document says so in their content type.
"""

from __future__ import annotations

import typing
from typing import Any

from ninja import NinjaAPI, Schema
from pydantic import ConfigDict, ModelWrapValidatorHandler, model_validator
from pydantic.fields import FieldInfo

from api.problems import CONTENT_TYPE as PROBLEM
from common.controls import CONTROLS, CONTROLS_BUT_LINES, MAX_JSON_TEXT
from common.numbers import MAX_DIGITS
from games import engine

# badinput's ANY_CONTROL and CONTROL_BUT_LINES as JSON Schema patterns
# (the lone surrogates they also refuse are not valid UTF-8, which is all a
# client can send).
ONE_LINE = f"^[^{CONTROLS}]*$"
LINES = f"^[^{CONTROLS_BUT_LINES}]*$"
# Django's username validator (UnicodeUsernameValidator), with the field's length.
USERNAME = r"^[\w.@+-]{1,150}$"
# A dice seed (``games.services.lobby.check_seed``): hex of whole bytes,
# blanks around it ignored; empty for none.
_HEX = f"(?:[0-9a-fA-F]{{2}}){{{engine.MIN_SEED_BYTES},{engine.MAX_SEED_BYTES}}}"
SEED = rf"^[ \t\n\r]*(?:{_HEX})?[ \t\n\r]*$"
LARGEST = 10**MAX_DIGITS - 1
BOUNDED = ("enum", "const", "pattern", "format")


class DocumentedApi(NinjaAPI):
    def get_openapi_schema(self, **kwargs: Any) -> Any:
        document = super().get_openapi_schema(**kwargs)
        complete(document)
        return document


def complete(document: dict[str, Any]) -> None:
    components = document.get("components", {}).get("schemas", {})
    bodies: set[str] = set()
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                _door(parameter.get("schema", {}), ONE_LINE, components, bodies)
            for media in operation.get("requestBody", {}).get("content", {}).values():
                _door(media.get("schema", {}), LINES, components, bodies)
            for status, answer in operation.get("responses", {}).items():
                if int(status) >= 400 and "application/json" in answer.get("content", {}):
                    answer["content"] = {PROBLEM: answer["content"]["application/json"]}


def _door(schema: Any, pattern: str, components: dict[str, Any], seen: set[str]) -> None:
    """Bound ``schema`` (and what it refers to, once) as the door does."""
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[1]
        if name not in seen:
            seen.add(name)
            _door(components.get(name), pattern, components, seen)
    if not any(key in schema for key in BOUNDED):
        if schema.get("type") == "string":
            schema["pattern"] = pattern
            schema["maxLength"] = min(schema.get("maxLength", MAX_JSON_TEXT), MAX_JSON_TEXT)
        elif schema.get("type") == "integer":
            schema.setdefault("minimum", -LARGEST)
            schema.setdefault("maximum", LARGEST)
    for key in ("properties", "$defs"):
        for child in schema.get(key, {}).values():
            _door(child, pattern, components, seen)
    for key in ("items", "additionalProperties", "propertyNames"):
        _door(schema.get(key), pattern, components, seen)
    for key in ("anyOf", "oneOf", "allOf"):
        for child in schema.get(key, []):
            _door(child, pattern, components, seen)


class Body(Schema):
    """A request body, read as the document states it: a field it does not
    name is refused (``additionalProperties: false``), and so is a value of
    another JSON type (strict: ``0`` is not ``false``, ``"3"`` is not 3)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    # Replaces ninja's validator of the same name, which reads its input
    # through a DjangoGetter (for answers built from rows): a body is a dict.
    @model_validator(mode="wrap")
    @classmethod
    def _run_root_validator(cls, values: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        if isinstance(values, dict):
            for name, value in values.items():
                field = cls.model_fields.get(name)
                # A Literal of numbers takes True for 1 and False for 0, strict or not.
                if field is not None and isinstance(value, bool) and not _takes_bool(field):
                    raise ValueError(f"{name}: send a number or a text, not true or false.")
        return handler(whole_numbers(values))


def _takes_bool(field: FieldInfo) -> bool:
    return bool in (field.annotation, *typing.get_args(field.annotation))


def whole_numbers(data: Any) -> Any:
    """``data`` with its integral floats as ints: JSON Schema counts ``3.0``
    as an integer, and strict validation alone would refuse it."""
    if isinstance(data, float) and data.is_integer():
        return int(data)
    if isinstance(data, dict):
        return {key: whole_numbers(value) for key, value in data.items()}
    if isinstance(data, list):
        return [whole_numbers(value) for value in data]
    return data
