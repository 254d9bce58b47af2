import Crypto
import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressOutput
@testable import OrderPressValidate
@testable import OrderPressDiff
import OrderPressTestSupport

/// The one 128-bit digest behind a piece key, a record digest and an identity key: its 16 bytes are
/// the first 16 of the SHA-256, big-endian, as the state database and the manifest keep them.
@Suite struct Digest128Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb924"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223"),
        ("週五下午茶", String(Hex.lowercase(Array(SHA256.hash(data: Data("週五下午茶".utf8)))).prefix(32))),
    ])
    func isTheFirstSixteenBytesOfTheSHA256(text: String, hex: String) {
        let digest = Array(text.utf8).withUnsafeBytes { Digest128(sha256Of: $0) }
        #expect(digest.hex == hex)
        #expect(Hex.lowercase(digest.bytes) == hex)
        #expect(Digest128(SHA256.hash(data: Data(text.utf8))) == digest)
        #expect(Digest128(prefixOf: Array(SHA256.hash(data: Data(text.utf8)))) == digest)
    }

    @Test func readsBackTheBytesItWrites() {
        let digest = Digest128(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210)
        #expect(digest.hex == "0123456789abcdeffedcba9876543210")
        #expect(digest.bytes.withUnsafeBytes { Digest128(bytes: $0) } == digest)
        #expect(Array(repeating: UInt8(0), count: 15).withUnsafeBytes { Digest128(bytes: $0) } == nil)
        #expect(Array(repeating: UInt8(0), count: 17).withUnsafeBytes { Digest128(bytes: $0) } == nil)
    }

    /// The three keys built on it keep the bytes they always stored.
    @Test func theKeysKeepTheirBytes() {
        let bytes = (0..<16).map { UInt8($0 * 17) }
        #expect(PieceKey(bytes).bytes == bytes)
        #expect(bytes.withUnsafeBytes { RecordDigest(bytes: $0) }?.bytes == bytes)
        let key = IdentityKey("content:a=b")
        #expect(key.value == Array("content:a=b".utf8).withUnsafeBytes { Digest128(sha256Of: $0) })
    }
}
