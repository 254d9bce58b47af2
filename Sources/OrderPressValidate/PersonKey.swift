import Foundation
import OrderPressSupport

/// How people are told apart (docs/configuration.md, One person, one page): the normalised name (`Text.normalize`) compared
/// case-insensitively, with width folded (NFKC: `Ｋｅｎ` is Ken, `ﾔﾏﾀﾞ` is ヤマダ) and spaces ignored
/// (`伊藤 健` is `伊藤健`). Every place that keys people — aggregation, slugs, the diff's news, rejected
/// rows on person pages, tombstones, the organiser's settlement and archives — makes its key here, so
/// no two rules can drift apart.
public struct PersonKey: Hashable, Comparable, Sendable {
    /// The folded text: what is hashed, compared, sorted by and stored (`PageSlugs`).
    public let text: String

    /// The key of a name (normalised text, as every cell is).
    public init(_ name: String) {
        text = Self.fold(name)
    }

    /// A key already folded (one read back from the state, or made by `fold`).
    package init(folded: String) {
        text = folded
    }

    public static let none = PersonKey(folded: "")

    public var isEmpty: Bool { text.isEmpty }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.text < rhs.text }

    /// The folded text of `name`. Every order's person comes here: a name of ASCII and of the CJK and
    /// Hangul blocks (which neither NFKC nor case mapping changes) is folded byte by byte, and one
    /// that is already folded is returned as it is; only other names take Unicode's tables.
    static func fold(_ name: String) -> String {
        switch Text.withUTF8(name, scan(utf8:)) {
        case .folded: return name
        case .ascii:
            return String(unsafeUninitializedCapacity: name.utf8.count) { out in
                var count = 0
                for byte in name.utf8 where byte != 0x20 {
                    out[count] = byte &- 0x41 < 26 ? byte &+ 0x20 : byte
                    count += 1
                }
                return count
            }
        case .other: return foldedSlowly(name)
        }
    }

    /// What folding `name` changes: nothing, only ASCII bytes (capitals, spaces), or possibly more.
    private enum Change { case folded, ascii, other }

    private static func scan(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Change {
        var change = Change.folded
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                if lead == 0x20 || lead &- 0x41 < 26 { change = .ascii }
                index += 1
                continue
            }
            // Only three-byte scalars are in the blocks kept (U+3001 to U+D7A3).
            guard lead >= 0xE0, lead < 0xF0, index + 2 < bytes.count else { return .other }
            let scalar = UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
            guard isStable(scalar) else { return .other }
            index += 3
        }
        return change
    }

    /// Scalars that NFKC and case mapping leave alone, in the scripts most sheets are written in
    /// (`PersonKeyTests` checks every one against Foundation's mappings).
    static func isStable(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x3001...0x3035, 0x3041...0x3096, 0x30A1...0x30FE, 0x4E00...0x9FFF, 0xAC00...0xD7A3: return true
        default: return false
        }
    }

    /// NFKC, lower case, NFKC again (lower-casing may leave a composable sequence), whitespace dropped.
    @inline(never)
    private static func foldedSlowly(_ name: String) -> String {
        let folded = Text.normalize(name).precomposedStringWithCompatibilityMapping.lowercased().precomposedStringWithCompatibilityMapping
        var result = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars where !scalar.properties.isWhitespace { result.append(scalar) }
        return String(result)
    }

    /// Whether the two keys are one edit apart (one letter inserted, dropped, changed, or two
    /// neighbours swapped), by Unicode scalars: an organiser written almost as an orderer ("did you mean …").
    func isOneEdit(from other: PersonKey) -> Bool {
        // What is left of each once their common start and end are taken off, walked in place: arrays of
        // both keys' scalars, made for every row of a group whose organiser nobody matched, were a cost of every run.
        let (a, b) = (text.unicodeScalars, other.text.unicodeScalars)
        var (i, j) = (a.startIndex, b.startIndex)
        while i < a.endIndex, j < b.endIndex, a[i] == b[j] {
            a.formIndex(after: &i)
            b.formIndex(after: &j)
        }
        var (k, l) = (a.endIndex, b.endIndex)
        while k > i, l > j {
            let (previousA, previousB) = (a.index(before: k), b.index(before: l))
            guard a[previousA] == b[previousB] else { break }
            (k, l) = (previousA, previousB)
        }
        // Counted up to three: more is no single edit.
        func count(_ scalars: String.UnicodeScalarView, _ from: String.Index, _ to: String.Index) -> Int {
            var (index, count) = (from, 0)
            while index < to, count < 3 {
                scalars.formIndex(after: &index)
                count += 1
            }
            return count
        }
        switch (count(a, i, k), count(b, j, l)) {
        // One changed, inserted or dropped.
        case (1, 1), (1, 0), (0, 1): return true
        // Two neighbours swapped.
        case (2, 2): return a[i] == b[b.index(after: j)] && a[a.index(after: i)] == b[j]
        default: return false
        }
    }
}
