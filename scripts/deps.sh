#!/bin/sh
# `make deps`: installs the Debian/Ubuntu packages that building, testing and packaging OrderPress
# need, and does nothing when they are all there (so `make run` and `make test` can run it each time).
#
# - Packages are looked up with dpkg-query, which every Debian has (pkg-config may be missing on a
#   fresh system: it is one of the packages installed here, for SwiftPM's system library targets).
# - apt-get update runs at most once, and only when something is missing; every missing package is
#   installed by one apt-get call.
# - As root it runs apt-get itself (a fresh Debian has no sudo); otherwise through sudo when there is
#   one, else it prints the command to run as root and fails.
# DEPS_DRY_RUN=1 prints the apt-get commands instead of running them (for trying the script).
set -eu

# What each package is for:
#   pkg-config                        SwiftPM reads the flags of the system libraries below through it
#   libcmark-gfm-dev, -extensions-dev the Markdown renderer (Sources/OrderPressRender/CMark*.swift)
#   libsqlite3-dev                    GRDB: the state folder's database
#   libjemalloc-dev                   the process's allocator (Sources/OrderPressSupport/Memory/Allocator.swift)
#   libcurl4-openssl-dev, libxml2-dev linking Foundation statically (make install, dist, deb): its
#                                     networking and XML parts link -lcurl and -lxml2, which need
#                                     the unversioned libcurl.so and libxml2.so of these packages
#   cmark-gfm                         the tests compare `orderpress markdown` with its output
#   tzdata                            Foundation reads time zones from /usr/share/zoneinfo
#   man-db                            the install test reads the generated man page
#   python3                           make test's layering and link checks, make templates (scripts/*.py)
packages="pkg-config libcmark-gfm-dev libcmark-gfm-extensions-dev libsqlite3-dev libjemalloc-dev
libcurl4-openssl-dev libxml2-dev cmark-gfm tzdata man-db python3"

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: not a Debian-based system (no dpkg-query); install the equivalents of:" $packages >&2
    exit 0
fi

# One dpkg-query for all: it prints a line for each package it knows (and fails for the others).
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' $packages 2>/dev/null | awk '$2 == "installed" { print $1 }' || true)
missing=""
for package in $packages; do
    # "installed" only: a removed package keeps its status line as "config-files".
    echo "$installed" | grep -qxF "$package" || missing="$missing $package"
done

if [ -z "$missing" ]; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=""
elif command -v sudo >/dev/null 2>&1; then
    as_root="sudo"
else
    echo "deps: missing Debian packages:$missing" >&2
    echo "deps: run as root: apt-get update && apt-get install -y$missing" >&2
    exit 1
fi

run() {
    echo "+ $*"
    if [ "${DEPS_DRY_RUN:-}" != 1 ]; then "$@"; fi
}

echo "deps: installing$missing"
run $as_root apt-get update -q
run $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
