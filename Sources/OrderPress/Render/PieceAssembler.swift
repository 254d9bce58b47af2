import Foundation

/// Makes a large whole-site file piece by piece into a stream. A keyed piece whose key the published
/// file also has is copied from that file instead of made; every other piece is made. Neighbouring
/// copies are read at once, so that one changed order costs its group's entry and a few reads rather
/// than making the whole 320 MB `summary.json` of a million orders again.
struct PieceAssembler {
    private let stream: ByteStream
    private var pieces = FilePieces()
    private let published: PublishedPieces?
    private let places: [PieceKey: (offset: Int, length: Int)]
    /// The run of the published file to copy next: a copy that continues it is added to it.
    private var pending: (from: Int, length: Int)?
    /// Bytes made since the last keyed piece, listed as one piece without a key.
    private var unkeyed = 0
    private var failed = false

    init(into stream: ByteStream, published: PublishedPieces?) {
        self.stream = stream
        self.published = published
        places = published?.pieces.places() ?? [:]
    }

    /// Bytes that belong to no keyed piece: made every time.
    mutating func write(_ bytes: [UInt8]) {
        copyPending()
        stream.append(bytes)
        unkeyed += bytes.count
    }

    /// A piece made from what `key` digests: copied when the published file has it, else `make()`.
    mutating func piece(_ key: PieceKey, make: () -> [UInt8]) {
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
            let bytes = make()
            stream.append(bytes)
            pieces.append(key, length: bytes.count)
        }
    }

    /// The file's pieces; nil when the published file could not be read, and the stream must then
    /// be reset and the file made again without it.
    mutating func finish() -> FilePieces? {
        copyPending()
        if unkeyed > 0 { pieces.append(nil, length: unkeyed) }
        unkeyed = 0
        return failed ? nil : pieces
    }

    /// Reads the pending run from the published file into the stream, a few MB at a time.
    private mutating func copyPending() {
        guard let run = pending else { return }
        pending = nil
        guard !failed, let published else {
            failed = true
            return
        }
        let chunk = 4 << 20
        var buffer = [UInt8](repeating: 0, count: min(chunk, run.length))
        var done = 0
        while done < run.length {
            let count = min(chunk, run.length - done)
            let read = buffer.withUnsafeMutableBytes { published.read(run.from + done, UnsafeMutableRawBufferPointer(rebasing: $0[0..<count])) }
            guard read else {
                failed = true
                return
            }
            buffer.withUnsafeBytes { stream.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            done += count
        }
    }
}
