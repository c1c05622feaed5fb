# Two commands set everything up: `make run` (quick start on SQLite) and `make test` (the
# suite on PostgreSQL + Redis at their local defaults).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/casino
TEST_BROKER_URL ?= redis://127.0.0.1:6379/0

.PHONY: run test lint bench bench-large worker beat migrate demo install clean

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

migrate: $(STAMP)
	DEBUG=1 $(PY) manage.py migrate --noinput

demo: migrate
	DEBUG=1 $(PY) manage.py demo

run: demo
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000

test: $(STAMP)
	DEBUG=0 TESTING=1 ALLOW_INSECURE_SECRET_KEY=1 \
	DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
	$(VENV)/bin/pytest -n 2 --dist loadfile -q
	$(VENV)/bin/ruff check .

lint: $(STAMP)
	$(VENV)/bin/ruff check .

bench: $(STAMP)
	$(PY) bench/engine.py
	$(PY) bench/odds.py
	$(PY) bench/maubinh.py
	$(PY) bench/settle.py
	$(PY) bench/console.py
	$(PY) bench/reports.py

# A shift of a million rounds and its report (<= 20 s, <= 500 MB). The fill takes the
# better part of an hour on 2 cores; BENCH_REUSE=1 builds again without filling anew.
bench-large: $(STAMP)
	BENCH_ROUNDS=1000000 $(PY) bench/reports.py

worker: $(STAMP)
	DEBUG=1 $(VENV)/bin/celery -A casino worker --loglevel=info

beat: $(STAMP)
	DEBUG=1 $(VENV)/bin/celery -A casino beat --loglevel=info

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
