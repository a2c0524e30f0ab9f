# The two commands: `make run` and `make test`. Everything else supports them.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat requirements.lock pyproject.toml | cksum | cut -d' ' -f1)
# test-upgrade's venv holds the newest releases pyproject.toml's ranges
# allow, never the lock: `make test VENV=.venv-upgrade` keeps them.
UPGRADE_VENV := .venv-upgrade
ifeq ($(VENV),$(UPGRADE_VENV))
REQUIREMENTS := --upgrade --upgrade-strategy eager -r $(VENV)/ranges.txt
else
REQUIREMENTS := -r requirements.lock
endif
ENGINE_BUILD := games/engine/native.digest
# pyproject.toml's dependency ranges, one a line for `pip install -r` (the
# project itself does not install: its packages sit side by side at the top).
RANGES = $(PY) -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; print(*p["dependencies"], *p["optional-dependencies"]["dev"], sep="\n")'

.PHONY: run test test-long test-slow test-upgrade install engine lint format audit chromium nginx bench-engine bench-estimate bench-timers bench-live bench-load bench-api bench-pairing soak lock

run: install
	$(PY) -m monopoly_site.localservices run

# make test runs on TEST_WORKERS pytest-xdist workers (one a core here), whole
# files to a worker (tests/xdist_worker.py keeps their Redis keys, queues and
# databases apart); TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= 2
test: install chromium nginx
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m monopoly_site.localservices test -- -m "not slow" -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# The long runs (tests marked slow: 20,000 bot games with invariants, the
# failed-build check of the engine, the leaderboard at scale, real workers
# killed and Redis emptied under bot games and timers, the short soak, a dump
# restored, two sites on one Redis, beat's failover, the calibration, whole
# games through the API, most browser tests: make test keeps the smoke, live,
# replay and play ones), apart so that
# `make test` stays under ten minutes (it plays a short version of the bot
# games, 1,000 of them). CI runs both; run it before each release.
test-long: install chromium
	$(PY) -m monopoly_site.localservices test -- -m slow $(PYTEST_ARGS)

# `make test` on the newest releases that pyproject.toml's ranges allow, in
# a fresh venv of its own (.venv-upgrade), with the engine compiled by the
# newest mypyc (CI=true: a failed build fails it): what a security release
# would bring. Run it before each release (docs/operations.md, "Upgrades");
# it prints the releases that moved.
test-upgrade:
	rm -rf $(UPGRADE_VENV) $(ENGINE_BUILD)
	CI=true $(MAKE) install VENV=$(UPGRADE_VENV)
	$(MAKE) test VENV=$(UPGRADE_VENV)
	@echo "==> releases newer than requirements.lock (tested above):"
	@$(UPGRADE_VENV)/bin/python -m pip freeze | grep -vxiF -f requirements.lock || echo "(none)"

# The former name of test-long.
test-slow: test-long

install: $(STAMP) $(ENGINE_BUILD)

$(STAMP):
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(RANGES) > $(VENV)/ranges.txt
	$(PY) -m pip install --quiet --disable-pip-version-check $(REQUIREMENTS)
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# The engine compiled with mypyc (games/native.py), rebuilt when a source
# changes; `python -m games.build_engine clean` goes back to the pure sources.
engine: $(ENGINE_BUILD)

# DEBUG=true for mypy's Django plugin, which loads the settings: the
# production default would ask for a SECRET_KEY that type checking never uses.
$(ENGINE_BUILD): $(STAMP) $(wildcard games/engine/*.py) games/native.py games/build_engine.py
	DEBUG=true $(PY) -m games.build_engine build

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff format --check .
	DEBUG=true $(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# Known vulnerabilities of the pinned packages (pip-audit). It needs PyPI's
# advisory service, so it is not part of `make test`; it exits 2 and says
# so when it could not audit every package (monopoly_site/audit.py).
audit: install
	$(PY) -m monopoly_site.audit

# Browser tests drive Debian's Chromium; Playwright's own download fails here.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "==> installing Debian's chromium for the browser tests"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get install -y -q chromium >/dev/null || { $$SUDO apt-get update -q && $$SUDO apt-get install -y -q chromium; }; }

# The soak (bench/soak.py) and bench-load put Debian's nginx in front of two
# Daphnes as a real load balancer; without it their clients spread over the
# Daphnes themselves, so a failed install only says so.
nginx:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { \
		echo "==> installing Debian's nginx for the soak's load balancer"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get install -y -q nginx >/dev/null 2>&1 || { $$SUDO apt-get update -q >/dev/null && $$SUDO apt-get install -y -q nginx >/dev/null; } \
		|| echo "==> nginx could not be installed: clients will spread over the Daphnes"; }

# SOAK_GAMES games for SOAK_SECONDS on a stack of its own (PostgreSQL
# database, redis-server, two Daphnes behind nginx, two workers, beat) while
# workers, Daphnes, beat, Redis and the database connections are killed;
# prints one JSON line (see docs/benchmarks.md, "Soak").
SOAK_GAMES ?= 30
SOAK_SECONDS ?= 150
soak: install nginx
	$(PY) bench/soak.py --games $(SOAK_GAMES) --seconds $(SOAK_SECONDS)

# The same stack without faults: 200 games played as fast as the site
# answers (actions/s, push latency), then one game with 1,000 spectators.
bench-load: install nginx
	$(PY) bench/load.py

# Player-turns per second of the engine as the site runs it, compiled with
# mypyc (4-player us-2003, heuristic bots).
bench-engine: install
	$(PY) manage.py simulate --games 1000 --players 4 --seed 1 --ruleset us-2003 --bot heuristic --jail-policy pay --max-turns 1000 --json

# Win-estimate playouts per second on one core, and the time of 1,000 playouts
# from a 4-player mid-game position (compiled engine; bench/estimate.py).
bench-estimate: install
	$(PY) bench/estimate.py

# Lateness of 10,000 timeouts due over one minute, with a real worker and beat
# (PostgreSQL and Redis on loopback; see docs/benchmarks.md, "Timers").
bench-timers: install
	$(PY) bench/timers.py --deadlines 10000 --spread 60

# Milliseconds from a POSTed move until each of 50 WebSocket spectators has
# the new version (real daphne; PostgreSQL and Redis on loopback; see bench/live.py).
bench-live: install
	$(PY) bench/live.py --spectators 50 --moves 100

# API actions per second and the p50/p99 of POST to answer: BENCH_API_CLIENTS
# clients each play their own two-seat game against a site bot through the
# API (examples/api_bot.py's policy) on make run's stack (one Daphne, a
# worker and beat; PostgreSQL and Redis on loopback; see bench/api.py); then
# the latency of a single action, two API players taking turns with nothing
# else moving (--duel).
BENCH_API_CLIENTS ?= 10
BENCH_API_ACTIONS ?= 200
bench-api: install
	$(PY) bench/api.py --clients $(BENCH_API_CLIENTS) --actions $(BENCH_API_ACTIONS)
	$(PY) bench/api.py --duel --actions $(BENCH_API_ACTIONS)

# Issue #33's seating figures (docs/tournaments.md): for simulated events of
# 30, 100 and 1,000 players in each format, real engine games (heuristic
# bots, ended by the engine's turn_limit; the last two runs draw results,
# --quick, to stress the seating), tables of 4 (3 to 5), seed 1: one JSON
# line each with the repeat meetings, their lower bound and the slowest
# round's seating time.
BENCH_PAIRING_RUNS := \
	"--format swiss --players 30 --rounds 5" \
	"--format swiss --players 30 --rounds 9" \
	"--format swiss --players 100 --rounds 7" \
	"--format swiss --players 100 --rounds 20" \
	"--format swiss --players 1000 --rounds 10" \
	"--format elimination --players 30" \
	"--format elimination --players 100" \
	"--format elimination --players 1000" \
	"--format roundrobin --players 30 --rounds 9" \
	"--format roundrobin --players 100 --group-size 20 --rounds 5 --group-final 1" \
	"--format roundrobin --players 1000 --group-size 20 --rounds 5 --group-final 1" \
	"--format roundrobin --players 1000 --group-size 24 --rounds 7 --group-final 1" \
	"--format swiss --players 1000 --rounds 25 --quick" \
	"--format swiss --players 100 --rounds 30 --quick"
bench-pairing: install
	@for args in $(BENCH_PAIRING_RUNS); do \
		DEBUG=true $(PY) manage.py simulate_tournament $$args --table-size 4 --seed 1 --json; echo; \
	done

# Re-pin after changing pyproject.toml's dependencies.
lock:
	$(RANGES) > $(VENV)/ranges.txt
	$(PY) -m pip install --quiet -r $(VENV)/ranges.txt
	$(PY) -m pip freeze --exclude-editable | grep -v '^async-monopoly' > requirements.lock
