# Parlour: `make run` serves the app on an embedded default; `make test` runs the suite.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: messages compilemessages run serve test test-unit test-integration test-browser test-faults test-sqlite lint format migrate demo bench bench-bot-latency bench-web bench-load bench-live clean

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

venv: $(STAMP)

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py demo_accounts

# Embedded default: SQLite, a real Celery worker and beat on kombu's filesystem broker (no Redis).
# DEBUG off (the site's own error pages); PARLOUR_DEBUG=1 make run for Django's debug pages.
# Links in mails (PARLOUR_SITE_URL) follow HOST and PORT unless PARLOUR_SITE_URL is set: a wildcard
# bind (0.0.0.0, [::]) is no address to follow, so its links name the loopback (127.0.0.1, [::1]).
SITE_HOST = $(if $(filter 0.0.0.0,$(HOST)),127.0.0.1,$(if $(filter [::],$(HOST)),[::1],$(HOST)))
run: demo
	$(PY) manage.py collectstatic --noinput --verbosity 0
	@echo "Parlour on http://$(HOST):$(PORT)/  (Ctrl-C stops web, worker and beat)"
	CELERY_BROKER_URL=$${REDIS_URL:+$$REDIS_URL}$${REDIS_URL:-filesystem} HOST=$(HOST) PORT=$(PORT) \
		PARLOUR_SITE_URL="$${PARLOUR_SITE_URL:-http://$(SITE_HOST):$(PORT)}" \
		PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/honcho -f Procfile.dev start

# Full stack: gunicorn + Celery worker + beat (set DATABASE_URL and REDIS_URL for production).
serve: migrate
	$(PY) manage.py collectstatic --noinput --verbosity 0
	PORT=$(PORT) PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/honcho -f Procfile start

# Translations (docs/translation.md). `make messages` gathers every marked word into the German
# and French catalogues (needs GNU gettext: apt-get install gettext); translate, then
# `make compilemessages` builds the .mo files, which are committed: `make run` and CI need no
# gettext (tests/unit/test_catalogues.py checks each .mo says what its .po says).
LOCALES := de fr
messages: $(STAMP)
	$(PY) manage.py makemessages $(addprefix -l ,$(LOCALES)) --no-obsolete --no-location \
		--ignore=.venv --ignore=var --ignore=node_modules --ignore=bench --ignore=tests
compilemessages: $(STAMP)
	$(PY) manage.py compilemessages $(addprefix -l ,$(LOCALES)) --ignore=.venv --ignore=var

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

test-unit: $(STAMP)
	$(PY) -m pytest tests/unit

test-integration: $(STAMP)
	$(PY) -m pytest tests/integration

# Browser tests run in their own pytest process: Playwright's sync API keeps an event loop alive.
test-browser: $(STAMP)
	$(PY) -m pytest tests/functional

# Faults against real processes (their own PostgreSQL cluster, Redis, gunicorn, worker, beat):
# a worker SIGKILLed mid-decision, Redis stopped, PostgreSQL restarted. Own pytest process:
# it points the test process's database connection at its private cluster.
test-faults: $(STAMP)
	$(PY) -m pytest tests/faults

test: lint test-unit test-integration test-browser test-faults

# The integration suite once more on the embedded default's SQLite file, whatever DATABASE_URL
# says (CI runs it after the PostgreSQL pass): races and refusals must hold on both.
test-sqlite: $(STAMP)
	env -u DATABASE_URL -u REDIS_URL REQUIRE_SERVICES=0 $(PY) -m pytest tests/integration

# Benchmarks (bench/README.md: what each measures, how long, where its figures are kept). Those
# on real processes start their own PostgreSQL cluster and Redis (tests/stack), as test-faults.
bench: $(STAMP)
	$(PY) bench/engines.py

# A person's move to the bots' replies committed, through a real worker.
bench-bot-latency: $(STAMP)
	$(PY) bench/bot_latency.py

# Requests over HTTP as multiples of a trivial page, statements counted (3-4 min).
bench-web: $(STAMP)
	$(PY) bench/web.py

# 40 signed-in clients over HTTP against gunicorn + PostgreSQL + Redis + a worker, 5 minutes
# steady, then 5 with the worker killed every minute (~18 min; docs/performance.md).
bench-load: $(STAMP)
	$(PY) bench/load.py

# Issue 23: pushed tables (event streams under ASGI) beside today's polling, side by side in
# one run: requests under three servers, the polling ramp, move to screen, idle streams (~12 min).
bench-live: $(STAMP)
	$(PY) bench/live.py

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .hypothesis
