# Two commands do all the set-up on a fresh machine:
#   make run   - build .venv, install, start the assistant (simulated dice tray without a camera)
#   make test  - build .venv if needed and run every test (ruff too)
# On a Raspberry Pi use pi/install.sh instead (OpenCV and NumPy from Raspberry Pi OS).
PYTHON ?= python3
# tests run in this many processes; tests/conftest.py spreads them. Three on the 2-core
# machine: a third fills the time the others wait (fault tests' sleeps, pip, Chromium)
WORKERS ?= 3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test shots lint typecheck bench bench-live clean

# uv and pip (--no-compile) compile none of what they install (about 2,900 modules, 8-10 s
# of CPU before the tests can start, most of them never imported: numpy's and onnxruntime's
# tests and tools, mypy's sources beside its compiled modules); Python compiles a module when
# it is first imported and keeps it in __pycache__ (git ignores them), here even where
# PYTHONDONTWRITEBYTECODE is set (this machine), so every later process reads it
unexport PYTHONDONTWRITEBYTECODE

# .venv is built by uv (PyPI's `uv`, Astral's installer) where it can be had: the same
# versions pip chooses, linked from uv's own cache of unpacked wheels (~/.cache/uv): about
# 5 s for the whole rule where pip took 16-30 s (ensurepip, then every wheel unzipped again;
# on this machine pip keeps no cache, so it downloads them all again too). The venv is made
# without pip; the system's pip puts uv into it (`pip --python`, pip 22.3 or later) and uv
# installs pip too, for `.venv/bin/pip`. Wherever that fails (no pip beside $(PYTHON), no uv
# wheel, uv failing) pip does it all, as before. pi/install.sh (the Pi's way) uses pip.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	if $(PYTHON) -m pip --python $(BIN)/python install --quiet --no-compile uv \
	        && $(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[opencv,dev]' pip; \
	then :; else \
	    echo "uv could not build $(VENV): pip does"; \
	    $(BIN)/python -m ensurepip --upgrade --default-pip \
	    && $(BIN)/python -m pip install --quiet --no-compile --upgrade pip \
	    && $(BIN)/python -m pip install --quiet --no-compile -e '.[opencv,dev]'; \
	fi
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/kotd serve $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

# mypy's cache outside the clone, as uv keeps its wheels (~/.cache/uv): mypy checks a module
# again only when its source's hash or a dependency changed, so a fresh clone of a commit
# it has seen takes about 0.4 s of CPU where it took 14-18 s (an empty cache: the first
# clone on a machine, as before). `make typecheck` keeps .mypy_cache in the clone.
MYPY_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/kotd-mypy

# ruff first (a second); mypy beside the tests, niced, so it takes the moments the tests'
# processes wait rather than a minute of its own before them; fails if either fails.
# OpenCV and OpenBLAS work in one thread in the tests and the `kotd` they start: the
# workers already fill both cores, and a second thread per process only costs CPU
# (about 5 % of the reader's and renderer's tests)
test: $(STAMP)
	$(BIN)/ruff check .
	./tools/ensure-chromium.sh
	@nice -n 10 $(BIN)/mypy --cache-dir "$(MYPY_CACHE)" > $(VENV)/mypy.out 2>&1 & typing=$$!; \
	echo "$(BIN)/mypy (beside the tests; its output follows them)"; \
	OPENCV_FOR_THREADS_NUM=1 OPENBLAS_NUM_THREADS=1 \
	$(BIN)/python -m pytest -q -n $(WORKERS) --dist loadgroup; tests=$$?; \
	wait $$typing; typed=$$?; \
	echo "$(BIN)/mypy:"; cat $(VENV)/mypy.out; \
	test $$tests = 0 && test $$typed = 0

# the browser tests again, keeping their screenshots in test-artifacts/ for people to look at
shots: $(STAMP)
	./tools/ensure-chromium.sh
	KOTD_SHOTS=1 $(BIN)/python -m pytest -q -n $(WORKERS) --dist loadgroup \
		$(wildcard tests/test_*browser*.py tests/test_*page*.py) tests/test_web_table.py \
		tests/test_ukuk_whole_game.py

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_check.py
	$(BIN)/python benchmarks/bench_advisor.py
	$(BIN)/python benchmarks/bench_tray.py
	$(BIN)/python benchmarks/bench_vision.py
	$(BIN)/python benchmarks/bench_ordinary.py
	$(BIN)/python benchmarks/bench_haba.py --set table --frames 300 --in-view
	$(BIN)/python benchmarks/bench_haba.py --set lens --frames 300 --in-view
	$(BIN)/python benchmarks/bench_haba_finder.py

bench-live: $(STAMP)
	$(BIN)/python benchmarks/bench_live.py --seconds 60

clean:
	rm -rf $(VENV) .venv-pi .pytest_cache .ruff_cache .mypy_cache .hypothesis
