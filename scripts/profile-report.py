#!/usr/bin/env python3
"""Summarises a callgrind profile of `orderpress build` by pipeline stage (see docs/benchmarks.md).

    python3 scripts/profile-report.py .build/bench/10000/profile/callgrind.full

Callgrind follows calls, not Swift tasks: after an `await`, the rest of Pipeline.build is counted
inside whatever async frame resumed it (Fetcher.fetch shows 60 % "inclusive"). So stages are measured
at synchronous functions that each stage calls, whose inclusive counts are exact, and the
exclusive counts are grouped by what the instructions do."""
import re, subprocess, sys

# (stage, label, function as demangled by `swift demangle --simplified`, with its argument labels;
# " | " separates the names a function had in other versions)
STAGES = [
    ("fetch", "sheet JSON, fast path (SheetJSONScanner, both halves)", "static SheetJSONScanner.table(_:source:splitNear:) | SheetJSONScanner.scanDocument()"),
    ("fetch", "SHA-256 fingerprint of the sources", "SourceFingerprint.add(source:format:parts:)"),
    ("validate", "Validator.validateKeepingSecrets", "Validator.validateKeepingSecrets(orders:groups:)"),
    ("aggregate", "Aggregator.aggregate", "static Aggregator.aggregate(_:rates:displayCurrencies:baseCurrency:money:) | static Aggregator.aggregate(_:rates:displayCurrencies:baseCurrency:money:organizerSettled:)"),
    ("aggregate", "  slugs and order digests beside it (own thread)", "closure #1 in Pipeline.slugs(_:store:)"),
    ("diff", "Differ.compare", "Differ.compare(_:secrets:previous:)"),
    ("diff", "StateStore: reading the database", "StateStore.contents() | StateStore.loadPrevious()"),
    ("render", "all pages (renderPage, below)", "SiteRenderer.renderPage<A>(_:builder:runner:) | SiteRenderer.renderPage<A>(_:builder:inputs:layoutKey:sink:)"),
    ("render", "  every page's Markdown (SiteRenderer.markdown: models, compiled templates)", "SiteRenderer.markdown(_:template:builder:)"),
    ("render", "    person pages' model (PageBuilder.personPage)", "PageBuilder.personPage(_:)"),
    ("render", "    person pages' compiled template (PageModels.PersonPage.markdown)", "PageModels.PersonPage.markdown(labels:into:)"),
    ("render", "    group pages' model (PageBuilder.groupPage)", "PageBuilder.groupPage(_:)"),
    ("render", "    group pages' compiled template (PageModels.GroupPage.markdown)", "PageModels.GroupPage.markdown(labels:into:)"),
    ("render", "  PageBuilder.index", "PageBuilder.index()"),
    ("render", "  the layout around cmark-gfm's HTML (BuiltInPages.Layout)", "BuiltInPages.Layout.html(title:body:)"),
    ("render", "  Mustache (templates that are not built in)", "MustacheLibrary.render(_:withTemplate:)"),
    ("render", "  CMark.html (cmark-gfm: parse + links + HTML)", "CMark.html(from:)"),
    ("render", "    cmark_parser_feed", "cmark_parser_feed"),
    ("render", "    cmark_parser_finish", "cmark_parser_finish"),
    ("render", "    CMark.rewriteLinks", "CMark.rewriteLinks(in:)"),
    ("render", "    cmark_render_html", "cmark_render_html"),
    ("all", "SHA-256, every caller (record digests, fingerprint, streamed exports' hashes, page keys; valgrind hides SHA-NI: see profile-native.sh)", "SHA256.update(bufferPointer:)"),
    ("render", "amounts: DecimalText.fixed (everywhere)", "static DecimalText.fixed(_:digits:)"),
    ("render", "page keys (PageKeys: orders, then pages)", "PageKeys.init(_:templates:digestTable:) | PageInputs.init(_:templates:)"),
    ("render", "  PageKeys.person", "PageKeys.person(_:) | PageInputs.person(_:)"),
    ("render", "  PageKeys.group", "PageKeys.group(_:) | PageInputs.group(_:)"),
    ("render", "whole-site files (own thread: feed, summary.json, orders.csv)", "static SiteRenderer.exportWholeSiteFiles<A, B>(_:stylesheet:runner:sink:writer:) | static SiteRenderer.exportWholeSiteFiles<A>(_:stylesheet:inputs:sink:writer:)"),
    ("render", "  summary.json", "static SummaryDocument.write(_:inputs:published:into:)"),
    ("render", "charts (SVG)", "BarChart.svg()"),
    ("render", "  orders.csv", "static OrdersCSV.write(_:timeZone:inputs:published:into:)"),
    ("render", "  feed.xml", "AtomFeed.xml()"),
    ("publish", "PublishSession.publish (compare + write)", "PublishSession.publish(_:in:)"),
    ("publish", "PublishSession.publishStreamed (summary.json, orders.csv)", "PublishSession.publishStreamed(_:in:make:)"),
    ("publish", "PublishSession.finish (removals + manifest)", "PublishSession.finish()"),
    ("diff", "StateStore.stage (changed records to staged.sqlite, own thread)", "StateStore.stage(_:digests:)"),
    ("snapshot", "StateStore.save (staged rows copied in, one transaction)", "StateStore.save(_:history:lastBuild:) | StateStore.save(snapshot:history:lastBuild:)"),
]

BUCKETS = [
    ("dynamic casts and conformance lookups (values as Any)",
     r"tryCast|dynamicCast|onformsToProtocol|ConformanceCache|TargetProtocolDescriptor|ExistentialTypeMetadata|hash_short"),
    ("generic metadata lookups",
     r"GenericMetadata|MetadataCacheKey|getCache\(|GenericCacheEntry|MetadataCacheEntryBase|getTypeByMangled|getWitnessTable|checkMetadataState"),
    ("malloc/free", r"malloc|_int_free|\bfree\b|calloc|realloc|swift_slowAlloc|swift_slowDealloc|arena\.c"),
    ("retain/release, copies, object lifetime",
     r"swift_retain|swift_release|RefCounts|bridgeObjectRe|swift_allocObject|swift_dealloc|swift_array(Destroy|Init|Assign)|swift_unknownObject|destroy for|initializeBufferWithCopyOfBuffer|initializeWithCopy|assignWithCopy"),
    ("Mirror (reflection)", r"Mirror"),
    ("Decimal arithmetic", r"Decimal"),
    ("String, Character, Unicode", r"String|Character|_allASCII|Unicode|_swift_stdlib_get|_SmallString|Substring|UTF8|Grapheme"),
    ("hashing, Dictionary, Set", r"Hasher|Dictionary|_NativeSet|hashValue"),
    ("JSON (Foundation)", r"JSON"),
    ("libcmark-gfm", r"libcmark-gfm"),
    ("Mustache (own code)", r"Mustache"),
]


def annotate(path, inclusive):
    raw = subprocess.run(["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    text = subprocess.run(["swift", "demangle", "--simplified"], input=raw, capture_output=True, text=True, check=True).stdout
    total, rows = None, []
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)", line)
        if not m:
            continue
        count, name = int(m.group(1).replace(",", "")), m.group(2)
        if "PROGRAM TOTALS" in name:
            total = count
        else:
            rows.append((count, name))
    return total, rows


def function_name(entry):
    """'???:specialized static Foo.bar(_:) [/path/lib.so]' → 'static Foo.bar(_:)'."""
    name = re.sub(r"^[^:]*:", "", entry)
    name = re.sub(r" \[[^\]]*\]$", "", name)
    return re.sub(r"^(specialized |partial apply for )+", "", name)


def main(path):
    total, inclusive = annotate(path, True)
    _, exclusive = annotate(path, False)
    print(f"{path}: {total:,} instructions\n")
    print("| stage | function (inclusive) | instructions | share |")
    print("|---|---|--:|--:|")
    for stage, label, function in STAGES:
        names = function.split(" | ")
        counts = [c for c, e in inclusive if function_name(e) in names and "'2" not in e]
        if counts:
            print(f"| {stage} | {label.replace('  ', '&nbsp;&nbsp;')} | {max(counts) / 1e9:.2f} G | {100 * max(counts) / total:.1f} % |")
    print("\n| exclusive instructions, by kind | instructions | share |")
    print("|---|--:|--:|")
    buckets = {}
    for count, entry in exclusive:
        kind = next((k for k, rx in BUCKETS if re.search(rx, entry)), "everything else")
        buckets[kind] = buckets.get(kind, 0) + count
    for kind, count in sorted(buckets.items(), key=lambda b: -b[1]):
        print(f"| {kind} | {count / 1e9:.2f} G | {100 * count / total:.1f} % |")
    print("\n| top exclusive functions | instructions | share |")
    print("|---|--:|--:|")
    for count, entry in exclusive[:25]:
        library = re.search(r"\[([^\]]*)\]$", entry)
        where = library.group(1).rsplit("/", 1)[-1] if library else ""
        print(f"| `{function_name(entry)[:110]}` ({where}) | {count / 1e9:.2f} G | {100 * count / total:.1f} % |")


if __name__ == "__main__":
    main(sys.argv[1])
