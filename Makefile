# Kreuzdame — the two commands of the README, and a few helpers.
#   make run    start the demo site on SQLite at http://127.0.0.1:8000 (and the documents' worker)
#   make hall   the tournament day: serve the phones on the hall's network
#   make test   lint (also ESLint), import contracts, type check, migrations check, the JavaScript
#               unit tests and the whole test suite (incl. browser)

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run hall createdirector test lint jstest typecheck check-migrations pytest browser-deps messages bench stress loadtest plans plans-c clean loadtest-service

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files: reinstall only when the pins change.
$(VENV)/.deps: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.dev-deps: requirements-dev.txt $(VENV)/.deps
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

# ESLint for the JavaScript, from package-lock.json (Node.js and npm: Debian's, if missing).
node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || bash scripts/ensure-system-deps.sh
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# DEBUG on (the default) shows settings and environment on every error page: loopback only.
run: $(VENV)/.deps
	@$(BIN)/python -m tournament.ops.devserver "$(HOST)"
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo --if-empty
	@echo ""
	@echo "  Kreuzdame runs at http://$(HOST):$(PORT)/"
	@echo "  For this computer only — for the phones in the hall use make hall"
	@echo "  Demo login (director): leitung / kreuzdame-demo"
	@echo "  Also: schiri / kreuzdame-demo (referee), admin / kreuzdame-demo (administrator)"
	@echo "  The documents (PDF, Excel) are made by the worker started beside it"
	@echo ""
	@# One command as before: the worker and the publisher to the results service (idle
	@# until one is set up) in the background, stopped with the site (Ctrl+C).
	@$(BIN)/python manage.py worker --verbosity 0 & worker=$$!; \
		$(BIN)/python manage.py publisher --verbosity 0 & publisher=$$!; \
		trap 'kill $$worker $$publisher 2>/dev/null' EXIT INT TERM; \
		$(BIN)/python manage.py runserver $(HOST):$(PORT)

# The tournament day: the site for the phones on the hall's network (waitress, DEBUG off,
# plain http on the LAN). PORT and HALL_ADDRESS choose port and address; see README.
hall: $(VENV)/.deps
	PORT=$(PORT) $(BIN)/python manage.py hall

createdirector: $(VENV)/.deps
	$(BIN)/python manage.py createdirector

browser-deps:
	@bash scripts/ensure-system-deps.sh

lint: $(VENV)/.dev-deps node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	node_modules/.bin/eslint

# The keeper phone's queue logic and storage (tests/js/), on Node's own test runner.
jstest:
	@command -v node >/dev/null || bash scripts/ensure-system-deps.sh
	node --test tests/js/

# mypy with django-stubs; strict for scoring/ and tournament/seating/ (see pyproject.toml).
typecheck: $(VENV)/.dev-deps
	$(BIN)/mypy

check-migrations: $(VENV)/.dev-deps
	$(BIN)/python manage.py makemigrations --check --dry-run

# Two processes (pytest-xdist): the machine's two cores; PYTEST_PARALLEL= runs in one.
# Every run is in a new random order (pytest-randomly): the seed is printed at the top and the
# end; PYTEST_ARGS=--randomly-seed=N repeats an order, PYTEST_ARGS="-p no:randomly" keeps
# the file order. The 20 slowest tests are listed: where CI's time goes.
PYTEST_PARALLEL ?= -n 2
pytest: $(VENV)/.dev-deps browser-deps
	$(BIN)/pytest $(PYTEST_PARALLEL) --durations=20 $(PYTEST_ARGS)

test: lint typecheck check-migrations jstest pytest

# Speed figures (never asserted in unit tests).
bench: $(VENV)/.deps
	$(BIN)/python bench/scoring_bench.py
	$(BIN)/python bench/seating_bench.py
	$(BIN)/python bench/wishes_bench.py
	$(BIN)/python bench/sheet_bench.py
	$(BIN)/python bench/standings_bench.py
	$(BIN)/python bench/series_bench.py
	$(BIN)/python bench/registration_bench.py
	$(BIN)/python bench/print_bench.py
	$(BIN)/python bench/documents_bench.py
	$(BIN)/python bench/lock_bench.py

# The stored seat plans (tournament/seating/plans.py, covering.py, mixed.py) made again by
# their generators in tools/seating_plans/, with the settings their docstrings give; the C
# searches are built first with every warning an error (the generators and their tests build
# them by the same rule). Not part of CI or make test: about two hours (estimated from the
# generators' own timings: make_plans up to 2 min per field, make_mixed --effort 200 some
# 4 min per field, the symmetric 31x7 alone 20 min), and make_covering and make_symmetric
# need Google's CP-SAT (pip install ortools), which the site never uses. Review the diff of
# the stored plans: a changed plan changes the draws of its field.
PLANS := tools/seating_plans
PLANS_CFLAGS := -Wall -Wextra -Werror -O2

$(PLANS)/build/%: $(PLANS)/%.c $(PLANS)/mixed_plan.h
	@mkdir -p $(@D)
	$(CC) $(PLANS_CFLAGS) -o $@.$$$$ $< -lm && mv $@.$$$$ $@

plans-c: $(PLANS)/build/anneal_mixed $(PLANS)/build/tabu_symmetric

plans: $(VENV)/.deps plans-c
	@$(BIN)/python -c "import ortools" 2>/dev/null || \
		{ echo "make plans needs CP-SAT: $(BIN)/pip install ortools" >&2; exit 1; }
	$(BIN)/python -m tools.seating_plans.make_plans
	$(BIN)/python -m tools.seating_plans.make_covering
	$(BIN)/python -m tools.seating_plans.make_mixed --effort 30 \
		21x5 22x5 23x5 25x5 26x5 27x5 41x9 42x8 43x8
	$(BIN)/python -m tools.seating_plans.make_mixed --effort 200 \
		29x7 30x7 31x7 33x8 34x8 35x8 37x9 38x9 39x9 45x11 46x11 47x11
	$(BIN)/python -m tools.seating_plans.make_mixed --anneal
	$(BIN)/python -m tools.seating_plans.make_symmetric

# Concurrent writers and crashes against gunicorn (4 workers): SQLite with 20 kills, SQLite's
# default DEFERRED transactions (must fail, to show the harness can), PostgreSQL if running.
stress: $(VENV)/.deps
	$(BIN)/python bench/stress.py --crashes 20
	$(BIN)/python bench/stress.py --sqlite-mode DEFERRED --expect-failure
	@if pg_isready -q -h /var/run/postgresql 2>/dev/null; then \
		$(BIN)/python bench/stress.py --database postgres; \
	else echo "PostgreSQL is not running: skipped (start it: pg_ctlcluster 15 main start)"; fi

# A hall on loopback, 2 minutes each: a club hall (15 tables, 10 standings/s) and a big event
# (150 tables, 60 standings/s) served by `manage.py hall` as on the tournament day, then the big
# event by gunicorn; 2 saves/s with a 10 s burst of 20/s. Prints p50/p95/p99 and errors.
loadtest: $(VENV)/.deps
	$(BIN)/python bench/loadtest.py --server hall --tables 15 --standings-rate 10
	$(BIN)/python bench/loadtest.py --server hall
	$(BIN)/python bench/loadtest.py --server hall --hostile
	$(BIN)/python bench/loadtest.py

# The results service on a federation day (docs/service.md), 2 minutes: gunicorn with the
# deployed configuration on PostgreSQL (a database of its own, made and dropped), 50
# tournaments publishing every ~30 s, 2,000 readers (~67 pages/s). Prints p50/p95 per page,
# publish times and bytes, memory and the computations per page state.
loadtest-service: $(VENV)/.deps
	@pg_isready -q -h /var/run/postgresql 2>/dev/null || \
		{ echo "PostgreSQL is not running: pg_ctlcluster 15 main start" >&2; exit 1; }
	$(BIN)/python bench/service_load.py

# After changing UI text: bring the German catalogue in step with the code (every existing
# translation is kept; new messages come in empty, changed ones fuzzy), translate those in
# tournament/locale/de/LC_MESSAGES/django.po (any editor, Poedit, Weblate), run it again to
# compile. tests/test_i18n.py fails while a message is empty or fuzzy or the .mo is stale.
messages: $(VENV)/.deps
	$(BIN)/python manage.py makemessages -l de --no-obsolete --add-location file \
		-i ".venv/*" -i "tests/*" -i "bench/*" -i "scripts/*"
	$(BIN)/python manage.py compilemessages -l de -i ".venv"

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache .mypy_cache test_db*.sqlite3* $(PLANS)/build
