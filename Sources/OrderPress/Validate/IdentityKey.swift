import Crypto

/// A row's identity (`RowIdentity`) as matching compares it: the first 16 bytes of the SHA-256 of its
/// UTF-8 text. Matching a million rows of a Form (no id column: every identity is a dozen question
/// titles and answers, some 230 bytes) held each identity's text twice, this run's and the last
/// snapshot's: half a gigabyte; keys are 16 bytes, made where the text is (`Identity`, the state's read).
///
/// SHA-256 for the reason `RecordDigest` uses it: two identities that collided would pair two different
/// orders. Every identity is made in one way (`RowIdentity`) from normalised text (`Text.normalize`), so
/// equal identities have equal bytes; were one ever spelt in other bytes, its row would not match by
/// identity and would be paired by group, person and item instead (`LeftoverPairing`): shown as
/// changed, never lost.
struct IdentityKey: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    init(bytes: UnsafeBufferPointer<UInt8>) {
        (high, low) = SHA256.hash(data: UnsafeRawBufferPointer(bytes)).withUnsafeBytes {
            (UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }

    init(_ text: String) {
        self = Text.withUTF8(text) { Self(bytes: $0) }
    }

    /// Two words, already uniform: no need to run them through the whole hash function.
    func hash(into hasher: inout Hasher) {
        hasher.combine(low)
    }
}
