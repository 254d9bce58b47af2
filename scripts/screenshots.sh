#!/bin/sh
# Writes PNGs of each page kind of the sample site and of a small demo site, at 390 px (a phone) and 1280 px (a laptop), light and dark, in
# zh-Hant and en, into docs/screenshots/. The demo is the sample (examples/sample) with:
#   - 李美玲's rejected 珍珠奶茶 (price -5), shown on her page;
#   - payment details and a delivery fee for 週五下午茶 (groups columns `payment` and `fee`; a build
#     that does not map them reports them as unmapped and the pages leave them out);
#   - 黃俊傑's orders all deleted in the second build, so that his page is a tombstone where the
#     build keeps one (skipped where it does not).
# The sample is built twice in a temporary folder (the second time an hour later, with the deletion).
# Needs Chromium (apt install chromium) and a CJK font (fonts-wqy-microhei or fonts-noto-cjk).
# Run by `make screenshots`; not part of `make test`.
set -eu
orderpress=${ORDERPRESS:-.build/debug/orderpress}
chromium=${CHROMIUM:-chromium}
out=docs/screenshots
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

shoot() { # name page-path site-folder
    name=$1
    page=$2
    site=$3
    [ -f "$site/$page.html" ] || { echo "skipped $name: $page.html not built" >&2; return 0; }
    for size in 390x1800 1280x1100; do
        width=${size%x*}
        for scheme in light dark; do
            # --force-dark-mode makes the page see prefers-color-scheme: dark.
            flag=--blink-settings=preferredColorScheme=1
            [ "$scheme" = dark ] && flag=--force-dark-mode
            "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars "$flag" \
                --window-size="$width,${size#*x}" --screenshot="$out/$name-$width-$scheme.png" \
                "file://$site/$page.html" >/dev/null 2>&1
            echo "$out/$name-$width-$scheme.png"
        done
    done
}

mkdir -p "$out"
# The sample as it is, after one order was deleted (the index and the Changes page show it): every page kind.
sample="$work/sample"
mkdir -p "$sample"
cp -R examples/sample/data "$sample/data"
sed 's#\.\./\.\./output/#output/#' examples/sample/orderpress.toml > "$sample/orderpress.toml"
SOURCE_DATE_EPOCH=1795255200 "$orderpress" build --quiet --config "$sample/orderpress.toml"
grep -v '"id": "16",' examples/sample/data/orders.json > "$sample/data/orders.json"   # Ben's 珍珠奶茶 vanishes
SOURCE_DATE_EPOCH=1795258800 "$orderpress" build --quiet --config "$sample/orderpress.toml" >/dev/null
for entry in index:index group:groups/週五下午茶 person:people/張志豪 rates:rates attention:attention changes:changes; do
    shoot "${entry%%:*}" "${entry#*:}" "$sample/output/site"
done

# The demo, in zh-Hant and in English.
for language in zh-Hant en; do
    dir="$work/$language"
    mkdir -p "$dir"
    cp -R examples/sample/data "$dir/data"
    sed -e 's#\.\./\.\./output/#output/#' -e "s#^language = \"zh-Hant\"#language = \"$language\"#" \
        examples/sample/orderpress.toml > "$dir/orderpress.toml"
    python3 - "$dir/data/groups.csv" <<'PY'
import csv, sys
path = sys.argv[1]
with open(path, encoding="utf-8-sig", newline="") as f:
    rows = list(csv.reader(f))
# The sample's groups sheet may carry these columns already: set them, adding what is missing.
for column in ["payment", "fee"]:
    if column not in rows[0]:
        rows[0].append(column)
        for row in rows[1:]:
            row.append("")
payment, fee = rows[0].index("payment"), rows[0].index("fee")
for row in rows[1:]:
    if row[0] == "週五下午茶":
        row[payment], row[fee] = "LINE Pay: wang-xiaoming · 台灣銀行 004-123456789", "60"
with open(path, "w", encoding="utf-8-sig", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
PY
    SOURCE_DATE_EPOCH=1795255200 "$orderpress" build --quiet --config "$dir/orderpress.toml" || true
    python3 - "$dir/data/orders.json" <<'PY'
import json, sys
path = sys.argv[1]
rows = json.load(open(path, encoding="utf-8"))
json.dump([r for r in rows if r.get("orderer") != "黃俊傑"], open(path, "w", encoding="utf-8"), ensure_ascii=False, indent=1)
PY
    SOURCE_DATE_EPOCH=1795258800 "$orderpress" build --quiet --accept-deletions --config "$dir/orderpress.toml" || true
    site="$dir/output/site"
    suffix=$([ "$language" = en ] && echo "-en" || echo "")
    shoot "rejected-person$suffix" people/李美玲 "$site"
    shoot "fee-group$suffix" groups/週五下午茶 "$site"
    shoot "demo-attention$suffix" attention "$site"
    shoot "tombstone$suffix" people/黃俊傑 "$site"
done
