import Crypto
import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

@Suite struct ContentDigestTests {
    static let contents = Generator<[UInt8], Shrink.None<[UInt8]>> { rng in
        (0..<Int.random(in: 0...200, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// Read from its hex digits (as the manifest reader reads them), a digest is the one they were written from.
    @Test func readsItsOwnHexDigits() async {
        await propertyCheck(count: 200, input: Self.contents) { bytes in
            let digest = ContentDigest(of: Data(bytes))
            let hex = digest.description
            #expect(hex.count == 64)
            #expect(ContentDigest(hex: hex) == digest)
            #expect(Array(hex.utf8).withUnsafeBytes { ContentDigest(hexDigits: $0) } == digest)
            #expect(hex == SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined())
        }
    }

    /// Exactly 64 lowercase hex digits, nothing else.
    @Test(arguments: [
        String(repeating: "0", count: 63),
        String(repeating: "0", count: 65),
        String(repeating: "A", count: 64),
        String(repeating: "0", count: 63) + "g",
        String(repeating: "0", count: 63) + " ",
        "",
    ])
    func refusesWhatIsNotADigest(hex: String) {
        #expect(ContentDigest(hex: hex) == nil)
    }
}
