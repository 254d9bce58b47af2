import Foundation
import OrderPressSupport

/// How a large whole-site file (`summary.json`, `orders.csv`) divides into pieces, in order: each
/// piece's length and, for a piece made from known inputs (a group's entry, a thousand orders'
/// rows), a key that digests them. The publish manifest keeps it with the file, so that the next
/// build copies the pieces whose key it finds again from the published file instead of making them.
public struct FilePieces: Sendable, Equatable, Codable {
    /// `Self.stride` bytes a piece: the key (zeros for a piece without one), then the length as a
    /// little-endian UInt32. Packed, so that a million-order site's 110,000 pieces are one string
    /// in the manifest, not 110,000 objects to decode.
    public private(set) var packed: Data

    static let keySize = 16
    static let stride = keySize + 4

    public init() { packed = Data() }

    /// Nil when `packed` is not a whole number of pieces.
    public init?(packed: Data) {
        guard packed.count % Self.stride == 0 else { return nil }
        self.packed = packed
    }

    public init(from decoder: any Decoder) throws {
        let data = try decoder.singleValueContainer().decode(Data.self)
        guard let pieces = Self(packed: data) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a list of file pieces"))
        }
        self = pieces
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(packed)
    }

    package var count: Int { packed.count / Self.stride }

    package mutating func append(_ key: PieceKey?, length: Int) {
        precondition(length >= 0 && length <= Int(UInt32.max), "a file piece of over 4 GB")
        (key ?? PieceKey.none).withBytes { packed.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(length).littleEndian) { packed.append(contentsOf: $0) }
    }

    /// Where each keyed piece starts in the file and how long it is; the first of equal keys wins.
    package func places() -> [PieceKey: (offset: Int, length: Int)] {
        var places: [PieceKey: (offset: Int, length: Int)] = [:]
        places.reserveCapacity(count)
        forEach { key, offset, length in
            if let key, places[key] == nil { places[key] = (offset, length) }
        }
        return places
    }

    /// Each piece in order: its key (nil for a piece without one), where it starts and how long it is.
    package func forEach(_ body: (_ key: PieceKey?, _ offset: Int, _ length: Int) -> Void) {
        var offset = 0
        packed.withUnsafeBytes { raw in
            for start in Swift.stride(from: 0, to: raw.count, by: Self.stride) {
                // From the raw bytes: the generic `PieceKey.init(_:)` is not specialised across targets.
                let key = PieceKey(Digest128(bytes: UnsafeRawBufferPointer(rebasing: raw[start..<start + Self.keySize]))!)
                let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + Self.keySize, as: UInt32.self)))
                body(key == .none ? nil : key, offset, length)
                offset += length
            }
        }
    }

    /// Whether any piece has a key.
    package var hasKeys: Bool {
        var found = false
        forEach { key, _, _ in found = found || key != nil }
        return found
    }

    /// The length of the whole file.
    package var totalLength: Int {
        packed.withUnsafeBytes { raw in
            Swift.stride(from: 0, to: raw.count, by: Self.stride).reduce(0) {
                $0 + Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $1 + Self.keySize, as: UInt32.self)))
            }
        }
    }
}

/// The key of a file piece: the `Digest128` of what the piece is made from.
package struct PieceKey: Hashable, Sendable {
    private var value: Digest128

    package init(_ value: Digest128) { self.value = value }

    /// The first `FilePieces.keySize` of `bytes`: a key as the manifest keeps it.
    package init(_ bytes: some Collection<UInt8>) {
        value = Digest128(prefixOf: bytes)
    }

    /// The key of no piece: such pieces are always made again.
    static let none = PieceKey(Digest128(high: 0, low: 0))

    package var bytes: [UInt8] { value.bytes }

    /// The 16 bytes, without an array for them: every piece of a file is appended so.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        value.withBytes(body)
    }
}
