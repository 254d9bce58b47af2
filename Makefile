# OrderPress — common tasks. See README.md.

SWIFT   ?= swift

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

.PHONY: access deps build run test layering links bench profile clean templates golden release install install-files uninstall \
	dist deb check-install screenshots

# The Debian/Ubuntu packages that building, testing and packaging need, installed with one apt-get
# call when some are missing (a no-op otherwise; as root without sudo; no pkg-config needed to check).
# The list and what each package is for: scripts/deps.sh.
deps:
	@sh scripts/deps.sh

build: deps
	$(SWIFT) build

# Builds the sample (examples/sample/) into output/: output/site/index.html, output/markdown and
# output/state. The sample's own paths point inside its folder (a copy of the folder is a site of its
# own, and the tests copy it), so the run uses a copy of its configuration and data in
# output/sample/ whose [output] paths say ../site and so on; examples/sample/ is left untouched, and
# nothing outside output/ is written. cp -p keeps the data files' times, so a rerun writes nothing.
SAMPLE = examples/sample
run: deps
	$(SWIFT) build --product orderpress
	@mkdir -p output/sample && rm -rf output/sample/data && cp -pR $(SAMPLE)/data output/sample/data
	@sed -E 's#^(markdown|site|state)( *= *")output/#\1\2../#' $(SAMPLE)/orderpress.toml > output/sample/orderpress.toml.new
	@test "$$(grep -cE '^(markdown|site|state) *= *"\.\./' output/sample/orderpress.toml.new)" = 3 || \
		{ echo "$(SAMPLE)/orderpress.toml: expected [output] markdown, site and state under output/"; exit 1; }
	@if cmp -s output/sample/orderpress.toml.new output/sample/orderpress.toml; then \
		rm output/sample/orderpress.toml.new; \
	else mv output/sample/orderpress.toml.new output/sample/orderpress.toml; fi
	.build/debug/orderpress build --config output/sample/orderpress.toml
	@echo "open output/site/index.html"

# The install test needs the man page generator beside the debug binary. The suites that run an
# HTTP server inside the test process go second, on their own and one test at a time: they assert
# timeouts and retry counts, and on 2 cores other tests (or each other) starve the servers' threads.
# ChaosTests (a SheetDB stand-in too) runs CHAOS_RUNS seeded runs, 40 by default: CHAOS_RUNS=300 make test.
LOOPBACK_SUITES = HTTPBinaryTests|SourceRedactionTests|StaleNoticeTests|HTTPSourceTests|TransportSessionTests|CachedSheetTests|HostileServerTests|RedirectTests|SourceCacheTests|ChaosTests|WebhookTests|NewsDeliveryTests
test: deps layering links
	$(SWIFT) build --product generate-manual
	$(SWIFT) test --skip '$(LOOPBACK_SUITES)'
	$(SWIFT) test --skip-build --no-parallel --filter '$(LOOPBACK_SUITES)'

# The source folders' layering (scripts/layering.txt): no folder uses a type of a folder above it or
# beside it, but for the edges that file still allows. scripts/folder-graph.py prints the whole graph.
layering:
	python3 scripts/folder-graph.py --check scripts/layering.txt

# Every relative link, anchor and repository path written in README.md and docs/ resolves.
links:
	python3 scripts/check-links.py

# The release binary that install, dist and deb ship, with the Swift standard library and Foundation
# linked in (--static-swift-stdlib), so it runs without a Swift toolchain, on the Debian packages in
# RUNTIME_PACKAGES alone. Static Foundation links libcurl and libxml2 by name (-lcurl, -lxml2: its
# networking and XML parts call them), which needs their -dev packages; make deps installs them.
# RELEASE_DIR is the build folder (--scratch-path): the default shares .build and its package
# checkouts; another (.build-static, say) keeps a release build from waiting for a debug build's lock.
RELEASE_DIR   ?= .build
STATIC_FLAGS   = --static-swift-stdlib
RELEASE_BINARY = $(RELEASE_DIR)/release/orderpress
release: deps
	$(SWIFT) build -c release --product orderpress $(STATIC_FLAGS) --scratch-path $(RELEASE_DIR)
	$(SWIFT) build --product generate-manual

# Release build, then the binary, the man page and shell completions under $(DESTDIR)$(PREFIX).
install: release
	$(MAKE) install-files BINARY=$(RELEASE_BINARY)

# The Debian packages the release binary needs at run time: the libraries it links (each NEEDED
# entry of the binary maps to one of them, which scripts/check-install.sh checks with dpkg -S), the
# time zone database that Foundation reads, and the CA certificates that libcurl trusts for https
# sources. The README's apt-get line and the .deb's Depends are this list.
RUNTIME_PACKAGES = libc6 libgcc-s1 libstdc++6 libcurl4 libxml2 libsqlite3-0 libjemalloc2 \
	libcmark-gfm0.29.0.gfm.6 libcmark-gfm-extensions0.29.0.gfm.6 tzdata ca-certificates
DIST_DIR ?= dist
export RUNTIME_PACKAGES

# dist/orderpress-VERSION-linux-ARCH.tar.gz: the binary, man page, completions, README and systemd
# examples; dist/orderpress_VERSION_ARCH.deb: the same under /usr, depending on RUNTIME_PACKAGES.
dist: release
	sh scripts/package.sh dist $(RELEASE_BINARY) $(MANTOOL) $(DIST_DIR)

deb: release
	sh scripts/package.sh deb $(RELEASE_BINARY) $(MANTOOL) $(DIST_DIR)

# Checks what dist and deb made (run by .ci/run after make test; not part of make test, since the
# release build takes long): the contents, the Depends, and that the binary runs and builds the
# sample with the Swift toolchain hidden (a private mount namespace) and from a dpkg -x root.
check-install:
	sh scripts/check-install.sh $(RELEASE_BINARY) $(DIST_DIR)

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

# Rebuilds the copy of templates/ compiled into the binary, and the Swift the built-in templates
# compile to (the page models' `*+Generated.swift`, from templates/ and templates/models/PageModels.txt,
# written by Sources/page-generator into its `PageGenerator.outputFolder`); a test fails when either
# is older than its sources.
templates:
	python3 scripts/embed-templates.py
	$(SWIFT) run page-generator

# Rewrites the golden pages under Tests/ from the current renderer; review the diff before committing.
golden:
	UPDATE_GOLDEN=1 $(SWIFT) test --filter GoldenSiteTests

# Times the release binary on generated orders (100,000 rows as SheetDB JSON and as a Google Form's
# CSV, then 1,000,000 rows; ROWS="100000 form:100000" for some of them) against the C floor (scripts/cfloor.c, built with cc), `cmark-gfm -e table` and Hugo on the same Markdown, and prints the ratios against
# the targets (docs/ARCHITECTURE.md, Performance limits); results also in .build/bench/results.md. Takes long; not part of make test.
# See docs/benchmarks.md. `make profile` counts instructions of a 10,000-order build under callgrind.
ROWS ?=
bench:
	$(SWIFT) build -c release --product orderpress
	python3 scripts/bench.py $(ROWS)

PROFILE_ROWS ?= 10000
profile:
	$(SWIFT) build -c release --product orderpress
	sh scripts/profile.sh $(PROFILE_ROWS)

# Makes internal every `package` declaration no other target uses (scripts/access-trim: a swift-syntax
# pass, then builds that put `package` back where the compiler asks). Run after adding cross-target code.
access:
	cd scripts/access-trim && $(SWIFT) build -c release
	scripts/access-trim/.build/release/trim --aggressive
	sh scripts/access-trim/loop.sh

# Removes build products (keeps fetched package checkouts) and the sample output.
clean:
	$(SWIFT) package clean
	rm -rf output examples/sample/output $(DIST_DIR)

# PNGs of each page kind of the sample at 390 and 1280 px, light and dark, into docs/screenshots/.
# Needs Chromium and a CJK font (apt install chromium fonts-wqy-microhei). Not part of make test.
screenshots:
	$(SWIFT) build --product orderpress
	sh scripts/screenshots.sh
