/// Texts with control characters and escapes (`PrettyJSONWriterTests`, manifests in `ManifestReaderTests`).
package enum PrettyJSONText {
    /// Text made of what JSON escapes and what it doesn't: every control character, quotes,
    /// backslashes, slashes, DEL, CJK, emoji, U+2028.
    package static func text(_ rng: inout some RandomNumberGenerator) -> String {
        let pieces = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
            + ["\"", "\\", "/", "\u{7F}", "a", "Z", " ", "熟成紅茶", "🧋", "\u{2028}", "é", "{", "]", ":"]
        return (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }
}
