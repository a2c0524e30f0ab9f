"""Domain errors of ``people``: views and the API catch them and show
``message`` (pretix's way)."""

from __future__ import annotations


class PeopleError(Exception):
    status = 422

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Refused(PeopleError):
    """One person may not reach another this way. Blocks and privacy give the
    same words, so a blocked person cannot tell that they are blocked."""

    status = 403


class Yourself(PeopleError):
    """Following, blocking or muting yourself: what was sent is well formed,
    it only names the one asking, so the API answers 409 (a 422 says the
    request did not match the schema, which it did)."""

    status = 409


class NoSuchPerson(PeopleError):
    status = 404
