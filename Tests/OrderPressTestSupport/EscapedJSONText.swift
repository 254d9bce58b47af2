/// Texts with JSON's escapes (`JSONEscaperTests`, manifests in `ManifestReaderTests`).
package enum EscapedJSONText {
    /// Text with nothing to escape (half the time) or with any of what JSON escapes, as paths, keys and
    /// cells are.
    package static func text(_ rng: inout some RandomNumberGenerator) -> String {
        let plain = ["a", "Z", " ", "/", "\u{7F}", "熟成紅茶", "🧋", "\u{2028}", "é", "{", "-", "0"]
        let escaped = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + ["\"", "\\"]
        let pieces = Bool.random(using: &rng) ? plain : plain + escaped
        return (0..<Int.random(in: 0...16, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }
}
