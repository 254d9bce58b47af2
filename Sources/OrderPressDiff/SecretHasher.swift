import Crypto
import Foundation
import OrderPressSupport
import OrderPressValidate

/// Keyed hashes of secret cell values: enough to notice that an edit code changed, never to store it.
///
/// HMAC-SHA-256 with the state folder's random key (`SecretKey`), kept in a file of its own, never in
/// the database: a copy of `state.sqlite` alone cannot confirm a guess (a four-digit code is 10,000
/// guesses). States made before keep SHA-256 of a salt stored beside the hashes (`init(salt:)`), which
/// is read only to compare the first run after the upgrade, then replaced (`DiffStep`).
struct SecretHasher: Sendable {
    /// What the snapshot's `salt` field says for keyed hashes; any other value is an older state's salt.
    static let keyedMarker = "hmac-sha256:secret.key"

    let salt: String
    /// The salt and its separator, fed to the hash before each value (an older state's hashes).
    private let prefix: [UInt8]
    /// swift-crypto's HMAC with the key already fed, copied for each value: no key schedule per secret
    /// cell of every row. Never mutated: each hash works on a copy (a value), so sharing it between the
    /// diff's threads is sound.
    nonisolated(unsafe) private let keyed: HMAC<SHA256>?

    init(salt: String) {
        self.salt = salt
        prefix = Array((salt + "\u{0}").utf8)
        keyed = nil
    }

    init(key: [UInt8]) {
        salt = Self.keyedMarker
        prefix = []
        keyed = HMAC<SHA256>(key: SymmetricKey(data: key))
    }

    var isKeyed: Bool { keyed != nil }

    /// A new random salt (for tests of older states).
    static func newSalt() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.lowercase((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    func hash(_ value: SecretValue) -> SecretHash {
        guard !value.text.isEmpty else { return .empty }
        if value.isUnknown { return .unknown }
        var text = value.text
        if var keyed {
            text.withUTF8 { keyed.update(data: UnsafeRawBufferPointer($0)) }
            return .sha256(ContentDigest(keyed.finalize()))
        }
        var hash = SHA256()
        prefix.withUnsafeBytes { hash.update(bufferPointer: $0) }
        text.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return .sha256(ContentDigest(hash.finalize()))
    }
}
