import Crypto

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
        (high, low) = buffer.bytes.withUnsafeBytes { SHA256.hash(data: $0) }.withUnsafeBytes { digest in
            (UInt64(bigEndian: digest.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: digest.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }

    /// The 16 bytes the state database keeps, big-endian.
    var bytes: [UInt8] {
        withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) }
    }

    /// Nil unless exactly 16 bytes.
    init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        let array = Array(bytes)
        func word(_ offset: Int) -> UInt64 { array[offset..<(offset + 8)].reduce(0) { $0 << 8 | UInt64($1) } }
        self.init(high: word(0), low: word(8))
    }

    /// Every field length-prefixed, so that no two records share an encoding.
    private struct Encoder {
        var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(256) }

        mutating func add(_ text: String?) {
            guard var text else { return length(UInt32.max) }
            text.withUTF8 { utf8 in
                length(UInt32(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func add(_ list: [String]) {
            length(UInt32(list.count))
            for element in list { add(element) }
        }

        private mutating func length(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
    }
}
