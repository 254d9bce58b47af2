import Foundation

/// Makes a large whole-site file piece by piece. A keyed piece whose key the published file also has
/// is copied from that file instead of made; every other piece is made. The copies are read when the
/// file is finished, neighbours in one read, so that one changed order costs its group's entry and
/// a few reads rather than the whole 320 MB `summary.json` of a million orders.
struct PieceAssembler: ~Copyable {
    private var buffer = ByteBuffer()
    private var pieces = FilePieces()
    private let published: PublishedPieces?
    private let places: [PieceKey: (offset: Int, length: Int)]
    /// Bytes to read from the published file, by place in this one; a copy that continues the
    /// last in both files is merged into it.
    private var copies: [(to: Int, from: Int, length: Int)] = []
    /// Where the run of unkeyed bytes not yet listed as a piece starts.
    private var unkeyedStart = 0

    init(published: PublishedPieces?) {
        self.published = published
        places = published?.pieces.places() ?? [:]
    }

    /// Bytes that belong to no keyed piece: made every time.
    mutating func write(_ bytes: [UInt8]) {
        buffer.append(bytes)
    }

    /// A piece made from what `key` digests: copied when the published file has it, else `make()`.
    mutating func piece(_ key: PieceKey, make: () -> [UInt8]) {
        closeUnkeyed()
        let start = buffer.count
        if let place = places[key] {
            buffer.extend(by: place.length)
            if let last = copies.last, last.to + last.length == start, last.from + last.length == place.offset {
                copies[copies.count - 1].length += place.length
            } else {
                copies.append((start, place.offset, place.length))
            }
        } else {
            buffer.append(make())
        }
        pieces.append(key, length: buffer.count - start)
        unkeyedStart = buffer.count
    }

    /// The file and its pieces; nil when the published file could not be read (make it again without it).
    consuming func finish() -> (contents: Data, pieces: FilePieces)? {
        closeUnkeyed()
        if let published, !copies.isEmpty {
            let copies = self.copies
            let read = buffer.withUnsafeMutableBytes { bytes in
                copies.allSatisfy { copy in
                    published.read(copy.from, UnsafeMutableRawBufferPointer(rebasing: bytes[copy.to..<copy.to + copy.length]))
                }
            }
            guard read else { return nil }
        }
        let pieces = self.pieces
        return (buffer.data(), pieces)
    }

    /// How many bytes were copied rather than made: for tests.
    var copiedLength: Int { copies.reduce(0) { $0 + $1.length } }

    private mutating func closeUnkeyed() {
        if buffer.count > unkeyedStart { pieces.append(nil, length: buffer.count - unkeyedStart) }
        unkeyedStart = buffer.count
    }
}
