/// A secret cell as a snapshot record keeps it (`SecretHasher`): empty, unknown, or its salted SHA-256 —
/// held as its 32 bytes, written as its 64 lowercase hex digits wherever it is stored (the state, the
/// history, record digests), as before.
///
/// As text, two of them a row were a quarter of a gigabyte at a million rows (a String of 64 digits each,
/// and the array of them); as bytes they live inside the row's one array.
public enum SecretHash: Sendable, Hashable {
    /// An empty cell.
    case empty
    /// A secret this run could not see: a cached copy of a sheet keeps secrets masked.
    case unknown
    /// The salted SHA-256, as four big-endian words.
    case sha256(UInt64, UInt64, UInt64, UInt64)
    /// Any other text a state holds (no version wrote one; kept as read, never lost).
    case other(String)

    /// What each case is written as: "", "?", the digits, the text.
    public init(text: String) {
        if text.isEmpty {
            self = .empty
        } else if text == Self.unknownText {
            self = .unknown
        } else if let words = Self.words(ofDigits: text) {
            self = .sha256(words.0, words.1, words.2, words.3)
        } else {
            self = .other(text)
        }
    }

    /// A digest's 32 bytes.
    init(digest bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count == 32, "a secret's hash is 32 bytes")
        func word(_ offset: Int) -> UInt64 { UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        self = .sha256(word(0), word(8), word(16), word(24))
    }

    static let unknownText = "?"

    public var text: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    var isUnknown: Bool {
        if case .unknown = self { return true }
        return false
    }

    /// How many bytes `text` has, without making it.
    var utf8Count: Int {
        switch self {
        case .empty: 0
        case .unknown: 1
        case .sha256: 64
        case .other(let text): text.utf8.count
        }
    }

    /// `text`'s bytes, the digits written on the stack: a save and a record's digest read every row's.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch self {
        case .empty: return body(UnsafeBufferPointer(start: nil, count: 0))
        case .unknown: return Text.withUTF8(Self.unknownText, body)
        case .other(let text): return Text.withUTF8(text, body)
        case .sha256(let a, let b, let c, let d):
            return withUnsafeBytes(of: (a.bigEndian, b.bigEndian, c.bigEndian, d.bigEndian)) { bytes in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { digits in
                    for (index, byte) in bytes.enumerated() {
                        digits[2 * index] = Self.digit(byte >> 4)
                        digits[2 * index + 1] = Self.digit(byte & 0x0F)
                    }
                    return body(UnsafeBufferPointer(digits))
                }
            }
        }
    }

    @inline(__always) private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
    }

    /// The four words of 64 lowercase hex digits; nil for any other text.
    private static func words(ofDigits text: String) -> (UInt64, UInt64, UInt64, UInt64)? {
        guard text.utf8.count == 64 else { return nil }
        var words: [UInt64] = []
        var word: UInt64 = 0
        for (index, byte) in text.utf8.enumerated() {
            guard let value = Hex.value(ofDigit: byte) else { return nil }
            word = word << 4 | UInt64(value)
            if index % 16 == 15 {
                words.append(word)
                word = 0
            }
        }
        return (words[0], words[1], words[2], words[3])
    }
}

extension SecretHash: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(text: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// Tests and old records spell hashes as text.
extension SecretHash: ExpressibleByStringLiteral {
    public init(stringLiteral text: String) {
        self.init(text: text)
    }
}
