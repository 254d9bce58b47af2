#!/bin/sh
# Writes PNGs of each page kind of the sample site, at 390 px (a phone) and 1280 px (a laptop),
# light and dark, into docs/screenshots/. The sample is built twice in a temporary folder, the
# second time with one order deleted, so that the index and the Changes page show a deletion.
# Needs Chromium (apt install chromium) and a CJK font (fonts-wqy-microhei or fonts-noto-cjk).
# Run by `make screenshots`; not part of `make test`.
set -eu
orderpress=${ORDERPRESS:-.build/debug/orderpress}
chromium=${CHROMIUM:-chromium}
out=docs/screenshots
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp -R examples/sample/data "$work/data"
sed 's#\.\./\.\./output/#output/#' examples/sample/orderpress.toml > "$work/orderpress.toml"
SOURCE_DATE_EPOCH=1795255200 "$orderpress" build --quiet --config "$work/orderpress.toml"
grep -v '"id": "16",' examples/sample/data/orders.json > "$work/data/orders.json"   # Ben's 珍珠奶茶 vanishes
SOURCE_DATE_EPOCH=1795258800 "$orderpress" build --quiet --config "$work/orderpress.toml"

mkdir -p "$out"
for entry in index:index group:groups/週五下午茶 person:people/張志豪 rates:rates attention:attention changes:changes; do
    name=${entry%%:*}
    page=${entry#*:}
    for size in 390x1800 1280x1100; do
        width=${size%x*}
        for scheme in light dark; do
            # --force-dark-mode makes the page see prefers-color-scheme: dark.
            flag=--blink-settings=preferredColorScheme=1
            [ "$scheme" = dark ] && flag=--force-dark-mode
            "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars "$flag" \
                --window-size="${size%x*},${size#*x}" --screenshot="$out/$name-$width-$scheme.png" \
                "file://$work/output/site/$page.html" >/dev/null 2>&1
            echo "$out/$name-$width-$scheme.png"
        done
    done
done
