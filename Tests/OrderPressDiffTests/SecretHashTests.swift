import Crypto
import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressDiff
import OrderPressTestSupport

/// A secret's hash is held as bytes and written as the text every state and history already holds.
@Suite struct SecretHashTests {
    /// Texts a record's secrets may be: empty, unknown, real digests, and anything else a state could hold.
    static func texts(using rng: inout some RandomNumberGenerator) -> [String] {
        (0..<Int.random(in: 0...3, using: &rng)).map { _ in
            switch Int.random(in: 0...5, using: &rng) {
            case 0: ""
            case 1: "?"
            case 2: "ab12"
            // 64 digits but not all lowercase hex: kept as text.
            case 3: String(repeating: "A", count: 64)
            default: Hex.lowercase((0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })
            }
        }
    }

    static func hashes(using rng: inout some RandomNumberGenerator) -> [SecretHash] {
        texts(using: &rng).map(SecretHash.init(text:))
    }

    @Test func aHashIsWrittenAsTheTextItWasReadFrom() async {
        let lists = Generator<[String], Shrink.None<[String]>> { rng in Self.texts(using: &rng) }
        await propertyCheck(count: 300, input: lists) { texts in
            let hashes = texts.map(SecretHash.init(text:))
            #expect(hashes.map(\.text) == texts)
            #expect(hashes.map(\.utf8Count) == texts.map(\.utf8.count))
            #expect(hashes.map { $0.withUTF8 { Array($0) } } == texts.map { Array($0.utf8) })
            var bytes: [UInt8] = []
            ListText.append(hashes, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == ListText.encode(texts))
            let json = try? JSONEncoder().encode(hashes)
            #expect(json == (try? JSONEncoder().encode(texts)))
            #expect(json.flatMap { try? JSONDecoder().decode([SecretHash].self, from: $0) } == hashes)
        }
    }

    @Test(arguments: [
        ("", SecretHash.empty),
        ("?", .unknown),
        ("00000000000000010000000000000002000000000000000300000000000000ff", .sha256(ContentDigest(hex: "00000000000000010000000000000002000000000000000300000000000000ff")!)),
        ("0000000000000001000000000000000200000000000000030000000000000FFF", .other("0000000000000001000000000000000200000000000000030000000000000FFF")),
    ])
    func eachTextIsReadAsItsCase(text: String, hash: SecretHash) {
        #expect(SecretHash(text: text) == hash)
        #expect(hash.text == text)
    }

    @Test func aDigestIsReadAsItsBytesInOrder() {
        let data = Data((0..<32).map { UInt8($0 * 7 & 0xFF) })
        #expect(SecretHash.sha256(ContentDigest(of: data)).text == Hex.lowercase(SHA256.hash(data: data)))
    }
}
