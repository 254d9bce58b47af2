#!/bin/sh
# `make dist` and `make deb`: package a built release binary (see the Makefile's release target).
#
#   scripts/package.sh dist|deb BINARY MANTOOL OUTDIR
#
# dist: OUTDIR/orderpress-VERSION-linux-ARCH.tar.gz, one folder of that name holding bin/, share/
#       (man page; bash, zsh and fish completions; the full README and example systemd units under
#       share/doc/orderpress/) and README (how to install it on a server).
# deb:  OUTDIR/orderpress_VERSION_DEBARCH.deb, installing into /usr, root-owned, whose Depends is
#       RUNTIME_PACKAGES (from the environment; the Makefile sets it).
# The packaged binary is stripped, as Debian's packages are: the release build's debug information
# and symbol table are 47 of its 118 MB, and serve only a debugger (make install keeps them).
# The version is what the binary prints (`orderpress --version`, from Support/Process/Version.swift), and the
# files are laid out by `make install-files`, so the packages hold exactly what `make install` installs.
set -eu
umask 022

kind=$1 binary=$2 mantool=$3 outdir=$4
: "${RUNTIME_PACKAGES:?set RUNTIME_PACKAGES (the Makefile does)}"
root=$(cd "$(dirname "$0")/.." && pwd)

test -x "$binary" || { echo "$binary does not exist; run make release" >&2; exit 1; }
version=$("$binary" --version)
case $version in
    *[!0-9A-Za-z.+~-]* | "") echo "$binary --version printed '$version', not a version" >&2; exit 1 ;;
esac

mkdir -p "$outdir"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

stripped="$stage/orderpress"
strip -o "$stripped" "$binary"
touch -r "$binary" "$stripped"

# Installs the binary, man page and completions under $1 with PREFIX $2.
install_files() {
    make -s -C "$root" install-files BINARY="$stripped" MANTOOL="$(realpath "$mantool")" \
        DESTDIR="$1" PREFIX="$2" >/dev/null
}

case $kind in
dist)
    name="orderpress-$version-linux-$(uname -m)"
    tree="$stage/$name"
    install_files "$tree" ""
    install -d "$tree/share/doc/orderpress"
    install -m 0644 "$root/README.md" "$tree/share/doc/orderpress/README.md"
    install -m 0644 "$root/packaging/orderpress.service" "$root/packaging/orderpress.timer" "$tree/share/doc/orderpress/"
    sed -e "s/@VERSION@/$version/g" -e "s/@RUNTIME_PACKAGES@/$RUNTIME_PACKAGES/g" \
        "$root/packaging/README.dist" > "$tree/README"
    chmod 0644 "$tree/README"
    tarball="$outdir/$name.tar.gz"
    # Sorted names, root-owned entries and one modification time: the same binary gives the same tarball.
    mtime=$(stat -c %Y "$binary")
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -C "$stage" -cf - "$name" |
        gzip -9n > "$tarball"
    echo "$tarball"
    ;;
deb)
    arch=$(dpkg --print-architecture)
    tree="$stage/deb"
    install_files "$tree" /usr
    # Debian's places: man pages gzipped, zsh completions in vendor-completions (on zsh's default fpath).
    gzip -9n "$tree/usr/share/man/man1/orderpress.1"
    install -d "$tree/usr/share/zsh/vendor-completions"
    mv "$tree/usr/share/zsh/site-functions/_orderpress" "$tree/usr/share/zsh/vendor-completions/_orderpress"
    rmdir "$tree/usr/share/zsh/site-functions"
    install -d "$tree/usr/share/doc/orderpress/examples"
    install -m 0644 "$root/README.md" "$tree/usr/share/doc/orderpress/README.md"
    install -m 0644 "$root/packaging/orderpress.service" "$root/packaging/orderpress.timer" \
        "$tree/usr/share/doc/orderpress/examples/"
    install -d "$tree/DEBIAN"
    size=$(du -sk --exclude=DEBIAN "$tree" | cut -f1)
    depends=$(echo $RUNTIME_PACKAGES | sed 's/ /, /g')
    cat > "$tree/DEBIAN/control" <<EOF
Package: orderpress
Version: $version
Architecture: $arch
Maintainer: ${DEB_MAINTAINER:-OrderPress maintainers <orderpress@localhost>}
Installed-Size: $size
Depends: $depends
Section: utils
Priority: optional
Description: turns group orders into a static website
 OrderPress reads group orders (a tea-shop run, a team lunch) from a
 SheetDB-compatible API or local CSV/JSON files, validates every row, totals
 each person's orders with exact decimal arithmetic and currency conversions,
 writes deterministic Markdown and renders it to static HTML with cmark-gfm,
 publishing atomically. Meant to run from cron or a systemd timer; it keeps a
 snapshot of the last run so that deleted orders are shown.
EOF
    deb="$outdir/orderpress_${version}_$arch.deb"
    dpkg-deb --root-owner-group -Zxz --build "$tree" "$deb" >/dev/null
    echo "$deb"
    ;;
*)
    echo "usage: $0 dist|deb BINARY MANTOOL OUTDIR" >&2
    exit 64
    ;;
esac
