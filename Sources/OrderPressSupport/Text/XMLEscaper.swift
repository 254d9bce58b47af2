/// Escaping for text and attribute values in the XML that OrderPress writes (SVG charts, the Atom
/// feed) and in the HTML layout, per Unicode scalar.
package enum XMLEscaper {
    package static func escape(_ text: String) -> String {
        // Most names and amounts need nothing: they are given back without being rebuilt scalar by scalar.
        guard needsEscaping(text) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            // Allowed in XML, and the feed's content is lines of text.
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            // Noncharacters, which XML 1.0 does not allow.
            case "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            // Controls (most of which XML 1.0 does not allow, even escaped) and invisible format
            // characters are shown as on the pages and in a terminal: `\u{1}`, `\u{202E}`.
            case _ where TerminalEscaper.needsEscape(scalar): result += TerminalEscaper.escape(String(scalar))
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `escape(text)` as UTF-8, appended.
    package static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: escape(text).utf8)
    }

    /// False when `escape` would give the text back unchanged.
    private static func needsEscaping(_ text: String) -> Bool {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&", "<", ">", "\"", "'", "\u{FFFE}", "\u{FFFF}": return true
            case "\t", "\n", "\r": continue
            case _ where TerminalEscaper.needsEscape(scalar): return true
            default: continue
            }
        }
        return false
    }
}
