import Foundation

/// Makes a large whole-site file piece by piece into a stream. A keyed piece whose key the published
/// file also has is copied from that file instead of made; every other piece is made. Neighbouring
/// copies are read at once, so that one changed order costs its group's entry and a few reads rather
/// than making the whole `summary.json` of a million orders (hundreds of MB) again.
package struct PieceAssembler {
    private let stream: ByteStream
    private var pieces = FilePieces()
    private let published: PublishedPieces?
    private let places: [PieceKey: (offset: Int, length: Int)]
    /// The run of the published file to copy next: a copy that continues it is added to it.
    private var pending: (from: Int, length: Int)?
    /// Bytes made since the last keyed piece, listed as one piece without a key.
    private var unkeyed = 0
    private var failed = false
    /// Bytes made and not yet in the stream: pieces are made into one buffer and handed over some
    /// 64 KB at a time, not each in an array of its own with an append (and a hash update) apiece.
    private var made: [UInt8] = []
    /// Whether `made` holds bytes of keyed pieces (else bytes of none): each kind goes to the stream as such.
    private var madeKeyed = false

    package init(into stream: ByteStream, published: PublishedPieces?) {
        self.stream = stream
        self.published = published
        places = published?.pieces.places() ?? [:]
        made.reserveCapacity(Self.handOver + Self.handOver / 4)
    }

    /// Bytes that belong to no keyed piece: made every time.
    package mutating func write(_ bytes: [UInt8]) {
        write { $0 += bytes }
    }

    /// Bytes that belong to no keyed piece, appended by `make`.
    package mutating func write(make: (inout [UInt8]) -> Void) {
        copyPending()
        if madeKeyed { handOver() }
        madeKeyed = false
        let start = made.count
        make(&made)
        unkeyed += made.count - start
        handOverIfFull()
    }

    /// A piece made from what `key` digests: copied when the published file has it, else appended by `make`.
    package mutating func piece(_ key: PieceKey, make: (inout [UInt8]) -> Void) {
        if unkeyed > 0 { pieces.append(nil, length: unkeyed) }
        unkeyed = 0
        if let place = places[key] {
            if let run = pending, run.from + run.length == place.offset {
                pending = (run.from, run.length + place.length)
            } else {
                copyPending()
                pending = (place.offset, place.length)
            }
            pieces.append(key, length: place.length)
        } else {
            copyPending()
            if !madeKeyed { handOver() }
            madeKeyed = true
            let start = made.count
            make(&made)
            pieces.append(key, length: made.count - start)
            handOverIfFull()
        }
    }

    /// The file's pieces; nil when the published file could not be read, and the stream must then
    /// be reset and the file made again without it.
    package mutating func finish() -> FilePieces? {
        copyPending()
        handOver()
        if unkeyed > 0 { pieces.append(nil, length: unkeyed) }
        unkeyed = 0
        return failed ? nil : pieces
    }

    private static let handOver = 1 << 16

    private mutating func handOverIfFull() {
        if made.count >= Self.handOver { handOver() }
    }

    private mutating func handOver() {
        guard !made.isEmpty else { return }
        if madeKeyed {
            made.withUnsafeBytes { stream.append(keyed: $0) }
        } else {
            made.withUnsafeBytes { stream.append($0) }
        }
        made.removeAll(keepingCapacity: true)
    }

    /// Copies the pending run of the published file into the stream, after what was made before it.
    private mutating func copyPending() {
        guard let run = pending else { return }
        pending = nil
        handOver()
        guard !failed, let published, stream.append(keyed: run.length, of: published, at: run.from) else {
            failed = true
            return
        }
    }
}
