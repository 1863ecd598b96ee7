# Two commands for a newcomer: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 5000

.PHONY: run test install install-dev lint typecheck bench bench-scan clean train-scanner fit-doubt train-flags fit-cells

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip >/dev/null

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install -e . >/dev/null
	@touch $@

$(VENV)/.installed-dev: $(VENV)/.installed
	$(BIN)/pip install -e '.[dev]' >/dev/null
	@touch $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

run: install
	@mkdir -p instance
	$(BIN)/companion serve --host $(HOST) --port $(PORT)

lint: install-dev
	$(BIN)/ruff check companion tests bench

typecheck: install-dev
	$(BIN)/mypy --strict companion/rules

test: install-dev lint typecheck
	$(BIN)/python -m pytest

bench: install-dev
	$(BIN)/python bench/rules_bench.py

# Seconds per 12 MP photo, loading included (rendered real-table photos; bench/scan_bench.py).
bench-scan: install-dev
	$(BIN)/python bench/scan_bench.py

# Retrains companion/vision/models/terrain.npz from renders and ../shared/tiles (~3 min,
# seeded). TILES=DIR reads the development photos elsewhere; EVALUATE=1 prints the
# held-out accuracy (k-fold by real tile) instead of writing the model. One BLAS thread:
# threaded BLAS on a busy 2-core machine is ten times slower.
TILES ?= ../shared/tiles
train-scanner: install-dev
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 10 $(BIN)/python -m companion.vision.synth.train_terrain --tiles $(TILES) $(if $(EVALUATE),--evaluate)

# Refits companion/vision/models/flags.json (the learned flag decision: which flag a tile
# carries, which to check) from scans of real-table photos of seeds no evaluation uses
# (~8 min, seeded).
train-flags: install-dev
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 10 $(BIN)/python -m companion.vision.synth.train_flags

# Refits companion/vision/models/cells.json (which located cells of a map hold a tile)
# from the cells the lattice locates in photos of seeds no evaluation uses, some of
# maps with holes (~12-15 min, seeded). ROWS=FILE keeps the located cells there; with
# REUSE=1 it refits in seconds.
fit-cells: install-dev
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 10 $(BIN)/python -m companion.vision.synth.fit_cells --tiles $(TILES) $(if $(ROWS),--rows $(ROWS)) $(if $(REUSE),--reuse-rows)

# Refits companion/vision/models/doubt.json (which edges the review highlights) from scans
# of photos generated from seeds no evaluation uses (~22 min, seeded). ROWS=FILE keeps the
# scanned edges there; with REUSE=1 the calibrator is refitted from them in seconds.
fit-doubt: install-dev
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 10 $(BIN)/python -m companion.vision.synth.fit_doubt --tiles $(TILES) $(if $(ROWS),--rows $(ROWS)) $(if $(REUSE),--reuse-rows)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
