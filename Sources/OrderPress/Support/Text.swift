import Foundation

/// Normalisation of user text: Unicode NFC, trimmed, inner whitespace collapsed to one space.
enum Text {
    static func normalize(_ raw: String) -> String {
        if isAlreadyNormal(raw) { return raw }
        let composed = raw.precomposedStringWithCanonicalMapping
        var result = ""
        result.reserveCapacity(composed.utf8.count)
        var pendingSpace = false
        for scalar in composed.unicodeScalars {
            if scalar.properties.isWhitespace || scalar == "\u{0}" {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.unicodeScalars.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Fast path for the common case: printable ASCII with single inner spaces.
    private static func isAlreadyNormal(_ s: String) -> Bool {
        var previousWasSpace = true
        for byte in s.utf8 {
            guard byte >= 0x20, byte < 0x7F else { return false }
            if byte == 0x20 {
                if previousWasSpace { return false }
                previousWasSpace = true
            } else {
                previousWasSpace = false
            }
        }
        return !previousWasSpace || s.isEmpty
    }

    /// Shortens `text` to at most `limit` characters for summary pages, marking the cut with an ellipsis.
    static func shortened(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }
}
