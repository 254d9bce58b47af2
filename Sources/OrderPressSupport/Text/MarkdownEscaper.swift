/// Escapes user text so that, inside Markdown (table cells included), it can only ever be text:
/// no table break, link, emphasis, code span or HTML.
public enum MarkdownEscaper {
    public static func escape(_ text: String) -> String {
        // Most names and items have nothing to escape: they come back as they are, without a copy.
        guard needsWork(text) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 8)
        escapeScalars(of: text, into: &result)
        return String(decoding: result, as: UTF8.self)
    }

    /// `body` on the UTF-8 of `escape(text)`: the text's own bytes when there is nothing to
    /// escape. The built-in pages write user text this way, without a string of its own.
    @inlinable
    public static func withEscaped<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = text
        if let result = text.withUTF8({ isClean($0) ? body($0) : nil }) { return result }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 8)
        escapeScalars(of: text, into: &escaped)
        return escaped.withUnsafeBufferPointer(body)
    }

    private static func needsWork(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { !isClean($0) }
    }

    /// Whether `escape` leaves the text as it is, `needsWork` of each scalar, read off the UTF-8
    /// (which a `String` holds valid): ASCII bytes as they are, only other scalars decoded.
    @usableFromInline
    static func isClean(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x80 {
                if needsWork(Unicode.Scalar(byte)) { return false }
                index += 1
                continue
            }
            let length = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            var value = UInt32(byte) & (0x7F >> length)
            for offset in 1..<length { value = value << 6 | UInt32(utf8[index + offset] & 0x3F) }
            guard let scalar = Unicode.Scalar(value), !TerminalEscaper.needsEscape(scalar) else { return false }
            index += length
        }
        return true
    }

    @usableFromInline
    static func escapeScalars(of text: String, into result: inout [UInt8]) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t", "\u{0B}", "\u{0C}":
                result.append(UInt8(ascii: " "))
            case "\u{0}":
                UTF8.encode("\u{FFFD}") { result.append($0) }
            case _ where TerminalEscaper.needsEscape(scalar):
                // Shown as `\u{1B}`, `\u{202E}`: raw, an escape sequence in the committed Markdown
                // drives the terminal of whoever runs `git log -p` or `cat`, and a bidi override
                // reverses the rest of the row. The raw values of rejected rows reach here as they are.
                escapeScalars(of: TerminalEscaper.escape(String(scalar)), into: &result)
            default:
                if scalar.isASCII, isPunctuation(UInt8(scalar.value)) {
                    result.append(UInt8(ascii: "\\"))
                }
                UTF8.encode(scalar) { result.append($0) }
            }
        }
    }

    /// Whether `escape` changes the scalar: a control, an invisible or reordering character, or punctuation.
    private static func needsWork(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return TerminalEscaper.needsEscape(scalar) }
        let byte = UInt8(scalar.value)
        return byte < 0x20 || byte == 0x7F || isPunctuation(byte)
    }

    /// CommonMark's ASCII punctuation, less the few marks that mean nothing to cmark-gfm
    /// anywhere on a line (without the smart-punctuation option): `"` `%` `'` `,` `/` `;` `?`.
    /// Leaving those bare keeps the committed Markdown readable.
    private static func isPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x22, 0x25, 0x27, 0x2C, 0x2F, 0x3B, 0x3F: return false
        default:
            return (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte)
                || (0x7B...0x7E).contains(byte)
        }
    }
}
