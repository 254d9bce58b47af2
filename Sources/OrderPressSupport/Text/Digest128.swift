import Crypto

/// The first 16 bytes of a SHA-256, held as two big-endian words: what a file piece's key (`PieceKey`),
/// a snapshot record's digest (`RecordDigest`) and a row identity's key (`IdentityKey`) each are.
/// SHA-256 because a collision would hide a change or pair two different orders; 128 bits because no
/// sheet's edits will collide in them, and half the size keeps a million of them small.
///
/// `bytes` are the 16 bytes the state database and the publish manifest keep: they must stay as they are.
package struct Digest128: Hashable, Sendable {
    package var high: UInt64
    package var low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The first 16 bytes of the SHA-256 of `data`.
    package init(sha256Of data: UnsafeRawBufferPointer) {
        self.init(SHA256.hash(data: data))
    }

    /// The first 16 bytes of `digest`.
    package init(_ digest: SHA256.Digest) {
        self = digest.withUnsafeBytes { Self(bytes: UnsafeRawBufferPointer(rebasing: $0.prefix(16)))! }
    }

    /// The first 16 of `bytes`, which hold at least 16.
    package init(prefixOf bytes: some Collection<UInt8>) {
        precondition(bytes.count >= 16, "a 128-bit digest from fewer than 16 bytes")
        var words = (UInt64(0), UInt64(0))
        for (index, byte) in bytes.prefix(16).enumerated() {
            if index < 8 { words.0 = words.0 << 8 | UInt64(byte) } else { words.1 = words.1 << 8 | UInt64(byte) }
        }
        (high, low) = words
    }

    /// Nil unless exactly 16 bytes.
    package init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        self.init(
            high: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
            low: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }

    /// The 16 bytes, big-endian.
    package var bytes: [UInt8] { withBytes(Array.init) }

    /// The 16 bytes, without an array for them.
    package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(of: (high.bigEndian, low.bigEndian), body)
    }

    /// The 16 bytes in lower-case hex.
    var hex: String { withBytes(Hex.lowercase) }

    /// Two words of a SHA-256, already uniform: one is hash enough.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(low)
    }
}
