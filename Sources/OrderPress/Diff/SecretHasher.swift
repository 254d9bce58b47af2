import Crypto
import Foundation

/// Salted SHA-256 of secret cell values: enough to notice that an edit code changed, never to store it.
struct SecretHasher: Sendable {
    let salt: String
    /// The salt and its separator, fed to the hash before each value: no `salt + "\0" + value` string
    /// and no `Data` of it for every secret cell of every row.
    private let prefix: [UInt8]

    init(salt: String) {
        self.salt = salt
        prefix = Array((salt + "\u{0}").utf8)
    }

    /// A new random salt, for a state folder that has none yet.
    static func newSalt() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.lowercase((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    func hash(_ value: SecretValue) -> SecretHash {
        guard !value.text.isEmpty else { return .empty }
        if value.isUnknown { return .unknown }
        var hash = SHA256()
        prefix.withUnsafeBytes { hash.update(bufferPointer: $0) }
        var text = value.text
        text.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return .sha256(ContentDigest(hash.finalize()))
    }
}
