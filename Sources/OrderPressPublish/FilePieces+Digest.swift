import Crypto
import Foundation
import OrderPressOutput
import OrderPressSupport

extension FilePieces {
    /// The digest the manifest records for a file made of these pieces (`Manifest.Entry.sha256`), from
    /// `unkeyed`, the SHA-256 of the bytes of its pieces without a key, in order. With a keyed piece, the
    /// SHA-256 of the list of pieces (keys and lengths) and `unkeyed`: a key digests what its piece is made
    /// from, so the keyed bytes (most of `summary.json`, copied from the published file) are not hashed
    /// again. With none, `unkeyed` alone: the SHA-256 of the whole file.
    func contentDigest(unkeyed: ContentDigest) -> ContentDigest {
        guard hasKeys else { return unkeyed }
        var hash = SHA256()
        hash.update(data: Array("orderpress file pieces\u{0}".utf8))
        packed.withUnsafeBytes { hash.update(bufferPointer: $0) }
        unkeyed.withHexDigits { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return ContentDigest(hash.finalize())
    }

    /// The same from the file's bytes; nil when the pieces do not add up to them.
    func contentDigest(of contents: Data) -> ContentDigest? {
        guard totalLength == contents.count else { return nil }
        var hash = SHA256()
        contents.withUnsafeBytes { bytes in
            forEach { key, offset, length in
                if key == nil { hash.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])) }
            }
        }
        return contentDigest(unkeyed: ContentDigest(hash.finalize()))
    }

    /// The parts of a file made of these pieces that may differ from the same place in a file made of
    /// `published`: every piece but a keyed one at the same place, of the same length, under the same key.
    func rangesDiffering(from published: FilePieces) -> [Range<Int>] {
        let places = published.places()
        var ranges: [Range<Int>] = []
        forEach { key, offset, length in
            if let key, let place = places[key], place.offset == offset, place.length == length { return }
            if let last = ranges.last, last.upperBound == offset {
                ranges[ranges.count - 1] = last.lowerBound..<offset + length
            } else if length > 0 {
                ranges.append(offset..<offset + length)
            }
        }
        return ranges
    }
}
