"""The user manager's quick ``get`` by primary key: the same user, row and
errors as the ORM's, which still answers every other lookup."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth.backends import ModelBackend
from django.db import connection
from django.db.models import QuerySet
from django.test.utils import CaptureQueriesContext

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada() -> User:
    return User.objects.create_user(
        "ada",
        "ada@example.com",
        "pw-for-tests-only",
        display_name="Ada",
        time_zone="Europe/London",
        vacation_until=datetime(2026, 12, 1, 9, 30, tzinfo=UTC),
        notify_digest=True,
    )


def orm_get(**lookup: object) -> User:
    return QuerySet(User).get(**lookup)


def test_a_user_read_by_pk_is_the_orms_user_field_for_field(ada: User) -> None:
    quick, orm = User.objects.get(pk=ada.pk), orm_get(pk=ada.pk)
    for field in User._meta.concrete_fields:
        assert getattr(quick, field.attname) == getattr(orm, field.attname), field.name
    assert quick == orm
    assert not quick._state.adding and quick._state.db == "default"
    assert quick.vacation_until == datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


def test_a_session_key_string_and_id_find_the_same_user(ada: User) -> None:
    assert User.objects.get(pk=str(ada.pk)) == ada
    assert User.objects.get(id=ada.pk) == ada


def test_a_missing_user_is_does_not_exist(ada: User) -> None:
    with pytest.raises(User.DoesNotExist):
        User.objects.get(pk=ada.pk + 1000)


def test_a_key_that_is_not_an_id_fails_as_the_orms_does(ada: User) -> None:
    with pytest.raises(ValueError) as orm_error:
        orm_get(pk="not-an-id")
    with pytest.raises(ValueError) as quick_error:
        User.objects.get(pk="not-an-id")
    assert str(quick_error.value) == str(orm_error.value)


def test_other_lookups_go_to_the_orm(ada: User) -> None:
    assert User.objects.get(username="ada") == ada
    assert User.objects.get(pk=ada.pk, is_active=True) == ada
    with pytest.raises(User.DoesNotExist):
        User.objects.get(pk=ada.pk, is_active=False)


def test_signing_in_reads_the_user_in_one_plain_query(ada: User) -> None:
    with CaptureQueriesContext(connection) as queries:
        assert ModelBackend().get_user(str(ada.pk)) == ada
    [query] = queries.captured_queries
    assert "LIMIT" not in query["sql"]  # the ORM's get asks for up to 21 rows
