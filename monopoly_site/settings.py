"""Settings, every one read from the environment (see the README's table)."""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from common.env import (
    check_redis_url,
    env_bool,
    env_int,
    env_list,
    env_rates,
    env_str,
    load_local_env,
    parse_database_url,
    redis_prefix_for,
    site_suffix,
    site_url_for,
)

BASE_DIR = Path(__file__).resolve().parent.parent
RUN_DIR = BASE_DIR / ".run"

# What `make run` set up (.run/local.env, or .run/local-PORT.env for PORT),
# for each variable the environment does not set: `python manage.py ...` in
# a fresh shell then finds the same key, database and Redis as the site
# (common/env.py; LOCAL_ENV=none reads none, as the tests do).
LOCAL_ENV_FILE = load_local_env(RUN_DIR)

# Off unless asked for: a deployment that forgets the variable gets the
# hardened site, not the debug pages. `make run` turns it on.
DEBUG = env_bool("DEBUG", False)

_DEV_SECRET = "dev-only-insecure-secret-key-change-me-in-production-0123456789"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not DEBUG and (not SECRET_KEY or SECRET_KEY == _DEV_SECRET):
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to a long random value when DEBUG is false."
        + (
            ""
            if LOCAL_ENV_FILE
            else " For a development site, run `make run` once: it leaves its "
            "settings in .run/local.env for manage.py."
        )
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
for _origin in CSRF_TRUSTED_ORIGINS:
    if not _origin.startswith(("http://", "https://")):
        raise ImproperlyConfigured(
            f"CSRF_TRUSTED_ORIGINS entries need a scheme, e.g. https://example.com, not {_origin!r}."
        )

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "channels",
    "csp",
    "allauth",
    "allauth.account",
    "ninja",
    "people",
    "accounts",
    "api",
    "games",
    "notifications",
    "ratings",
    "live",
    "social",
    "clubs",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "monopoly_site.security.SiteCSPMiddleware",
    "monopoly_site.security.permissions_policy",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
    # Last, so that its 400 page renders like any other (monopoly_site/badinput.py).
    "monopoly_site.badinput.RefuseControlCharactersMiddleware",
    # A view's lost database or Redis connection is a 503, not a 500.
    "common.unavailable.ServiceUnavailableMiddleware",
]

ROOT_URLCONF = "monopoly_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notifications.context_processors.unread",
                "social.context_processors.unread",
            ],
        },
    },
]

ASGI_APPLICATION = "monopoly_site.asgi.application"
WSGI_APPLICATION = "monopoly_site.wsgi.application"

_SUFFIX = site_suffix(env_str("PORT", "8000").strip())
DATABASES = {
    "default": parse_database_url(
        # As `make run` names it: a site on another PORT has a file of its own.
        env_str("DATABASE_URL", f"sqlite:///{RUN_DIR / f'db{_SUFFIX}.sqlite3'}"),
        BASE_DIR,
    )
}
# In a Daphne, database calls come from several threads (REQUEST_THREADS
# for HTTP requests, one for the sockets), and Django's per-request
# connection handling would close and reopen (PostgreSQL forking) one per
# request. The ASGI entry point (monopoly_site.asgi) asks for a small pool
# instead; other processes keep persistent connections.
if env_bool("DATABASE_POOL", False) and "postgresql" in DATABASES["default"]["ENGINE"]:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them
    # CONN_HEALTH_CHECKS (env.py) has Django give the pool psycopg_pool's
    # check: a round trip before each lend, which finds a connection
    # PostgreSQL has closed (a restart, a terminate) before a request gets it.
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": 1,
        "max_size": env_int("DATABASE_POOL_SIZE", 10),
        "timeout": 10,
    }
# Threads that run HTTP requests' sync code in a Daphne (monopoly_site/asgi.py
# says why so few): each holds at most one pooled connection, and the sockets'
# database calls share one more thread.
REQUEST_THREADS = max(1, env_int("REQUEST_THREADS", 4))
if "pool" in DATABASES["default"]["OPTIONS"]:
    _pool_size = DATABASES["default"]["OPTIONS"]["pool"]["max_size"]
    if _pool_size < REQUEST_THREADS + 1:
        raise ImproperlyConfigured(
            f"DATABASE_POOL_SIZE ({_pool_size}) must exceed REQUEST_THREADS ({REQUEST_THREADS})"
        )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = check_redis_url(env_str("REDIS_URL", "redis://127.0.0.1:6379/0"))
# One prefix per deployment (and per test run) keeps keys, channel groups and
# queues of neighbours sharing a Redis apart. Unset, it follows the database
# (common/env.py): two sites with databases of their own (two `make run`s on
# different ports) never take each other's tasks, and every process of one
# site agrees on it. Everything in Redis goes under it: the cache, the
# channel layer, Celery's queues and results (global_keyprefix), and the raw
# clients of live/presence.py and live/fanout.py.
REDIS_PREFIX = env_str("REDIS_PREFIX", "") or redis_prefix_for(DATABASES["default"])

CACHES = {
    "default": {
        "BACKEND": "common.cache.RedisCache",  # one pool per process
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": REDIS_PREFIX,
        # Short connect and read timeouts are the backend's own defaults
        # (common/cache.py): the site goes on without Redis.
    }
}

# Sessions are read from the cache and written to the database as well
# (accounts/sessions.py): no session query on each signed-in request.
SESSION_ENGINE = "accounts.sessions"

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        # A consumer waits on Redis with BZPOPMIN for up to 5 s at a time;
        # redis-py's default read timeout is also 5 s, which failed (and so
        # closed) every socket whose channel was quiet that long.
        "CONFIG": {
            # A Redis that does not answer fails a connection in a second,
            # not after the system's minutes-long connect timeout (issue 15).
            # The pool's room, as redis_health.POOL_MOST gives the site's own
            # clients: redis-py 8's asyncio default of 100 connections was too
            # few for the sockets of a Daphne reconnecting together.
            "hosts": [
                {
                    "address": REDIS_URL,
                    "socket_timeout": 15,
                    "socket_connect_timeout": 1,
                    "max_connections": 1000,
                }
            ],
            "prefix": f"{REDIS_PREFIX}:asgi",
            # All the sockets and API streams of one process share one queue
            # in Redis; past ``capacity`` messages a send is dropped. The
            # default, 100, dropped hundreds of commit notices in a
            # ``make bench-api`` run while the Daphne's loop was busy (a
            # stream that lost its game's last one waited 20 s for its
            # keep-alive), and would drop a logout's "session ended" or a
            # chat line the same way. Messages still expire after a minute.
            "capacity": 10_000,
        },
    }
}

CELERY_BROKER_URL = REDIS_URL
# Redis, with a channel that survives a Redis restart (monopoly_site/broker.py).
CELERY_BROKER_TRANSPORT = "monopoly_site.broker:Transport"
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_DEFAULT_QUEUE = f"{REDIS_PREFIX}-default"
# The win estimates (spectators' bar, post-game analysis) run on a queue of
# their own, consumed by a worker of its own at a lower CPU priority (the
# Procfile's `analysis`): sharing the timer workers, they took nine tenths of
# their time in the soak and timeouts fired 13 s late. The name needs no
# site prefix: the broker's global_keyprefix already gives each site its keys.
ANALYSIS_QUEUE = "analysis"
CELERY_TASK_ROUTES = {
    "live.tasks.estimate_position": {"queue": ANALYSIS_QUEUE},
    "games.tasks.analyse_game": {"queue": ANALYSIS_QUEUE},
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "global_keyprefix": f"{REDIS_PREFIX}:",
    # A task unacknowledged for this long is delivered again; long timers
    # therefore live in the database and beat sweeps them, never long ETAs.
    "visibility_timeout": 3600,
    "socket_connect_timeout": 1,
    # A Redis gone without closing the connection must not hold a publish
    # for ever; well above the worker's 1 s BRPOP.
    "socket_timeout": 3,
}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"global_keyprefix": f"{REDIS_PREFIX}:"}
# Without Redis (issue 15) a task sent from a request (a turn notice, a bot
# move, a timer's ETA) fails within about a second instead of holding the
# request through kombu's default retries; the caller logs and drops it (the
# beat sweep finds deadlines in the database). One retry still covers a
# connection that went stale while Redis restarted.
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.1,
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
CELERY_REDIS_SOCKET_TIMEOUT = 5
# The worker and beat wait for Redis to come back for as long as it takes
# (Celery's default gives up after 100 tries), then carry on by themselves.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_CHANNEL_ERROR_RETRY = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_RESULT_EXPIRES = 3600
# Celery's Django fixup closes every database connection before and after
# each task unless this is set, so every task (a batch of timeouts, a sweep)
# opened a new connection and PostgreSQL forked a server process for it. The
# worker keeps them as Django does instead (CONN_MAX_AGE and health checks,
# through close_old_connections around each task: monopoly_site/celery.py);
# the fixup then closes them only every this many tasks.
CELERY_DB_REUSE_MAX = 1000
# Timers (issue 6): beat sweeps the deadline table this often; deadlines
# closer than the horizon also get an ETA task, which only cuts latency. The
# horizon stays far below the visibility timeout, past which Redis redelivers.
# A game page that has heard nothing for about this long asks whether it
# missed a push (static/js/live.js); the tests shorten it.
LIVE_HEARTBEAT_SECONDS = max(1, env_int("LIVE_HEARTBEAT_SECONDS", 30))
TIMER_SWEEP_SECONDS = max(1, env_int("TIMER_SWEEP_SECONDS", 2))
# An API stream with nothing to say sends a keep-alive line this often, so
# that proxies do not cut it (api/stream.py).
API_STREAM_KEEPALIVE_SECONDS = max(1, env_int("API_STREAM_KEEPALIVE_SECONDS", 20))

# The spectators' win-probability bar (issue #20, docs/analysis.md): playouts
# per estimate (0: no live estimates at all), and how long after a move its
# estimate waits for the game to settle (a newer move drops the older work).
ANALYSIS_PLAYOUTS = max(0, env_int("ANALYSIS_PLAYOUTS", 1000))
ANALYSIS_DEBOUNCE_MS = max(0, env_int("ANALYSIS_DEBOUNCE_MS", 1000))
# A game with a person seated shows its estimate this many full rounds late
# (one turn per player still in it each) to everyone: never current, so
# nobody can pass a player engine help (games.estimates). At least 1.
ANALYSIS_DELAY_ROUNDS = max(1, env_int("ANALYSIS_DELAY_ROUNDS", 1))
TIMER_ETA_HORIZON_SECONDS = min(env_int("TIMER_ETA_HORIZON_SECONDS", 900), 1800)
# A finished game's analysis (issue 20, docs/analysis.md "After the game";
# POSTGAME_*, apart from the spectators' live estimate's own settings):
# beat looks for finished games without one this often and hands out at most
# POSTGAME_PER_SWEEP, while fewer than POSTGAME_CONCURRENCY run (each holds one
# worker process for its length: the bots' moves keep the others). Each
# analyses at most POSTGAME_MAX_POSITIONS evenly spaced positions, plus
# POSTGAME_REFINE_POSITIONS inside the largest swings, with at most
# POSTGAME_PLAYOUTS playouts each, fewer once every player's standard error
# is below POSTGAME_TARGET_STDERR.
POSTGAME_SWEEP_SECONDS = max(1, env_int("POSTGAME_SWEEP_SECONDS", 30))
POSTGAME_PER_SWEEP = max(0, env_int("POSTGAME_PER_SWEEP", 1))
POSTGAME_CONCURRENCY = max(1, env_int("POSTGAME_CONCURRENCY", 1))
POSTGAME_PLAYOUTS = max(1, env_int("POSTGAME_PLAYOUTS", 400))
POSTGAME_MAX_POSITIONS = max(2, env_int("POSTGAME_MAX_POSITIONS", 150))
POSTGAME_REFINE_POSITIONS = max(0, env_int("POSTGAME_REFINE_POSITIONS", 40))
POSTGAME_TURN_CAP = max(1, env_int("POSTGAME_TURN_CAP", 400))
try:
    POSTGAME_TARGET_STDERR = float(env_str("POSTGAME_TARGET_STDERR", "0.025"))
except ValueError:
    raise ImproperlyConfigured("POSTGAME_TARGET_STDERR must be a number like 0.025.") from None
# A decision that arises while its player is at the game (a visible page of
# it, or its API stream) raises no "your move" notice; whether they still are
# is looked at again this often until they answer it or leave, so that a
# player who closes or hides the page is told within about this long plus a
# sweep (docs/architecture.md, "Add a notification kind").
TURN_NOTICE_RECHECK_SECONDS = max(1, env_int("TURN_NOTICE_RECHECK_SECONDS", 20))

# A new account may write only to people who follow it, and post no links in
# chat, until it is this many days old and has finished this many games
# (games/newcomers.py).
NEWCOMER_DAYS = max(0, env_int("NEWCOMER_DAYS", 3))
NEWCOMER_GAMES = max(0, env_int("NEWCOMER_GAMES", 3))
# The collusion check (social/collusion.py): an accepted trade in a rated game
# that moves more than this percentage of the giver's net worth to the other
# side is flagged; so is this many lopsided trades between the same two accounts.
COLLUSION_SHARE_PERCENT = max(1, env_int("COLLUSION_SHARE_PERCENT", 25))
COLLUSION_PATTERN_TRADES = max(2, env_int("COLLUSION_PATTERN_TRADES", 3))

# The chat filter (people/wordfilter.py): word lists besides the one that
# ships, what a matching line gets (refused, or the words masked), and how
# many matches in how long file a report by themselves.
CHAT_FILTER_WORDS_FILES = env_list("CHAT_FILTER_WORDS_FILES", [])
CHAT_FILTER_MODE = env_str("CHAT_FILTER_MODE", "mask")
if CHAT_FILTER_MODE not in ("mask", "refuse"):
    raise ImproperlyConfigured("CHAT_FILTER_MODE must be mask or refuse.")
CHAT_FILTER_REPORT_AFTER = max(1, env_int("CHAT_FILTER_REPORT_AFTER", 3))
CHAT_FILTER_WINDOW_SECONDS = max(1, env_int("CHAT_FILTER_WINDOW_SECONDS", 3600))
# A "your move" email waits until its player has been away this long.
TURN_EMAIL_AWAY_MINUTES = max(0, env_int("TURN_EMAIL_AWAY_MINUTES", 15))
DIGEST_HOUR = env_int("DIGEST_HOUR", 8)  # local time of day of the daily digest
VACATION_DAYS_PER_YEAR = env_int("VACATION_DAYS_PER_YEAR", 14)
# Unset, email links point where `make run` serves (HOST and PORT).
SITE_URL = (
    env_str("SITE_URL", "") or site_url_for(env_str("HOST", "127.0.0.1"), env_int("PORT", 8000))
).rstrip("/")

# Only games.services writes games, seats, events and deadlines
# (games/writeguard.py): "raise" refuses any other writer (the tests, and
# debug mode), "log" warns of it and lets it write, "off" does not watch
# and costs nothing (production).
GAME_WRITE_GUARD = env_str("GAME_WRITE_GUARD", "raise" if DEBUG else "off")
if GAME_WRITE_GUARD not in {"raise", "log", "off"}:
    raise ImproperlyConfigured("GAME_WRITE_GUARD must be raise, log or off")

# The in-process caches named here are off (common/memo.py): for a
# benchmark to show what each earns ("log", "include", "watched",
# "your_games", "watch").
MEMO_OFF = frozenset(env_list("MEMO_OFF", []))

# Abuse limits (issue 14), counted in the cache per user and per client
# address in fixed windows (common/ratelimit.py). Only views and API
# endpoints are limited: bots and timers act through the services and never
# are. The per-person scopes (common.ratelimit.PER_PERSON) count the pages
# and the API in one counter per account (issue 32).
_PER = {"user", "ip"}
RATE_LIMITS = {
    "chat": env_rates("RATE_LIMIT_CHAT", "10/10s/user,30/10s/ip", _PER),
    "create": env_rates("RATE_LIMIT_CREATE", "10/1h/user,30/1h/ip", _PER),
    "join": env_rates("RATE_LIMIT_JOIN", "30/10m/user,60/10m/ip", _PER),
    "trade": env_rates("RATE_LIMIT_TRADE", "10/1m/user,30/1m/ip", _PER),
    # Challenges sent, on the page and through the API alike (issue 32).
    "challenge": env_rates("RATE_LIMIT_CHALLENGE", "20/10m/user,60/10m/ip", _PER),
    "action": env_rates("RATE_LIMIT_ACTION", "60/10s/user,180/10s/ip", _PER),
    # Private messages, per account: the pages and the API count together.
    "message": env_rates("RATE_LIMIT_MESSAGE", "10/1m/user,100/1h/user", {"user"}),
    # Reports filed (social/reports.py), per account.
    "report": env_rates("RATE_LIMIT_REPORT", "5/10m/user,50/1d/user", {"user"}),
    # Failed logins: per account from one address, per account from
    # anywhere (slow, so nobody is locked out by strangers for long), per address.
    "login_failed": env_rates(
        "RATE_LIMIT_LOGIN_FAILED", "5/5m/pair,50/1h/account,30/10m/ip", {"pair", "account", "ip"}
    ),
    # Requests with a bad API token (unknown, forged, revoked), per address
    # (api/limits.py): while full, even a right token from there is refused.
    "token_failed": env_rates("RATE_LIMIT_TOKEN_FAILED", "30/10m/ip", {"ip"}),
    # The API's budgets per token (api/limits.py), reads and writes apart.
    "api_read": env_rates("API_RATE_LIMIT_READ", "60/10s/token,1200/10m/token", {"token"}),
    "api_write": env_rates("API_RATE_LIMIT_WRITE", "30/10s/token,900/10m/token", {"token"}),
}
# How many proxies in front of the site append to X-Forwarded-For; the
# client's address is the one the outermost trusted proxy saw. 0 (the
# default) trusts no header and uses the connection's address.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT
OPEN_GAMES_CAP = env_int("OPEN_GAMES_CAP", 20)
OPEN_GAMES_BONUS_EVERY = env_int("OPEN_GAMES_BONUS_EVERY", 10)
OPEN_GAMES_CAP_MAX = env_int("OPEN_GAMES_CAP_MAX", 50)
# A bot account's cap on games open or under way at once (instead of the
# above): a runaway program cannot fill the lobby.
API_BOT_MAX_GAMES = max(1, env_int("API_BOT_MAX_GAMES", 10))
# Live (unrevoked) API tokens one account may hold (api/tokens.py), and
# WebSockets one account may have open at once (live/socket_cap.py).
API_TOKENS_PER_ACCOUNT = max(1, env_int("API_TOKENS_PER_ACCOUNT", 20))
SOCKETS_PER_ACCOUNT = max(1, env_int("SOCKETS_PER_ACCOUNT", 30))
# Clubs (clubs/services.py): how many clubs one account may create.
CLUBS_PER_ACCOUNT = max(0, env_int("CLUBS_PER_ACCOUNT", 3))
# A game with no person seated (site bots and bot accounts only) ends by net
# worth at the end of the round that reaches this many turns; 0: never.
# Games of the site's heuristic bots end by themselves well before (the
# longest of 1,200 simulated ones: 423 turns); games of bots that never
# trade would go on for thousands (games/engine/rules.py, ``turn_limit``).
BOT_GAME_TURN_LIMIT = min(100_000, max(0, env_int("BOT_GAME_TURN_LIMIT", 500)))
# How long an Idempotency-Key's first answer is kept for retries.
API_IDEMPOTENCY_RETENTION_HOURS = max(1, env_int("API_IDEMPOTENCY_RETENTION_HOURS", 24))
# Tournaments (tournaments/services): who may create a public event (staff
# and club leaders always may), how long a no-show is barred, how often
# beat's sweep looks for due rounds and series, and the site's own events.
TOURNAMENT_CREATE_MIN_GAMES = max(0, env_int("TOURNAMENT_CREATE_MIN_GAMES", 5))
TOURNAMENT_CREATE_MAX_TIMEOUT_RATIO = float(env_str("TOURNAMENT_CREATE_MAX_TIMEOUT_RATIO", "0.1"))
TOURNAMENT_NO_SHOW_BAR_DAYS = max(0, env_int("TOURNAMENT_NO_SHOW_BAR_DAYS", 14))
TOURNAMENT_SWEEP_SECONDS = max(1, env_int("TOURNAMENT_SWEEP_SECONDS", 10))
TOURNAMENT_MAX_PLAYERS = max(2, env_int("TOURNAMENT_MAX_PLAYERS", 1000))
TOURNAMENT_SITE_EVENTS = env_bool("TOURNAMENT_SITE_EVENTS", True)
# The hour (UTC) the site's daily and weekly events are created; their
# registration then stays open a day.
TOURNAMENT_SITE_HOUR = min(23, max(0, env_int("TOURNAMENT_SITE_HOUR", 18)))
# One beat runs the schedule however many are started (monopoly_site/beat.py).
CELERY_BEAT_SCHEDULER = "monopoly_site.beat:SingleBeatScheduler"
CELERY_BEAT_SCHEDULE = {
    "heartbeat": {"task": "monopoly_site.tasks.heartbeat", "schedule": 30.0},
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": float(TIMER_SWEEP_SECONDS),
    },
    "sweep-notices": {
        "task": "notifications.tasks.sweep_notices",
        "schedule": float(TIMER_SWEEP_SECONDS),
        "options": {"expires": float(TIMER_SWEEP_SECONDS)},
    },
    # A version committed by a process that died before pushing it. Queued
    # sweeps left behind by an outage would all find the same: they expire.
    "push-missed": {
        "task": "live.tasks.push_missed",
        "schedule": float(TIMER_SWEEP_SECONDS),
        "options": {"expires": float(TIMER_SWEEP_SECONDS)},
    },
    # Finished games without an analysis; one that waits for a free slot is
    # found again by a later sweep.
    "sweep-analyses": {
        "task": "games.tasks.sweep_analyses",
        "schedule": float(POSTGAME_SWEEP_SECONDS),
        "options": {"expires": float(POSTGAME_SWEEP_SECONDS)},
    },
    # Every quarter hour: each user's digest goes out in their own DIGEST_HOUR.
    "daily-digest": {"task": "notifications.tasks.send_digests", "schedule": 900.0},
    # The API's idempotency keys past their retention (api/tasks.py).
    "sweep-idempotency-keys": {
        "task": "api.tasks.sweep_idempotency_keys",
        "schedule": 600.0,
        "options": {"expires": 600.0},
    },
    # Tournaments' due rows (registration closing, round starts) and the
    # series whose next event is due (tournaments/tasks.py).
    "sweep-tournaments": {
        "task": "tournaments.tasks.sweep_tournaments",
        "schedule": float(TOURNAMENT_SWEEP_SECONDS),
        "options": {"expires": float(TOURNAMENT_SWEEP_SECONDS)},
    },
}

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_REDIRECT_URL = "/lobby/"
LOGOUT_REDIRECT_URL = "/"
LOGIN_URL = "account_login"

ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env_str("ACCOUNT_EMAIL_VERIFICATION", "optional")
if ACCOUNT_EMAIL_VERIFICATION not in {"none", "optional", "mandatory"}:
    raise ImproperlyConfigured("ACCOUNT_EMAIL_VERIFICATION must be none, optional or mandatory.")
ACCOUNT_UNIQUE_EMAIL = True
# Sign-up and password reset never tell whether an address has an account
# (issue 32). With mandatory verification allauth answers a taken address as
# a new one and mails its owner; otherwise the sign-up goes through as any
# other ("strict": an unverified copy of the address, on an account that can
# never verify it), and the owner is mailed instead of the link
# (accounts/adapter.py).
ACCOUNT_PREVENT_ENUMERATION = True if ACCOUNT_EMAIL_VERIFICATION == "mandatory" else "strict"
# The password forms warn that a new password revokes the API tokens.
ACCOUNT_FORMS = {
    "login": "accounts.forms.SiteLoginForm",
    "change_password": "accounts.forms.SiteChangePasswordForm",
    "reset_password_from_key": "accounts.forms.SiteResetPasswordKeyForm",
}
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    # allauth counts failures per typed login, so five wrong guesses from
    # anywhere locked the owner out; failed logins are limited per account
    # and address instead (RATE_LIMITS["login_failed"], accounts/login_limits.py).
    "login_failed": "",
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
    "change_password": "5/m/user",
}
ACCOUNT_USERNAME_BLACKLIST = ["admin", "bank", "lobby", "watch", "bot", "system"]

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Monopoly <noreply@localhost>")

# Web Push (notifications/push.py): off unless both keys are set. Make a pair
# with `python manage.py vapid_keys`; the subject is who push services contact.
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "mailto:noreply@localhost")
EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH", str(BASE_DIR / ".run" / "mail"))
# Pushes go only to https push services on public addresses
# (notifications/endpoints.py). The tests add the origin of their local
# stand-in push service here; nothing else ever should, so it is no
# environment variable.
PUSH_LOCAL_ENDPOINTS: list[str] = []

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(RUN_DIR / "static")))
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise warns on every request when the directory is absent (before the
# first collectstatic), so make sure it exists.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# Production hardening: on by default whenever DEBUG is off, so
# `manage.py check --deploy` is quiet; each can still be overridden.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
CSRF_FAILURE_VIEW = "common.csrf.csrf_failure"  # "reload the page", not Django's own
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_TLS_PROXY", not DEBUG) else None
)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# What a page may load and do (README, "Security headers"). Scripts come only
# from our own static files: no inline script, no eval (htmx's eval features
# are off through the htmx-config meta tag in base.html). Style attributes
# stay allowed because seat and colour-group colours are set per element
# (style="--seat: ..."); <style> elements and stylesheets must be our own.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'"],
        # The page's ws:// or wss:// origin is added per request (security.py).
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Pages and their query strings (invite links, game ids) are nobody else's
# business: other sites get no Referer at all, our own pages the full one.
SECURE_REFERRER_POLICY = "same-origin"
# Powerful browser features the site never uses, denied to it and to any frame.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "encrypted-media",
        "fullscreen",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "picture-in-picture",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
