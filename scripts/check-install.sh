#!/bin/sh
# `make check-install` (run by .ci/run after `make deb dist`): checks what make dist and make deb
# built, as a user would get it.
#
#   scripts/check-install.sh RELEASE_BINARY DIST_DIR
#
# - the release binary links no Swift runtime library and has no RUNPATH into the toolchain, and every
#   library it names is in a Debian package of RUNTIME_PACKAGES (dpkg -S);
# - the tarball and the .deb hold exactly the expected files, root-owned; the .deb's Depends is
#   RUNTIME_PACKAGES, and so is the README's apt-get line;
# - with the toolchain hidden (an empty tmpfs over it in a private mount namespace: unshare -m as
#   root), the tarball's binary and the .deb's binary, unpacked with dpkg -x into a temporary root,
#   print the version and build the sample (exit 0, site/index.html), while a binary linked against
#   the toolchain's runtime (the debug build, when there is one) fails there: the hiding works.
# Prints "ok"/"FAIL" per check and closes with "N passed, N failed"; exits 1 if any failed.
set -u

binary=${1:?usage: $0 RELEASE_BINARY DIST_DIR}
dist=${2:?usage: $0 RELEASE_BINARY DIST_DIR}
: "${RUNTIME_PACKAGES:?set RUNTIME_PACKAGES (the Makefile does)}"
root=$(cd "$(dirname "$0")/.." && pwd)
dynamic=${DYNAMIC_BINARY:-$root/.build/debug/orderpress}

passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
skip() { skipped=$((skipped + 1)); echo "skip - $1"; }
# check NAME COMMAND...: passes when COMMAND exits 0; its output is shown when it fails.
check() {
    name=$1; shift
    if out=$("$@" 2>&1); then ok "$name"; else fail "$name"; printf '%s\n' "$out" | sed 's/^/    /' | head -20; fi
}
finish() {
    line="$passed passed, $failed failed"
    [ "$skipped" -eq 0 ] || line="$line, $skipped skipped"
    echo "$line"
    [ "$failed" -eq 0 ]
    exit $?
}
# same_words A B: the two word lists hold the same words, whatever their order.
same_words() {
    a=$(printf '%s\n' $1 | sort -u); b=$(printf '%s\n' $2 | sort -u)
    [ "$a" = "$b" ] || { echo "expected: $(echo $a)"; echo "found:    $(echo $b)"; return 1; }
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ ! -x "$binary" ]; then fail "$binary exists (run make release)"; finish; fi
version=$("$binary" --version 2>&1) || { fail "$binary --version: $version"; finish; }
arch=$(uname -m)
tarball="$dist/orderpress-$version-linux-$arch.tar.gz"
deb="$dist/orderpress_${version}_$(dpkg --print-architecture).deb"

# --- the clone: make deps and make run ------------------------------------------------------------
check "make deps does nothing when every package is installed" sh -c \
    'out=$(make -s -C "$1" deps 2>&1) && [ -z "$out" ] || { echo "$out"; exit 1; }' sh "$root"
if [ -x "$dynamic" ] && [ -d "$root/.git" ]; then
    # make run builds the sample into output/ and changes nothing that git tracks or would show.
    runs_sample() {
        make -s -C "$root" run >/dev/null || return 1
        test -s "$root/output/site/index.html" && test -d "$root/output/markdown" && test -d "$root/output/state" ||
            { echo "no output/site/index.html, output/markdown or output/state"; return 1; }
        # Ignored files count too (examples/sample/output/ is ignored), but for the build folders,
        # Package.resolved, output/ and dist/.
        changed=$(git -C "$root" status --porcelain --ignored |
            grep -vE '^!! (\.build(-[^/]*)?/|Package\.resolved|output/|dist/)$')
        [ -z "$changed" ] || { echo "git status: $changed"; return 1; }
    }
    check "make run builds the sample into output/ and touches nothing else" runs_sample
else
    skip "make run (no debug build or no git work tree here)"
fi

# --- the binary -----------------------------------------------------------------------------------
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
check "binary links no Swift runtime library" sh -c \
    "echo '$needed' | grep -E '^lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime)' && exit 1 || exit 0"
# SwiftPM gives every executable a RUNPATH of $ORIGIN (its own folder); nothing else may be there.
check "binary's RUNPATH names no folder but its own" sh -c \
    "readelf -d '$binary' | grep -E '\((RUNPATH|RPATH)\)' | grep -vF 'path: [\$ORIGIN]' && exit 1 || exit 0"

# The package of each library the binary names, as the loader finds it here.
owners() {
    for soname in $needed; do
        # "libc.so.6 => /lib/.../libc.so.6 (0x…)", or for the loader "/lib64/ld-linux-x86-64.so.2 (0x…)".
        path=$(ldd "$binary" | awk -v so="$soname" '
            $1 == so && $3 ~ /^\// { print $3; exit }
            $1 ~ /^\// && substr($1, length($1) - length(so)) == "/" so { print $1; exit }')
        [ -n "$path" ] || { echo "unresolved:$soname"; continue; }
        # dpkg knows a file by the path its package ships (/lib/... or /usr/lib/... on a merged /usr).
        package=""
        for candidate in "$path" "$(realpath "$path")" "${path#/usr}" "/usr$path"; do
            package=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$package" ] && break
        done
        echo "${package:-unowned:$soname}"
    done | sort -u
}
packages=$(owners)
check "each library the binary needs is in RUNTIME_PACKAGES ($(echo $packages))" sh -c '
    for p in $1; do case " $2 " in *" $p "*) ;; *) echo "$p is not in RUNTIME_PACKAGES"; exit 1 ;; esac; done' \
    sh "$packages" "$RUNTIME_PACKAGES"

apt_line=$(grep -E '^ *(sudo )?apt-get install .*libjemalloc2' "$root/README.md" | head -1 |
    sed -E 's/^ *(sudo )?apt-get install//' | tr ' ' '\n' | grep -v '^-' | tr '\n' ' ')
check "README's apt-get line names RUNTIME_PACKAGES" same_words "$RUNTIME_PACKAGES" "$apt_line"

# The systemd examples: the README shows the files that the packages carry, and systemd takes them.
# readme_shows_unit NAME: the README's block under `/etc/systemd/system/NAME`: is packaging/NAME
# without its comments.
readme_shows_unit() {
    shown=$(awk -v heading="\`/etc/systemd/system/$1\`:" '
        $0 == heading { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' "$root/README.md")
    [ "$shown" = "$(grep -v '^#' "$root/packaging/$1")" ] || { echo "README shows:"; echo "$shown"; return 1; }
}
for unit in orderpress.service orderpress.timer; do
    check "README shows packaging/$unit" readme_shows_unit "$unit"
done
if command -v systemd-analyze >/dev/null 2>&1; then
    mkdir "$work/units"
    sed "s#^ExecStart=/usr/bin/orderpress #ExecStart=$(realpath "$binary") #" "$root/packaging/orderpress.service" > "$work/units/orderpress.service"
    cp "$root/packaging/orderpress.timer" "$work/units/"
    check "systemd-analyze verify takes the service and the timer" \
        systemd-analyze verify "$work/units/orderpress.service" "$work/units/orderpress.timer"
else
    skip "no systemd-analyze to verify the systemd examples"
fi

# --- the tarball ----------------------------------------------------------------------------------
top="orderpress-$version-linux-$arch"
expected_tar="$top/ $top/README $top/bin/ $top/bin/orderpress $top/share/ $top/share/bash-completion/
$top/share/bash-completion/completions/ $top/share/bash-completion/completions/orderpress
$top/share/doc/ $top/share/doc/orderpress/ $top/share/doc/orderpress/README.md
$top/share/doc/orderpress/orderpress.service $top/share/doc/orderpress/orderpress.timer
$top/share/fish/ $top/share/fish/vendor_completions.d/ $top/share/fish/vendor_completions.d/orderpress.fish
$top/share/man/ $top/share/man/man1/ $top/share/man/man1/orderpress.1
$top/share/zsh/ $top/share/zsh/site-functions/ $top/share/zsh/site-functions/_orderpress"
if [ -f "$tarball" ]; then
    ok "make dist made $tarball"
    check "the tarball holds the binary, man page, completions, README and systemd examples" \
        same_words "$expected_tar" "$(tar -tzf "$tarball")"
    check "the tarball's entries are owned by root" sh -c \
        "tar --numeric-owner -tvzf '$tarball' | awk '\$2 != \"0/0\" { print; bad = 1 } END { exit bad }'"
    mkdir "$work/tar" && tar -xzf "$tarball" -C "$work/tar"
    strip -o "$work/stripped" "$binary"
    check "the tarball's binary is the release binary, stripped" cmp "$work/stripped" "$work/tar/$top/bin/orderpress"
    check "the tarball's README names the runtime packages" grep -qF "apt-get install $RUNTIME_PACKAGES" "$work/tar/$top/README"
else
    fail "make dist made $tarball"
fi

# --- the .deb -------------------------------------------------------------------------------------
expected_deb="./ ./usr/ ./usr/bin/ ./usr/bin/orderpress ./usr/share/ ./usr/share/bash-completion/
./usr/share/bash-completion/completions/ ./usr/share/bash-completion/completions/orderpress
./usr/share/doc/ ./usr/share/doc/orderpress/ ./usr/share/doc/orderpress/README.md
./usr/share/doc/orderpress/examples/ ./usr/share/doc/orderpress/examples/orderpress.service
./usr/share/doc/orderpress/examples/orderpress.timer
./usr/share/fish/ ./usr/share/fish/vendor_completions.d/ ./usr/share/fish/vendor_completions.d/orderpress.fish
./usr/share/man/ ./usr/share/man/man1/ ./usr/share/man/man1/orderpress.1.gz
./usr/share/zsh/ ./usr/share/zsh/vendor-completions/ ./usr/share/zsh/vendor-completions/_orderpress"
if [ -f "$deb" ]; then
    ok "make deb made $deb"
    check "the .deb's Depends is RUNTIME_PACKAGES" \
        same_words "$RUNTIME_PACKAGES" "$(dpkg-deb -f "$deb" Depends | tr -d ',')"
    check "the .deb is orderpress $version" test "$(dpkg-deb -f "$deb" Package Version | tr '\n' ' ')" = "Package: orderpress Version: $version "
    check "the .deb installs the binary, man page, completions and docs into /usr" \
        same_words "$expected_deb" "$(dpkg-deb -c "$deb" | awk '{ print $6 }')"
    check "the .deb's files are owned by root" sh -c \
        "dpkg-deb -c '$deb' | awk '\$2 != \"root/root\" { print; bad = 1 } END { exit bad }'"
    mkdir "$work/debroot" && dpkg -x "$deb" "$work/debroot"
    check "the .deb's man page is gzip" gzip -t "$work/debroot/usr/share/man/man1/orderpress.1.gz"
else
    fail "make deb made $deb"
fi

# --- running it -----------------------------------------------------------------------------------
# builds_sample BINARY...: a copy of examples/sample (its output folder inside the copy) builds.
builds_sample() {
    site=$(mktemp -d "$work/sample.XXXXXX")
    cp -R "$root/examples/sample/orderpress.toml" "$root/examples/sample/data" "$site/"
    "$@" build --quiet --progress never --config "$site/orderpress.toml" || { echo "exit $?"; return 1; }
    test -s "$site/output/site/index.html" || { echo "no output/site/index.html"; return 1; }
}
prints_version() {
    out=$("$@" --version) || return 1
    [ "$out" = "$version" ] || { echo "printed '$out', expected '$version'"; return 1; }
}

debbin="$work/debroot/usr/bin/orderpress"
if [ -x "$debbin" ]; then
    check "the binary from dpkg -x prints $version" prints_version "$debbin"
    check "the binary from dpkg -x builds the sample" builds_sample "$debbin"
fi

# The toolchain's runtime folder (where libswiftCore.so is), and the toolchain's own folder when it
# is not /usr (/opt/swift here): both are covered by an empty tmpfs in the namespace.
hide=""
if command -v swift >/dev/null 2>&1; then
    hide=$(swift -print-target-info 2>/dev/null | sed -n '/runtimeLibraryPaths/,/]/p' | grep -o '"/[^"]*"' | tr -d '"')
    toolchain=$(dirname "$(dirname "$(dirname "$(realpath "$(command -v swift)")")")")
    case $toolchain in /|/usr|/usr/local) ;; *) hide="$hide $toolchain" ;; esac
fi
if [ "$(id -u)" -eq 0 ]; then unshare="unshare -m"; else unshare="unshare -rm"; fi

# hidden COMMAND...: runs COMMAND with an empty tmpfs over each folder of $hide.
hidden() {
    $unshare sh -c 'for d in $HIDE; do mount -t tmpfs -o size=1m orderpress-hidden "$d" || exit 99; done; exec "$@"' sh "$@"
}
export HIDE="$hide"
# The control: a binary that needs the toolchain's runtime (libswift*.so) must not start there.
fails_without_toolchain() {
    out=$(hidden "$1" --version 2>&1); status=$?
    [ $status -eq 127 ] && echo "$out" | grep -q "libswift.*\.so" && return 0
    echo "exit $status: $out"; return 1
}

if [ -z "$hide" ]; then
    skip "no Swift toolchain here to hide: the runs above were without one"
elif ! hidden true >/dev/null 2>&1; then
    skip "cannot make a private mount namespace here ($unshare; run as root)"
else
    echo "# hiding $(echo $hide) in a private mount namespace"
    if [ -x "$dynamic" ]; then
        check "with the toolchain hidden, $dynamic (linked to it) fails to start" fails_without_toolchain "$dynamic"
    else
        skip "no dynamically linked $dynamic to show that the hiding works"
    fi
    check "with the toolchain hidden, the release binary prints $version" prints_version hidden "$binary"
    check "with the toolchain hidden, the release binary builds the sample" builds_sample hidden "$binary"
    if [ -x "$work/tar/$top/bin/orderpress" ]; then
        check "with the toolchain hidden, the tarball's binary builds the sample" builds_sample hidden "$work/tar/$top/bin/orderpress"
    fi
    if [ -x "$debbin" ]; then
        check "with the toolchain hidden, the .deb's binary prints $version" prints_version hidden "$debbin"
        check "with the toolchain hidden, the .deb's binary builds the sample" builds_sample hidden "$debbin"
    fi
fi

finish
