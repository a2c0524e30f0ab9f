"""The public API for bots and clients, under ``/api/v1/`` (docs/api.md).

One more caller of ``games.services``: it authenticates personal tokens
(``api.tokens``), reads games through ``games.access`` and the engine's
views (``api.views``), and turns the services' domain errors into RFC 9457
problem details (``api.problems``).
"""
