# OrderPress — common tasks. See README.md.

SWIFT   ?= swift
CONFIG  ?= examples/sample/orderpress.toml
SUDO    := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

# make install: PREFIX (default /usr/local) and DESTDIR (for packaging) as usual.
PREFIX  ?= /usr/local
DESTDIR ?=
# make install-files installs an already-built BINARY (make install builds it in release mode);
# MANTOOL is swift-argument-parser's generate-manual, which writes the man page from the
# command definitions (it runs `BINARY --experimental-dump-help`). Its plugin
# (`swift package plugin generate-manual`) gives the same page, but rebuilds every product
# first and needs SwiftPM's build lock, which a running `swift test` holds.
BINARY  ?= .build/release/orderpress
MANTOOL ?= .build/debug/generate-manual

BINDIR  = $(DESTDIR)$(PREFIX)/bin
MANDIR  = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR  = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: deps build run test bench profile clean templates golden install install-files uninstall screenshots

# System libraries for the cmark-gfm wrapper, for GRDB (SQLite, the state folder's database) and for
# the allocator (jemalloc), and the cmark-gfm CLI that the tests compare `orderpress markdown` against
# (Debian/Ubuntu package names).
deps:
	@if ! pkg-config --exists libcmark-gfm; then \
		echo "installing libcmark-gfm-dev libcmark-gfm-extensions-dev"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y libcmark-gfm-dev libcmark-gfm-extensions-dev; \
	fi
	@if ! pkg-config --exists sqlite3; then \
		echo "installing libsqlite3-dev"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y libsqlite3-dev; \
	fi
	@if ! pkg-config --exists jemalloc; then \
		echo "installing libjemalloc-dev (the process's allocator, see Sources/OrderPress/Support/Heap.swift)"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y libjemalloc-dev; \
	fi
	@if ! command -v cmark-gfm >/dev/null 2>&1; then \
		echo "installing cmark-gfm"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y cmark-gfm; \
	fi
	@if [ ! -e /usr/share/zoneinfo/Asia/Taipei ]; then \
		echo "installing tzdata (Foundation reads time zones from /usr/share/zoneinfo)"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y tzdata; \
	fi
	@if ! command -v man >/dev/null 2>&1; then \
		echo "installing man-db (the install test reads the man page)"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y man-db; \
	fi

build:
	$(SWIFT) build

# Builds the sample site into examples/sample/output/ (open examples/sample/output/site/index.html).
run:
	$(SWIFT) build
	.build/debug/orderpress build --config $(CONFIG)

# The install test needs the man page generator beside the debug binary. The suites that run an
# HTTP server inside the test process go second, on their own and one test at a time: they assert
# timeouts and retry counts, and on 2 cores other tests (or each other) starve the servers' threads.
# ChaosTests (a SheetDB stand-in too) runs CHAOS_RUNS seeded runs, 40 by default: CHAOS_RUNS=300 make test.
LOOPBACK_SUITES = HTTPBinaryTests|HTTPSourceTests|HostileServerTests|RedirectTests|SourceCacheTests|ChaosTests|WebhookTests
test:
	$(SWIFT) build --product generate-manual
	$(SWIFT) test --skip '$(LOOPBACK_SUITES)'
	$(SWIFT) test --skip-build --no-parallel --filter '$(LOOPBACK_SUITES)'

# Release build, then the binary, the man page and shell completions under $(DESTDIR)$(PREFIX).
install:
	$(SWIFT) build -c release --product orderpress
	$(SWIFT) build --product generate-manual
	$(MAKE) install-files BINARY=.build/release/orderpress

install-files:
	@test -x "$(BINARY)" || { echo "$(BINARY) does not exist; run make install, or pass BINARY=path"; exit 1; }
	@test -x "$(MANTOOL)" || { echo "$(MANTOOL) does not exist; run swift build --product generate-manual"; exit 1; }
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -m 0755 "$(BINARY)" "$(BINDIR)/orderpress"
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
		"$(MANTOOL)" "$(BINARY)" --output-directory "$$tmp" && \
		install -m 0644 "$$tmp/orderpress.1" "$(MANDIR)/orderpress.1" && \
		"$(BINARY)" --generate-completion-script bash > "$$tmp/bash" && \
		"$(BINARY)" --generate-completion-script zsh > "$$tmp/zsh" && \
		"$(BINARY)" --generate-completion-script fish > "$$tmp/fish" && \
		install -m 0644 "$$tmp/bash" "$(BASHDIR)/orderpress" && \
		install -m 0644 "$$tmp/zsh" "$(ZSHDIR)/_orderpress" && \
		install -m 0644 "$$tmp/fish" "$(FISHDIR)/orderpress.fish"
	@echo "installed $(BINDIR)/orderpress, $(MANDIR)/orderpress.1 and bash, zsh and fish completions"

uninstall:
	rm -f "$(BINDIR)/orderpress" "$(MANDIR)/orderpress.1" "$(BASHDIR)/orderpress" \
		"$(ZSHDIR)/_orderpress" "$(FISHDIR)/orderpress.fish"

# Rebuilds the copy of templates/ compiled into the binary (a test fails when they differ).
templates:
	python3 scripts/embed-templates.py

# Rewrites the golden pages under Tests/ from the current renderer; review the diff before committing.
golden:
	UPDATE_GOLDEN=1 $(SWIFT) test --filter GoldenSiteTests

# Times the release binary on generated orders (100,000 and 1,000,000 rows; ROWS=100000 for one
# size) against `cmark-gfm -e table` and Hugo on the same Markdown, and prints the ratios against
# DESIGN's targets; results also in .build/bench/results.md. Takes long; not part of make test.
# See BENCHMARKS.md. `make profile` counts instructions of a 10,000-order build under callgrind.
ROWS ?=
bench:
	$(SWIFT) build -c release --product orderpress
	python3 scripts/bench.py $(ROWS)

PROFILE_ROWS ?= 10000
profile:
	$(SWIFT) build -c release --product orderpress
	sh scripts/profile.sh $(PROFILE_ROWS)

# Removes build products (keeps fetched package checkouts) and the sample output.
clean:
	$(SWIFT) package clean
	rm -rf output examples/sample/output

# PNGs of each page kind of the sample at 390 and 1280 px, light and dark, into docs/screenshots/.
# Needs Chromium and a CJK font (apt install chromium fonts-wqy-microhei). Not part of make test.
screenshots:
	$(SWIFT) build --product orderpress
	sh scripts/screenshots.sh
