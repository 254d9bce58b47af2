/// Text made safe to print to a terminal: every character that a terminal could act on instead of
/// showing is replaced by a visible escape, so that a cell, a header, a path or a server's message
/// can never move the cursor, clear the screen, retitle the window or reorder what follows.
///
/// This is the second line of defence: normalisation removes control characters from cells, but
/// header names, file paths, URLs, error messages and the raw values of rejected rows never pass
/// through it.
public enum TerminalEscaper {
    /// Tab, line feed and carriage return as `\t`, `\n`, `\r`; every other character that is not
    /// shown as itself as `\u{1B}`, `\u{9B}`, `\u{202E}` (upper-case hex, as in Swift source).
    /// A backslash stays as it is: it does nothing to a terminal, and Windows paths stay readable.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return result
    }

    /// C0 and C1 controls and DEL (ESC and CSI start terminal commands), line and paragraph
    /// separators, and invisible format characters (bidi overrides and isolates reorder the rest of
    /// the line; zero-width characters make two different names look alike). The zero-width joiner
    /// and tag characters stay: emoji sequences are made of them and do nothing else.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        // Printable ASCII and the common CJK blocks hold no control, separator or format character
        // (`TerminalEscaperTests` checks every one of them): most text is decided without a property lookup.
        if Self.plainRanges.contains(where: { $0.contains(scalar.value) }) { return false }
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator:
            return true
        case .format:
            return scalar != "\u{200D}" && !("\u{E0020}"..."\u{E007F}").contains(scalar)
        default:
            return false
        }
    }

    /// Printable ASCII, kana, CJK ideographs (and extension A), Hangul syllables.
    static let plainRanges: [ClosedRange<UInt32>] = [0x20...0x7E, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3]
}
