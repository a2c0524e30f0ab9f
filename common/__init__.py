"""What every app of the site uses and that knows none of them: settings from
the environment, the Redis cache and its health, rate limits, row helpers, the
503 page and SVG charts. It sits below every app; ``monopoly_site`` (the
project's settings, URLs and ASGI wiring) sits above them all
(``.importlinter``)."""
