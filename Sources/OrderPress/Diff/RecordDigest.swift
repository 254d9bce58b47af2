import Crypto
import Foundation

/// What a snapshot record holds, apart from where it stands and when it was first seen, as 16 bytes
/// of its SHA-256: the state keeps one beside each record, so that a rerun compares this run's records
/// with the last ones by digest and reads in full only those that differ (see `SnapshotIndex`).
///
/// SHA-256 rather than a faster hash because a collision would hide a change from the Changes page
/// and the state alike; truncated to 128 bits, which no sheet's edits will collide in.
struct RecordDigest: Hashable, Sendable {
    var high: UInt64
    var low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init(_ record: RowRecord) {
        var buffer = Encoder()
        buffer.add(record.identity)
        buffer.add(record.id)
        buffer.add(record.values)
        buffer.add(record.secrets)
        buffer.add(record.rejected ? "1" : "0")
        buffer.add(record.group)
        buffer.add(record.person)
        buffer.add(record.item)
        buffer.add(record.options)
        buffer.add(String(record.quantity))
        buffer.add(record.amount)
        buffer.add(record.currency)
        self = buffer.bytes.withUnsafeBytes { SHA256.hash(data: $0) }.withUnsafeBytes { Self(bytes: UnsafeRawBufferPointer(rebasing: $0.prefix(16)))! }
    }

    /// The 16 bytes the state database keeps, big-endian.
    var bytes: [UInt8] {
        withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) }
    }

    /// Nil unless exactly 16 bytes.
    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        self.init(
            high: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
            low: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }

    /// Nil unless exactly 16 bytes.
    init?(data: Data) {
        guard let digest = data.withUnsafeBytes({ Self(bytes: $0) }) else { return nil }
        self = digest
    }

    /// Every field length-prefixed, so that no two records share an encoding.
    private struct Encoder {
        var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(256) }

        mutating func add(_ text: String?) {
            guard let text else { return length(UInt32.max) }
            let utf8 = text.utf8
            length(UInt32(utf8.count))
            // Native strings hand over their bytes at once; the loop is for the rare other kind.
            if utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil { bytes.append(contentsOf: utf8) }
        }

        mutating func add(_ list: [String]) {
            length(UInt32(list.count))
            for element in list { add(element) }
        }

        private mutating func length(_ value: UInt32) {
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
            bytes.append(UInt8(truncatingIfNeeded: value >> 16))
            bytes.append(UInt8(truncatingIfNeeded: value >> 24))
        }
    }
}
