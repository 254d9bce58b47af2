import Foundation
import OrderPressSupport

/// What a snapshot record holds, apart from where it stands and when it was first seen, as a
/// `Digest128` of it: the state keeps one beside each record, so that a rerun compares this run's records
/// with the last ones by digest and reads in full only those that differ (see `SnapshotIndex`).
package struct RecordDigest: Hashable, Sendable {
    package var value: Digest128

    package init(_ value: Digest128) { self.value = value }

    package init(high: UInt64, low: UInt64) { value = Digest128(high: high, low: low) }

    /// Borrowed: a copy of the record (its fourteen texts and lists retained, then released) for every row cost a tenth of the hash.
    package init(_ record: borrowing RowRecord) {
        let quantity = String(record.quantity)
        // Written in place on the stack, at the size worked out first, and hashed from there: appending
        // field by field to an array (capacity and uniqueness checked for every few bytes) cost as much as the hash.
        let size = Self.encodedSize(record, quantity: quantity)
        self = withUnsafeTemporaryAllocation(byteCount: size, alignment: 1) { buffer in
            var encoder = Encoder(base: buffer.baseAddress!)
            Self.encode(record, quantity: quantity, into: &encoder)
            precondition(encoder.count == size, "a record's encoding is not the size worked out for it")
            return Self(Digest128(sha256Of: UnsafeRawBufferPointer(buffer)))
        }
    }

    /// Memory to encode records in, kept from one record to the next: for a loop over a whole sheet (see
    /// `Differ`). The encoding is not written inside a closure, as `init(_:)` writes it: a closure capturing
    /// the borrowed record copied it (its texts and lists retained, then released) for every row.
    /// The same `encode` into the same bytes, so the same digest as `init(_:)`.
    struct Scratch: ~Copyable {
        private var base: UnsafeMutableRawPointer
        private var capacity: Int

        init() {
            capacity = 1024
            base = .allocate(byteCount: capacity, alignment: 8)
        }

        deinit { base.deallocate() }

        /// `RecordDigest(record)`.
        package mutating func digest(_ record: borrowing RowRecord) -> RecordDigest {
            let quantity = String(record.quantity)
            let size = RecordDigest.encodedSize(record, quantity: quantity)
            if size > capacity {
                base.deallocate()
                capacity = max(size, capacity * 2)
                base = .allocate(byteCount: capacity, alignment: 8)
            }
            var encoder = Encoder(base: base)
            RecordDigest.encode(record, quantity: quantity, into: &encoder)
            precondition(encoder.count == size, "a record's encoding is not the size worked out for it")
            return RecordDigest(Digest128(sha256Of: UnsafeRawBufferPointer(start: base, count: size)))
        }
    }

    /// Every field length-prefixed, so that no two records share an encoding. The fields and their form
    /// are those of every digest already in a state folder: changing either reads every record again.
    private static func encode(_ record: borrowing RowRecord, quantity: String, into encoder: inout Encoder) {
        record.identityValue.withUTF8(id: record.id, values: record.values) { encoder.add(bytes: $0) }
        encoder.add(record.id)
        encoder.add(record.values)
        encoder.add(record.secrets)
        encoder.add(record.rejected ? "1" : "0")
        encoder.add(record.group)
        encoder.add(record.person)
        encoder.add(record.item)
        encoder.add(record.options)
        encoder.add(quantity)
        encoder.add(record.amount)
        encoder.add(record.currency)
    }

    /// The bytes `encode` writes: a 4-byte length before each text and each list.
    private static func encodedSize(_ record: borrowing RowRecord, quantity: String) -> Int {
        func text(_ text: String?) -> Int { 4 + (text?.utf8.count ?? 0) }
        func list(_ list: [String]) -> Int { list.reduce(4) { $0 + 4 + $1.utf8.count } }
        let secrets = record.secrets.reduce(4) { $0 + 4 + $1.utf8Count }
        return 4 + record.identityValue.utf8Count(id: record.id, values: record.values) + text(record.id) + list(record.values) + secrets + text("0") + text(record.group)
            + text(record.person) + text(record.item) + list(record.options) + text(quantity) + text(record.amount) + text(record.currency)
    }

    /// The 16 bytes the state database keeps, big-endian.
    package var bytes: [UInt8] { value.bytes }

    /// Nil unless exactly 16 bytes.
    package init?(bytes: UnsafeRawBufferPointer) {
        guard let value = Digest128(bytes: bytes) else { return nil }
        self.value = value
    }

    /// Nil unless exactly 16 bytes.
    package init?(data: Data) {
        guard let digest = data.withUnsafeBytes({ Self(bytes: $0) }) else { return nil }
        self = digest
    }

    /// Writes an encoding into memory of the size `encodedSize` gives.
    private struct Encoder {
        let base: UnsafeMutableRawPointer
        private(set) var count = 0

        init(base: UnsafeMutableRawPointer) { self.base = base }

        mutating func add(_ text: String?) {
            guard let text else { return length(UInt32.max) }
            let utf8 = text.utf8
            let size = utf8.count
            length(UInt32(size))
            guard size > 0 else { return }
            let start = base + count
            // Native strings hand over their bytes at once; the loop is for the rare other kind.
            if utf8.withContiguousStorageIfAvailable({ start.copyMemory(from: $0.baseAddress!, byteCount: size) }) == nil {
                for (offset, byte) in utf8.enumerated() { start.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self) }
            }
            count += size
        }

        mutating func add(_ list: [String]) {
            length(UInt32(list.count))
            for element in list { add(element) }
        }

        /// As the list of their texts.
        mutating func add(_ secrets: [SecretHash]) {
            length(UInt32(secrets.count))
            for secret in secrets { secret.withUTF8 { add(bytes: $0) } }
        }

        mutating func add(bytes: UnsafeBufferPointer<UInt8>) {
            length(UInt32(bytes.count))
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            (base + count).copyMemory(from: source, byteCount: bytes.count)
            count += bytes.count
        }

        /// Four bytes, little-endian.
        private mutating func length(_ value: UInt32) {
            base.storeBytes(of: value.littleEndian, toByteOffset: count, as: UInt32.self)
            count += 4
        }
    }
}
