# OrderPress — common tasks. See README.md.

SWIFT   ?= swift
CONFIG  ?= examples/sample/orderpress.toml
SUDO    := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: deps build run test bench clean templates golden screenshots

# System libraries for the cmark-gfm wrapper, and the cmark-gfm CLI that the
# tests compare `orderpress markdown` against (Debian/Ubuntu package names).
deps:
	@if ! pkg-config --exists libcmark-gfm; then \
		echo "installing libcmark-gfm-dev libcmark-gfm-extensions-dev"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y libcmark-gfm-dev libcmark-gfm-extensions-dev; \
	fi
	@if ! command -v cmark-gfm >/dev/null 2>&1; then \
		echo "installing cmark-gfm"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y cmark-gfm; \
	fi

build:
	$(SWIFT) build

# Builds the sample site into output/ (open output/site/index.html).
run:
	$(SWIFT) build
	.build/debug/orderpress build --config $(CONFIG)

test:
	$(SWIFT) test

# Rebuilds the copy of templates/ compiled into the binary (a test fails when they differ).
templates:
	python3 scripts/embed-templates.py

# Rewrites the golden pages under Tests/ from the current renderer; review the diff before committing.
golden:
	UPDATE_GOLDEN=1 $(SWIFT) test --filter GoldenSiteTests

# Generates a full Google Sheet's worth of orders (1,000,000 rows; ROWS=100000 for less) and
# reports each step's time and the peak memory, cold and on a rerun. Not part of make test.
ROWS ?= 1000000
bench:
	$(SWIFT) build -c release --product orderpress
	python3 scripts/bench.py $(ROWS)

# Removes build products (keeps fetched package checkouts) and the sample output.
clean:
	$(SWIFT) package clean
	rm -rf output

# PNGs of each page kind of the sample at 390 and 1280 px, light and dark, into docs/screenshots/.
# Needs Chromium and a CJK font (apt install chromium fonts-wqy-microhei). Not part of make test.
screenshots:
	$(SWIFT) build --product orderpress
	sh scripts/screenshots.sh
