import Foundation

/// Normalisation of user text: invisible characters removed, Unicode NFC, trimmed, inner whitespace
/// collapsed to one space. People and groups are identified by this text, so nothing a reader cannot
/// see may tell two of them apart, and no cell may reorder the text around it (bidi controls).
public enum Text {
    /// `text`'s UTF-8 in place: a native String's own storage, without the copy `withUTF8` on a
    /// `var` copy may make.
    @inlinable
    public static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = text
        return text.withUTF8(body)
    }

    package static func normalize(_ raw: String) -> String {
        isAlreadyNormal(raw) ? raw : normalizedSlowly(raw)
    }

    /// `normalize` of a text the fast check turned down. Not inlined: as part of `normalize`, its setup
    /// (Unicode property metadata, the scalar view) ran for every cell, normal ones too.
    @inline(never)
    private static func normalizedSlowly(_ raw: String) -> String {
        // Invisible characters go first, so that marks they separated compose ("e", U+200B, U+0301 → "é").
        let scalars = raw.unicodeScalars
        var visible = String.UnicodeScalarView()
        var pendingSpace = false
        var needsComposing = false
        var previous: Unicode.Scalar?
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            index = scalars.index(after: index)
            if !isPlain(scalar) {
                if scalar.properties.isWhitespace {
                    pendingSpace = !visible.isEmpty
                    previous = nil
                    continue
                }
                let next = index < scalars.endIndex ? scalars[index] : nil
                if isInvisible(scalar), !keepsInvisible(scalar, after: previous, before: next) { continue }
                needsComposing = true
            }
            if pendingSpace { visible.append(" ") }
            pendingSpace = false
            visible.append(scalar)
            previous = scalar
        }
        let text = String(visible)
        return needsComposing ? text.precomposedStringWithCanonicalMapping : text
    }

    /// Scalars of the scripts most sheets are written in that are visible, not whitespace, and already
    /// in NFC whatever follows them (no combining marks): the text needs no more look than this.
    /// Keeps a mostly-CJK sheet off the slow path; anything else asks the Unicode properties.
    @inline(__always)
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool { isPlain(value: scalar.value) }

    @inline(__always)
    private static func isPlain(value: UInt32) -> Bool {
        switch value {
        case 0x21...0x7E, 0xA1...0xAC, 0xAE...0x2FF, 0x3001...0x3029, 0x3041...0x3096, 0x309B...0x30FF,
            0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF9F:
            return true
        default:
            return false
        }
    }

    /// Control characters (other than whitespace, handled before), format characters (category Cf:
    /// bidi controls, zero-width space, word joiner, BOM, soft hyphen, tags…) and the other default-ignorable
    /// code points (variation selectors, Hangul fillers, combining grapheme joiner): nothing a reader sees.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .format: return true
        default: return properties.isDefaultIgnorableCodePoint
        }
    }

    /// The invisible characters that are part of something visible: the zero-width joiner between two
    /// emoji (👩‍💻), a variation selector after an emoji or an ideograph (❤️, 葛󠄀), and the tags
    /// after a black flag that spell a subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
    private static func keepsInvisible(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?, before next: Unicode.Scalar?) -> Bool {
        guard let previous else { return false }
        switch scalar.value {
        case 0x200D:
            // Only before a scalar that stays: a joiner before a dropped selector would end the text.
            guard let next, !isInvisible(next) else { return false }
            return isEmoji(previous) && isEmoji(next)
        case 0xFE00...0xFE0F, 0xE0100...0xE01EF:
            return isEmoji(previous) || previous.properties.isIdeographic || (previous.isASCII && previous.properties.isEmoji)
        case 0xE0020...0xE007F:
            return previous == "\u{1F3F4}" || (0xE0020...0xE007E).contains(previous.value)
        default:
            return false
        }
    }

    /// An emoji scalar, or a modifier or selector inside an emoji sequence; digits, `#` and `*` (which
    /// Unicode counts as emoji for keycaps) are not, so that no joiner survives between plain letters.
    private static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isASCII && (scalar.properties.isEmoji || scalar.value == 0xFE0F || scalar.value == 0x20E3)
    }

    /// Fast path for the common case: printable ASCII, or text of the scripts `isPlain` knows (a CJK
    /// name, say), with single inner ASCII spaces: nothing to drop, collapse or compose, so no new string
    /// is built. One pass over the UTF-8 bytes, decoded in place: every cell of every row comes here,
    /// and going through `unicodeScalars` cost more than the rest of the check.
    static func isAlreadyNormal(_ s: String) -> Bool {
        s.utf8.withContiguousStorageIfAvailable(isAlreadyNormal(utf8:)) ?? isPlainText(s)
    }

    /// `isPlainText` of the (valid) UTF-8 of a string.
    private static func isAlreadyNormal(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previousWasSpace = true
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            // Printable ASCII other than the space, the most common byte, decides nothing: skip it
            // before decoding and the range switch of `isPlain`.
            if lead &- 0x21 < 0x5E {
                previousWasSpace = false
                index += 1
                continue
            }
            let scalar: UInt32
            if lead < 0x80 {
                scalar = UInt32(lead)
                index += 1
            } else if lead < 0xE0 {
                scalar = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                index += 2
            } else if lead < 0xF0 {
                scalar = UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                index += 3
            } else {
                return false  // beyond U+FFFF: nothing `isPlain` knows
            }
            if scalar == 0x20 {
                if previousWasSpace { return false }
                previousWasSpace = true
            } else {
                guard isPlain(value: scalar) else { return false }
                previousWasSpace = false
            }
        }
        return !previousWasSpace || bytes.isEmpty
    }

    /// `isAlreadyNormal` scalar by scalar: for a string whose bytes are not at hand, and what the tests
    /// hold the byte-wise check to.
    static func isPlainText(_ s: String) -> Bool {
        var previousWasSpace = true
        for scalar in s.unicodeScalars {
            if scalar == " " {
                if previousWasSpace { return false }
                previousWasSpace = true
            } else {
                guard isPlain(scalar) else { return false }
                previousWasSpace = false
            }
        }
        return !previousWasSpace || s.isEmpty
    }

    /// `text.lowercased()`, without Unicode's case tables when the only letters with case are ASCII
    /// (a CJK name, or one with a Latin part): `lowercased()` is costly for each
    /// such name, and every order's person is folded. The scripts below have no case at all.
    package static func lowercased(_ text: String) -> String {
        switch text.utf8.withContiguousStorageIfAvailable(caseOf(utf8:)) ?? caseOfScalars(text) {
        case .lower: return text
        case .asciiUpper:
            // ASCII bytes never occur inside a multi-byte sequence: only the letters A–Z change. Written
            // straight into the string: an array of the bytes, then a string of it, for every person's name.
            return String(unsafeUninitializedCapacity: text.utf8.count) { out in
                var count = 0
                for byte in text.utf8 {
                    out[count] = byte &- 0x41 < 26 ? byte &+ 0x20 : byte
                    count += 1
                }
                return count
            }
        case .other: return text.lowercased()
        }
    }

    /// What lowercasing a text changes: nothing (no upper-case letter), only ASCII letters (every scalar
    /// is ASCII or CJK, which has no case), or possibly more (Foundation's rules then).
    enum CaseFolding: Equatable {
        case lower, asciiUpper, other
    }

    /// `CaseFolding` scalar by scalar: for a string whose bytes are not at hand, and what the tests hold
    /// the byte-wise reading to.
    static func caseOfScalars(_ text: String) -> CaseFolding {
        var upper = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A: upper = true
            case 0x00...0x7F, 0x3000...0x303F, 0x3041...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3: continue
            default: return .other
            }
        }
        return upper ? .asciiUpper : .lower
    }

    /// `caseOfScalars` of the (valid) UTF-8 of a string, decoding it here: the scalar view's iteration
    /// was costly for a person's name on every row.
    static func caseOf(utf8 bytes: UnsafeBufferPointer<UInt8>) -> CaseFolding {
        var upper = false
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                if lead &- 0x41 < 26 { upper = true }
                index += 1
                continue
            }
            // Every range kept is of three-byte scalars (U+3000 to U+D7A3); anything shorter or longer is other.
            guard lead >= 0xE0, lead < 0xF0, index + 2 < bytes.count else { return .other }
            let scalar = UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
            switch scalar {
            case 0x3000...0x303F, 0x3041...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3: index += 3
            default: return .other
            }
        }
        return upper ? .asciiUpper : .lower
    }

    /// Shortens `text` to at most `limit` characters for summary pages, marking the cut with an ellipsis.
    package static func shortened(_ text: String, to limit: Int) -> String {
        // Counting characters means finding grapheme breaks; no more bytes than the limit is no more characters.
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }
}
