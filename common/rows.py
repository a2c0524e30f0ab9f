"""Model rows read without the ORM's query building, for the hottest reads.

Building a query costs the ORM about half a millisecond on the 2-core VM,
more than the round trip itself; these reads are a fixed statement each,
built once from the model's fields (so they follow the models), and their
rows become instances exactly as the ORM's would (``Model.from_db``, each
column through the converters the ORM applies).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Model


class RowReader:
    """Builds instances of ``model`` from the columns of ``select``, converted
    as the ORM would (JSON decoded, SQLite's types mapped)."""

    def __init__(self, model: type[Model], connection: Any) -> None:
        meta = model._meta
        self.model = model
        self.fields: list[Any] = list(meta.concrete_fields)
        self.attnames = [f.attname for f in self.fields]
        self.table = connection.ops.quote_name(meta.db_table)
        self.alias = connection.alias
        converters = []
        for i, f in enumerate(self.fields):
            col = f.get_col(meta.db_table)
            found = connection.ops.get_db_converters(col) + f.get_db_converters(connection)
            if found:
                converters.append((i, col, found))
        self.converters = converters
        self.connection = connection

    @functools.cache  # noqa: B019 (one reader per model and database, kept for good)
    def columns(self, alias: str | None = None) -> str:
        qn = self.connection.ops.quote_name
        prefix = qn(alias) if alias else self.table
        return ", ".join(f"{prefix}.{qn(f.column)}" for f in self.fields)

    def build(self, row: Sequence[Any]) -> Any:
        values = list(row[: len(self.fields)])
        for i, col, found in self.converters:
            for convert in found:
                values[i] = convert(values[i], col, self.connection)
        return self.model.from_db(self.alias, self.attnames, values)


_readers: dict[tuple[type[Model], str], RowReader] = {}


def reader(model: type[Model], using: str | None = None) -> RowReader:
    connection = transaction.get_connection(using)
    key = (model, connection.alias)
    found = _readers.get(key)
    if found is None:
        found = _readers[key] = RowReader(model, connection)
    return found
