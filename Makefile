# Two commands set everything up: `make run` (quick start on SQLite) and `make test` (the
# suite on PostgreSQL + Redis at their local defaults).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/casino
TEST_BROKER_URL ?= redis://127.0.0.1:6379/0

.PHONY: run test schema lint messages bench bench-large bench-group worker beat migrate demo install fonts clean prod-check

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

# The reports' PDF and charts write Hangul with Noto Sans CJK (Debian's fonts-noto-cjk; Latin
# and Vietnamese with DejaVu Sans): installed with apt-get when run as root or with sudo
# without a password, otherwise this says what to install (the reports then show boxes).
CJK_FONTS := fonts-noto-cjk fonts-dejavu-core
fonts:
	@if fc-list 2>/dev/null | grep -q "Noto Sans CJK"; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing $(CJK_FONTS) for the reports' Korean text"; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(CJK_FONTS) >/dev/null \
		|| { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(CJK_FONTS) >/dev/null; } \
		|| echo "could not install $(CJK_FONTS): install them for the reports' Korean text"; \
		rm -f $$HOME/.cache/matplotlib/fontlist-*.json; \
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null && command -v apt-get >/dev/null; then \
		echo "installing $(CJK_FONTS) for the reports' Korean text (sudo)"; \
		sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(CJK_FONTS) >/dev/null \
		|| echo "could not install $(CJK_FONTS): install them for the reports' Korean text"; \
		rm -f $$HOME/.cache/matplotlib/fontlist-*.json; \
	else \
		echo "note: the reports' PDF and charts need a font with Hangul: install Noto Sans CJK"; \
		echo "      (Debian/Ubuntu: sudo apt-get install fonts-noto-cjk; macOS: brew install --cask font-noto-sans-cjk)"; \
	fi

migrate: $(STAMP)
	DEBUG=1 $(PY) manage.py migrate --noinput

# The demo builds its reports' PDF and charts, so the fonts come first; it prints its own
# lines only and ends with the logins (`make demo V=2` shows the services' logs too).
demo: migrate fonts
	DEBUG=1 LOG_FORMAT=text $(PY) manage.py demo --port $(PORT) -v $(or $(V),1)

# `make run PORT=8080` serves on another port (and the demo's logins name it).
PORT ?= 8000
run: demo
	DEBUG=1 LOG_FORMAT=text $(PY) manage.py runserver 127.0.0.1:$(PORT)

test: $(STAMP)
	DEBUG=0 TESTING=1 ALLOW_INSECURE_SECRET_KEY=1 \
	DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
	REPLICA_DATABASE_URL=$(TEST_DATABASE_URL) \
	$(VENV)/bin/pytest -n 2 --dist loadfile --no-loadscope-reorder -q --durations=20
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache

# After adding or changing a migration: tests/fixtures/schema.sql.gz made again from a scratch
# database migrated on the test server (tests/schema.py; `make test` says when it is due).
schema: $(STAMP)
	DEBUG=0 TESTING=1 ALLOW_INSECURE_SECRET_KEY=1 DATABASE_URL=$(TEST_DATABASE_URL) \
	$(PY) -m tests.schema

# The back office as deploy/ installs it (nginx over HTTPS, gunicorn, Celery worker and beat,
# the app's database role), then a smoke journey through nginx (deploy/prod-check.sh; ~1 min).
prod-check: $(STAMP)
	deploy/prod-check.sh

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache

# The message catalogues (GNU gettext): each game's own msgids in its app's locale/, every
# other one in the project's locale/ (docs/ARCHITECTURE.md "Adding a game"), then compiled.
messages: $(STAMP)
	DEBUG=1 $(PY) manage.py messages
	DEBUG=1 $(PY) manage.py compilemessages -l vi -l ko -l pt --ignore '.*'

bench: $(STAMP)
	$(PY) bench/engine.py
	$(PY) bench/odds.py
	$(PY) bench/maubinh.py
	$(PY) bench/settle.py
	$(PY) bench/console.py
	$(PY) bench/compiled_ab.py
	$(PY) bench/statement_parsing.py
	$(PY) bench/reports.py
	$(PY) bench/periods.py
	$(PY) bench/baccarat.py
	$(PY) bench/baccarat_api.py
	$(PY) bench/integrity.py
	$(PY) bench/resettle.py
	$(PY) bench/integrity_stats.py
	$(PY) bench/group_lag.py
	$(PY) bench/patterns.py

# A shift of a million rounds and its report (<= 20 s, <= 500 MB). The fill takes about
# 16 minutes on 2 quiet cores; BENCH_REUSE=1 builds again without filling anew.
bench-large: $(STAMP)
	BENCH_ROUNDS=1000000 $(PY) bench/reports.py

# The group's month to date over 10 venues of a million rounds a day (<= 5 s, <= 500 MB).
# The fill (8.6 million tallies, about 4 GB) takes about 15 minutes on 2 busy cores;
# BENCH_REUSE=1 measures again without filling anew.
bench-group: $(STAMP)
	$(PY) bench/group_periods.py

worker: $(STAMP)
	DEBUG=1 LOG_FORMAT=text $(VENV)/bin/celery -A casino worker --loglevel=info

beat: $(STAMP)
	DEBUG=1 $(VENV)/bin/celery -A casino beat --loglevel=info

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles

# Load, races, faults, fuzzing (loadtest/, docs/BENCHMARKS.md "Load, races, faults,
# fuzzing"): gunicorn on 127.0.0.1 against the local PostgreSQL, each in its own database.
.PHONY: loadtest loadtest-floor races faults fuzz
LOADTEST_ENV := DEBUG=0 TESTING=1 ALLOW_INSECURE_SECRET_KEY=1
# Every database these runs make is named $(LOADTEST_DB_PREFIX)_<run>; give each checkout
# or person its own prefix so two runs on one server never drop each other's database.
LOADTEST_DB_PREFIX ?= casino
export LOADTEST_DB_PREFIX
FAULTS_ARGS ?=
FUZZ_EXAMPLES ?= 50

# 16 dealers settling 6-hand rounds for 60 s, then 30 s with console partials (~2.5 min).
loadtest: $(STAMP)
	$(PY) -m loadtest.load

# The floor: dealers typing at human pace, supervisors' floor views, the cage, the count, a
# manager and a Celery worker, the tables stepped up until a kind of request is slow
# (docs/BENCHMARKS.md "floor"; ~10 min). FLOOR_STEPS=50,100 FLOOR_DURATION=30 for less.
loadtest-floor: $(STAMP)
	$(PY) -m loadtest.floor

# 1,000 settles for 100 rounds, each round's 10 at once (~1.5 min).
races: $(STAMP)
	$(PY) -m loadtest.races

# Restarts PostgreSQL once mid-load under two gunicorns, the settings as they are and the
# proposed fix (cuts every connection on this machine: never in `make test`; ~1 min).
faults: $(STAMP)
	$(PY) -m loadtest.faults $(FAULTS_ARGS)

# schemathesis over every API operation against gunicorn, then the hypothesis tests of
# tests/casino/test_hardening.py (cards, bets, console forms) with a larger budget, without the
# API's write rate limit, which 500 rounds a minute from one dealer would meet (~8 min).
fuzz: $(STAMP)
	$(PY) -m loadtest.fuzz --examples $(FUZZ_EXAMPLES)
	$(LOADTEST_ENV) HARDENING_EXAMPLES=500 API_WRITE_RATE=off \
	DATABASE_URL=postgres://postgres@127.0.0.1:5432/$(LOADTEST_DB_PREFIX)_fuzz_tests \
	$(VENV)/bin/pytest tests/casino/test_hardening.py -q -p no:cacheprovider \
		-k "cards or bet_input or console"
