import OrderPressSupport

/// A secret cell as a snapshot record keeps it (`SecretHasher`): empty, unknown, or its salted SHA-256 —
/// held as its 32 bytes (`ContentDigest`), written as its 64 lowercase hex digits wherever it is stored
/// (the state, the history, record digests), as before.
///
/// As text, two of them a row were a quarter of a gigabyte at a million rows (a String of 64 digits each,
/// and the array of them); as bytes they live inside the row's one array.
public enum SecretHash: Sendable, Equatable {
    /// An empty cell.
    case empty
    /// A secret this run could not see: a cached copy of a sheet keeps secrets masked.
    case unknown
    /// The salted SHA-256.
    case sha256(ContentDigest)
    /// Any other text a state holds (no version wrote one; kept as read, never lost).
    case other(String)

    /// What each case is written as: "", "?", the digits, the text.
    public init(text: String) {
        if text.isEmpty {
            self = .empty
        } else if text == Self.unknownText {
            self = .unknown
        } else if let digest = ContentDigest(hex: text) {
            self = .sha256(digest)
        } else {
            self = .other(text)
        }
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
        case .sha256: ContentDigest.hexLength
        case .other(let text): text.utf8.count
        }
    }

    /// `text`'s bytes, the digits written on the stack: a save and a record's digest read every row's.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch self {
        case .empty: body(UnsafeBufferPointer(start: nil, count: 0))
        case .unknown: Text.withUTF8(Self.unknownText, body)
        case .other(let text): Text.withUTF8(text, body)
        case .sha256(let digest): digest.withHexDigits(body)
        }
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
