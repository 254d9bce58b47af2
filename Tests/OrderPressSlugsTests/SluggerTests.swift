import Foundation
import PropertyBased
import Testing

@testable import OrderPressSlugs
import OrderPressTestSupport

@Suite struct SluggerTests {
    @Test(arguments: [
        ("SF office boba", "sf-office-boba"), ("週五下午茶", "週五下午茶"), ("../../etc/passwd", "etc-passwd"),
        ("a\\b/c", "a-b-c"), ("  Kevin   Lin ", "kevin-lin"), ("Crème Brûlée", "crème-brûlée"), ("...", ""),
        ("\u{1B}]0;pwned\u{7}", "0-pwned"), ("a\u{202E}b", "a-b"), (".hidden", "hidden"),
    ])
    func makesReadableSlugs(name: String, slug: String) {
        #expect(Slugger.slug(name) == slug)
    }

    /// The short way for names of ASCII and CJK ideographs gives what the long way gives: every
    /// ideograph and ASCII character alone and after a capital, and generated names of them (with
    /// now and then a character that is neither, which takes the long way), of every length around
    /// the longest slug; and their case folding is the two case mappings'.
    /// Names of mostly plain characters (the first 27), now and then any of the others.
    static let names = Generator<String, Shrink.None<String>> { rng in
        let characters: [Character] = Array("AbZz09 -_./\\!#週五下午茶陳林黃㐀䶿一龥鿿") + ["é", "e\u{301}", "ガ", "Ｋ", "İ", "ß", "σ", "\u{F900}"]
        let count = Int.random(in: 0...60, using: &rng)
        var name = ""
        for _ in 0..<count {
            let any = Bool.random(using: &rng) && Bool.random(using: &rng)
            name.append((any ? characters[...] : characters.prefix(27)).randomElement(using: &rng)!)
        }
        return name
    }

    /// A kept slug that is its name's own plain slug is checked without reading its parts again: the
    /// same answer as reading them (`fitsByParts`), for generated names, reserved and empty ones, and
    /// for the slug written in other bytes or with a suffix.
    @Test func aKeptOwnSlugFitsAsReadingItsPartsSays() async {
        func check(_ slug: String, base: String) {
            #expect(
                Slugger.fits(slug, base: base, fallback: "person") == Slugger.fitsByParts(slug, base: base, fallback: "person"),
                "\(slug.debugDescription) for \(base.debugDescription)")
        }
        for name in ["index", "INDEX", "Con", "lpt9", "", "-", "amy", "週五 下午茶", "é", "\u{8C48}", "com10"] {
            check(Slugger.slug(name), base: Slugger.slug(name))
        }
        check("\u{F900}", base: "\u{8C48}")  // canonically the same text, in other bytes
        #expect(!Slugger.fits("index", base: "index", fallback: "person"))
        #expect(Slugger.fits("amy", base: "amy", fallback: "person"))
        await propertyCheck(count: 2_000, input: Self.names) { name in
            let base = Slugger.slug(name)
            check(base, base: base)
            check(base + "-3f2a9c", base: base)
        }
    }

    @Test func plainNamesGetTheSlugOfTheLongWay() async {
        let ranges: [ClosedRange<UInt32>] = [0x00...0x7F, 0x3400...0x4DBF, 0x4E00...0x9FFF]
        for value in ranges.joined() {
            let name = "A" + String(Unicode.Scalar(value)!) + "b"
            #expect(Slugger.slug(name) == Slugger.normalizedSlug(name), "U+\(String(value, radix: 16))")
            let slug = Slugger.slug(name)
            #expect(Slugger.caseFolded(slug) == slug.uppercased().lowercased(), "U+\(String(value, radix: 16))")
        }
        await propertyCheck(count: 2_000, input: Self.names) { name in
            #expect(Slugger.slug(name) == Slugger.normalizedSlug(name), "\(name.debugDescription)")
            let slug = Slugger.slug(name)
            #expect(Slugger.caseFolded(slug) == slug.uppercased().lowercased(), "\(slug.debugDescription)")
        }
    }

    @Test func slugsAreUniqueSafeAndStable() {
        let names = ["Amy!", "amy?", "..", "/", "", "CON", "index", String(repeating: "長", count: 200), "Amy"]
        let slugs = Slugger.assign(names, fallback: "person")
        #expect(Set(slugs.values).count == names.count)
        for slug in slugs.values {
            #expect(Self.isSafeFileName(slug), "\(slug)")
        }
        #expect(slugs["Amy"] == "amy")
        #expect(slugs["Amy!"] == "amy-\(Slugger.hash("Amy!", length: 6))")
        #expect(slugs["CON"] == "con-\(Slugger.hash("CON", length: 6))")
        #expect(slugs[""] == "person-\(Slugger.hash("", length: 6))")
        #expect(slugs[String(repeating: "長", count: 200)] == String(repeating: "長", count: 48))
        #expect(Slugger.assign(names.reversed(), fallback: "person") == slugs)
    }

    /// The eight names that made the old assignment loop for ever: a base, the base with the
    /// first 6, 8, …, 16 hex digits of a name's hash, and that name, sorted after all of them.
    @Test func theCraftedEightNamesEnd() {
        let last = "x~"
        let hash = Slugger.hash(last, length: 16)
        let crafted = [6, 8, 10, 12, 14, 16].map { "x-\(hash.prefix($0))" }
        let names = ["x"] + crafted + [last]
        let slugs = Slugger.assign(names, fallback: "person")
        // Each crafted name keeps its own slug; the name they imitate gets a counter.
        #expect(slugs == Dictionary(uniqueKeysWithValues: (["x"] + crafted).map { ($0, $0) }).merging([last: "\(crafted[0])-2"]) { $1 })
    }

    /// A name's own slug is never taken by another name's suffixed slug, whatever their order.
    @Test func aPlainSlugWinsOverASuffixedOne() {
        let suffixed = "amy-\(Slugger.hash("Amy!", length: 6))"
        let slugs = Slugger.assign(["Amy", "Amy!", suffixed, "\(suffixed)-2"], fallback: "person")
        #expect(slugs == ["Amy": "amy", suffixed: suffixed, "\(suffixed)-2": "\(suffixed)-2", "Amy!": "\(suffixed)-3"])
    }

    /// Copied to macOS or Windows, `σας` (with a final sigma) and `σασ` would be one file.
    @Test func slugsNeverDifferOnlyInCase() {
        let slugs = Slugger.assign(["σασ", "σας", "straße", "STRASSE"], fallback: "person")
        #expect(slugs["σας"] == "σας")
        #expect(slugs["σασ"] == "σασ-\(Slugger.hash("σασ", length: 6))")
        #expect(slugs["STRASSE"] == "strasse")
        #expect(slugs["straße"] == "straße-\(Slugger.hash("straße", length: 6))")
    }

    /// A name of 4-byte characters: the longest slug with a suffix and `.html` is under 255 bytes.
    @Test func theLongestFileNameFitsInLinuxLimit() {
        let wide = String(repeating: "𠀀", count: 100)
        let slugs = Slugger.assign([wide, wide + "!"], fallback: "person")
        #expect(slugs[wide] == String(repeating: "𠀀", count: 48))
        let suffixed = try! #require(slugs[wide + "!"])
        #expect(suffixed.utf8.count == 48 * 4 + 7)
        for slug in slugs.values { #expect(Self.isSafeFileName(slug)) }
    }

    @Test func generatedCollidingNamesGetDistinctSafeSlugsInAnyOrder() async {
        await propertyCheck(count: 300, input: Self.collidingNames) { names, shuffled in
            let slugs = Slugger.assign(names, fallback: "group")
            #expect(Set(slugs.keys) == Set(names))
            #expect(Set(slugs.values.map(Slugger.caseFolded)).count == slugs.count, "\(slugs)")
            for slug in slugs.values { #expect(Self.isSafeFileName(slug), "\(slug)") }
            #expect(Slugger.assign(shuffled, fallback: "group") == slugs)
        }
    }

    /// Up to 40 names, many making the same slug, some equal to others' suffixed slugs (with and
    /// without counters, in other cases), reserved, empty or punctuation only; and the same names shuffled.
    static let collidingNames = Generator<([String], [String]), Shrink.None<([String], [String])>> { rng in
        let pool = [
            "amy", "Amy", "AMY!", "amy?", " amy ", "Ämy", "ämy", "a-my", "a my", "straße", "STRASSE", "σασ", "σας", "ΣΑΣ",
            "con", "CON", "Nul", "index", "INDEX!", "lpt1", "com9", "group", "Group!",
            "", "...", "..", "/", "!!!", "-", "   ", "\u{1B}[2J", "\u{202E}", "../..",
            String(repeating: "長", count: 60), String(repeating: "𠀀", count: 60), String(repeating: "a", count: 300),
        ]
        let letters = Array("aAm-!. 1長")
        var names: [String] = []
        for _ in 0..<Int.random(in: 0...40, using: &rng) {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                names.append(pool.randomElement(using: &rng)!)
            case 4..<7 where !names.isEmpty:
                // Another name's suffixed slug, perhaps with a counter, perhaps in upper case.
                let other = names.randomElement(using: &rng)!
                let base = Slugger.slug(other)
                var slug = "\(base.isEmpty ? "group" : base)-\(Slugger.hash(other, length: 6))"
                if Bool.random(using: &rng) { slug += "-\(Int.random(in: 2...4, using: &rng))" }
                names.append(Bool.random(using: &rng) ? slug.uppercased() : slug)
            default:
                names.append(String((0..<Int.random(in: 0...6, using: &rng)).map { _ in letters.randomElement(using: &rng)! }))
            }
        }
        return (names, names.shuffled(using: &rng))
    }

    /// A name every file system accepts as a file of its own inside the folder: no separator, no
    /// dot (no `..`, hidden file or extension), no control or format character, no device name, and
    /// at most 255 bytes with `.html`.
    static func isSafeFileName(_ slug: String) -> Bool {
        !slug.isEmpty && !slug.hasPrefix("-") && (slug + ".html").utf8.count <= 255
            && !Slugger.reserved.contains(Slugger.caseFolded(slug))
            && slug.unicodeScalars.allSatisfy { scalar in
                scalar == "-" || scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
                    || scalar.properties.generalCategory == .nonspacingMark
            }
    }
}
