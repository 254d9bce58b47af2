/// Escaping for text and attribute values in the XML that OrderPress writes (SVG charts, the Atom
/// feed) and in the HTML layout, per Unicode scalar.
enum XMLText {
    static func escape(_ text: String) -> String {
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
            case _ where TerminalText.needsEscape(scalar): result += TerminalText.escape(String(scalar))
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
