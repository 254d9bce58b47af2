import Crypto
import Foundation

/// A SHA-256, held in 32 bytes rather than as 64 characters of text: the manifest keeps one per
/// published file (240,000 at a million orders), a snapshot record one per secret cell (`SecretHash`).
/// Written as lowercase hex.
public struct ContentDigest: Equatable, Sendable, Codable, CustomStringConvertible {
    /// The digest's bytes, big-endian, eight at a time.
    private var words: (UInt64, UInt64, UInt64, UInt64)

    public init(of data: Data) {
        self.init(SHA256.hash(data: data))
    }

    /// 32 bytes: a SHA-256 digest, or an HMAC-SHA-256 code.
    package init(_ digest: some ContiguousBytes) {
        words = digest.withUnsafeBytes { bytes in
            func word(_ index: Int) -> UInt64 { UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) }
            return (word(0), word(1), word(2), word(3))
        }
    }

    public init?(hex: String) {
        var hex = hex
        guard let digest = hex.withUTF8({ Self(hexDigits: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = digest
    }

    /// The number of hex digits of a digest.
    package static var hexLength: Int { 64 }

    /// The digest from exactly 64 lowercase hex digits; nil for anything else. Read from the bytes, with
    /// no String for each (the manifest reader reads one per published file).
    package init?(hexDigits: UnsafeRawBufferPointer) {
        guard hexDigits.count == Self.hexLength else { return nil }
        func word(_ index: Int) -> UInt64? {
            var value: UInt64 = 0
            for byte in hexDigits[(index * 16)..<(index * 16 + 16)] {
                guard let digit = Hex.value(ofDigit: byte) else { return nil }
                value = value << 4 | UInt64(digit)
            }
            return value
        }
        guard let a = word(0), let b = word(1), let c = word(2), let d = word(3) else { return nil }
        words = (a, b, c, d)
    }

    public var description: String {
        var hex: [UInt8] = []
        appendHex(to: &hex)
        return String(decoding: hex, as: UTF8.self)
    }

    /// The 64 lowercase hex digits, appended without a String in between (the manifest writes 240,000).
    package func appendHex(to bytes: inout [UInt8]) {
        withHexDigits { bytes.append(contentsOf: $0) }
    }

    /// The 64 lowercase hex digits, written on the stack.
    package func withHexDigits<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeBytes(of: (words.0.bigEndian, words.1.bigEndian, words.2.bigEndian, words.3.bigEndian)) { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.hexLength) { digits in
                Hex.write(bytes, to: digits.baseAddress!)
                return body(UnsafeBufferPointer(digits))
            }
        }
    }

    public static func == (left: Self, right: Self) -> Bool {
        left.words == right.words
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let digest = Self(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a SHA-256 in hex"))
        }
        self = digest
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
