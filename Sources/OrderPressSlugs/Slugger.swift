import OrderPressSupport
import OrderPressValidate

/// File names for pages: readable, stable, unique, and unable to leave their folder.
///
/// A slug is made of lower-case letters and digits of any script and single inner hyphens, so it
/// never holds `/`, `\`, `.` (no `..`, no hidden file, no second extension) or a character that
/// Windows or macOS refuses. It is at most `maximumLength` characters before its suffix: 48
/// characters of 4 bytes at most, plus `-` and a 6-digit hash, plus `-` and a counter, plus
/// `.html`, stay well under the 255-byte limit on a file name of Linux and macOS.
///
/// Slugs name files inside `groups/` and `people/` only; pages that are not about one group or
/// person (the list pages `groups-2`, `people-2`, … included) live at the top, so no name a sheet
/// holds can take theirs.
public enum Slugger {
    static let maximumLength = 48
    /// Names some systems refuse as files, whatever the extension (Windows' device names), and
    /// `index`, which reads as the folder's own page.
    package static let reserved: Set<String> = Set(
        ["con", "prn", "aux", "nul", "index"] + (1...9).flatMap { ["com\($0)", "lpt\($0)"] })

    /// Assigns a distinct slug to each distinct key; the result does not depend on the keys' order.
    ///
    /// Three passes, so that a page stays where it was and a name's own slug can never be taken by
    /// another name's suffixed one:
    /// 0. each key that `kept` gives a slug (the last build's, `PageSlugs`) keeps it, when it is still a
    ///    slug this function could give that key (its own, or its own with suffixes) and no other key
    ///    kept it first;
    /// 1. each plain slug goes to the first key (in sorted order) that makes it, unless it is empty,
    ///    reserved or taken;
    /// 2. every other key, in sorted order, gets its slug (or the fallback) plus a hash of its own
    ///    text — `amy-3f2a9c` — and, only if a crafted name already holds that, a counter:
    ///    `amy-3f2a9c-2`, `-3`, ….
    ///
    /// Pass 2 ends: the candidates `stem-hash-2`, `stem-hash-3`, … are all different, and only
    /// finitely many slugs are taken, so one of the first `taken.count + 1` is free. Without `kept`
    /// the result is what it was before slugs were kept.
    ///
    /// Slugs differing only in case count as the same, since the site may be copied to a
    /// case-insensitive file system (macOS, Windows), where they would be one file.
    ///
    /// A list in the keys' sorted order (the order `PageSlugs` stores them in).
    package static func assignInOrder(_ keys: some Sequence<String>, fallback: String, kept: [String: String] = [:]) -> [(key: String, slug: String)] {
        // `TextOrder` sorts as `<` does without normalising both sides of every comparison.
        let sorted = TextOrder.sorted(Array(Set(keys)), keys: { [$0] }, by: <)
        return assign(sorted: sorted, names: sorted, fallback: fallback, kept: kept, reserved: [])
    }

    /// `assignInOrder` of people: each key's slug made from the name its pages show (`named`, one entry
    /// per key), not from the key, which has no spaces (`PersonKey`). `aliases`: slugs that earlier
    /// builds gave a spelling now merged into another person; no one else gets them.
    package static func assignInOrder(
        named entries: [(key: String, name: String)], fallback: String, kept: [String: String] = [:], aliases: Set<String> = []
    ) -> [(key: String, slug: String)] {
        let order = TextOrder.sorted(Array(entries.indices), keys: { [entries[$0].key] }, by: { entries[$0].key < entries[$1].key })
        return assign(
            sorted: order.map { entries[$0].key }, names: order.map { entries[$0].name }, fallback: fallback, kept: kept,
            reserved: Set(aliases.map(caseFolded)))
    }

    private static func assign(
        sorted: [String], names: [String], fallback: String, kept: [String: String], reserved aliases: Set<String>
    ) -> [(key: String, slug: String)] {
        var result = [String?](repeating: nil, count: sorted.count)
        var taken = Set<String>()
        // Each key's own slug on both cores (Unicode case mapping and normalisation, 100,000 people at
        // a million orders); only handing them out is done in order.
        let slugs = Parallel.map(sorted.count) { slug(names[$0]) }
        if !kept.isEmpty {
            for (index, key) in sorted.enumerated() {
                guard let slug = kept[key], fits(slug, base: slugs[index], fallback: fallback), taken.insert(caseFolded(slug)).inserted else { continue }
                result[index] = slug
            }
        }
        taken.formUnion(aliases)
        for (index, base) in slugs.enumerated() where result[index] == nil {
            guard !base.isEmpty, !reserved.contains(caseFolded(base)), taken.insert(caseFolded(base)).inserted else { continue }
            result[index] = base
        }
        for (index, key) in sorted.enumerated() where result[index] == nil {
            let base = slugs[index]
            let stem = "\(base.isEmpty ? fallback : base)-\(hash(key, length: 6))"
            var candidate = stem
            var counter = 1
            while !taken.insert(caseFolded(candidate)).inserted {
                counter += 1
                candidate = "\(stem)-\(counter)"
            }
            result[index] = candidate
        }
        return zip(sorted, result).map { ($0, $1!) }
    }

    /// Whether `slug`, read from the state, is one `assign` could give a key whose own slug is `base`:
    /// that slug itself, or it (or the fallback) with suffixes of letters, digits and hyphens. So a
    /// damaged or edited state can never name a file outside the folder, a reserved name, or a slug
    /// that has nothing to do with the name.
    static func fits(_ slug: String, base: String, fallback: String) -> Bool {
        // A rerun checks every kept slug, and most are the name's own plain slug (ASCII and CJK ideographs):
        // such a slug's parts are plain slugs already, which `slug` gives back unchanged, so only
        // `reserved` is left to check (`fitsByParts` read each part's slug again).
        if slug.utf8.elementsEqual(base.utf8), isPlain(base) { return !base.isEmpty && !reserved.contains(caseFolded(slug)) }
        return fitsByParts(slug, base: base, fallback: fallback)
    }

    /// `fits`, read part by part: for any slug.
    static func fitsByParts(_ slug: String, base: String, fallback: String) -> Bool {
        // Parts a slug is made of (each at most `maximumLength`, which a whole suffixed slug exceeds), single hyphens between.
        let parts = slug.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && Self.slug(String($0)) == $0 }), !reserved.contains(caseFolded(slug)) else { return false }
        if slug == base { return !base.isEmpty }
        let stem = base.isEmpty ? fallback : base
        if slug.hasPrefix(stem + "-") { return true }
        // Another spelling of the same person (`PersonKey`: width, case and spaces folded), as an earlier
        // build made it from that spelling: `伊藤-健` for `伊藤健`, `ｋｅｎ` for `ken`.
        guard !base.isEmpty else { return false }
        return Self.squeezed(slug).hasPrefix(Self.squeezed(base))
    }

    /// A slug as a person's key reads it, hyphens dropped.
    private static func squeezed(_ slug: String) -> String {
        PersonKey(String(String.UnicodeScalarView(slug.unicodeScalars.filter { $0 != "-" }))).text
    }

    /// The form two names share when a case-insensitive file system would see one file: upper then
    /// lower case folds `ς` with `σ` and `ß` with `ss` too, which errs on the side of a suffix.
    static func caseFolded(_ slug: String) -> String {
        // Lower-case ASCII, digits, hyphens and CJK ideographs fold to themselves: most slugs, found by their
        // scalars' values, without the two case mappings (a rerun folds every person's slug twice).
        if slug.unicodeScalars.allSatisfy({ ($0.value < 0x80 && !(0x41...0x5A).contains($0.value)) || isPlainIdeograph($0.value) }) {
            return slug
        }
        return slug.uppercased().lowercased()
    }

    /// Lower-case letters and digits of any script, other runs folded into one hyphen.
    package static func slug(_ name: String) -> String {
        plainSlug(name) ?? normalizedSlug(name)
    }

    /// `slug`, the long way for any name: lower-cased, normalised, then read by the scalars' properties.
    static func normalizedSlug(_ name: String) -> String {
        var result = ""
        var pendingHyphen = false
        var count = 0
        for scalar in name.lowercased().precomposedStringWithCanonicalMapping.unicodeScalars {
            let keep = scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
                || scalar.properties.generalCategory == .nonspacingMark
            guard keep else {
                pendingHyphen = !result.isEmpty
                continue
            }
            if pendingHyphen {
                guard count + 1 < maximumLength else { break }
                result.unicodeScalars.append("-")
                count += 1
                pendingHyphen = false
            }
            guard count < maximumLength else { break }
            result.unicodeScalars.append(scalar)
            count += 1
        }
        return result
    }

    /// `slug(name)` for a name of ASCII and CJK ideographs alone (most names of a Taiwanese or an English
    /// sheet), read scalar by scalar: neither lower-casing nor normalising changes such a name but for
    /// A–Z, and its letters and digits are those of ASCII and the ideographs. Nil for any other name,
    /// which `normalizedSlug` reads (`SluggerTests` compares the two on every ideograph and on
    /// generated names). A rerun makes every person's slug again, and checks their kept ones.
    private static func plainSlug(_ name: String) -> String? {
        var result = String.UnicodeScalarView()
        var pendingHyphen = false
        var count = 0
        var full = false
        for scalar in name.unicodeScalars {
            var value = scalar.value
            if value < 0x80 {
                if (0x41...0x5A).contains(value) {
                    value += 0x20
                } else if !(0x61...0x7A).contains(value), !(0x30...0x39).contains(value) {
                    pendingHyphen = !result.isEmpty
                    continue
                }
            } else if !isPlainIdeograph(value) {
                return nil
            }
            // Past the longest slug, the rest is read only to be sure it is all plain.
            guard !full else { continue }
            if pendingHyphen {
                guard count + 1 < maximumLength else {
                    full = true
                    continue
                }
                result.append("-")
                count += 1
                pendingHyphen = false
            }
            guard count < maximumLength else {
                full = true
                continue
            }
            result.append(Unicode.Scalar(value)!)
            count += 1
        }
        return String(result)
    }

    /// Whether `slug` is made of ASCII and CJK ideographs alone, as `plainSlug` makes it.
    private static func isPlain(_ slug: String) -> Bool {
        slug.unicodeScalars.allSatisfy { $0.value < 0x80 || isPlainIdeograph($0.value) }
    }

    /// CJK Unified Ideographs and their Extension A: letters without case, which no normalisation changes.
    static func isPlainIdeograph(_ value: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(value) || (0x3400...0x4DBF).contains(value)
    }

    /// FNV-1a of the UTF-8 bytes, in lower-case hex: the same on every machine and run.
    package static func hash(_ text: String, length: Int) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        let hex = String(value, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(length))
    }
}
