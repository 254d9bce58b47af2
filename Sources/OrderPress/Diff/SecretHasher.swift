import Crypto
import Foundation

/// Salted SHA-256 of secret cell values: enough to notice that an edit code changed, never to store it.
struct SecretHasher: Sendable {
    let salt: String

    /// A new random salt, for a state folder that has none yet.
    static func newSalt() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.lowercase((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Stands for a secret that this run could not see: a cached copy of a sheet keeps secrets
    /// masked, so a build from it knows nothing new about them.
    static let unknown = "?"

    func hash(_ value: SecretValue) -> String {
        guard !value.text.isEmpty else { return "" }
        if value.isUnknown { return Self.unknown }
        return Hex.lowercase(SHA256.hash(data: Data((salt + "\u{0}" + value.text).utf8)))
    }
}
