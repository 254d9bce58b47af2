import Crypto
import Foundation

/// SHA-256 over the sources' bytes, in a fixed order (orders, groups, rates), each framed by its name,
/// its format and the length of every part (a paged sheet has one part per page), so that no two
/// different sets of sources run together into the same stream of bytes.
struct SourceFingerprint {
    private var hasher = SHA256()

    mutating func add(source: String, format: String, parts: [Data]) {
        hasher.update(data: Data("\(source)\u{0}\(format)\u{0}\(parts.count)\u{0}".utf8))
        for part in parts {
            withUnsafeBytes(of: UInt64(part.count).littleEndian) { hasher.update(bufferPointer: $0) }
            hasher.update(data: part)
        }
    }

    /// A paged sheet: its pages' digest, framed like `add(source:format:parts:)`'s parts.
    mutating func add(source: String, format: String, pages: Pages) {
        hasher.update(data: Data("\(source)\u{0}\(format)\u{0}\(pages.count)\u{0}".utf8))
        hasher.update(data: Data(pages.hasher.finalize()))
    }

    /// A paged sheet's pages, each length-prefixed, hashed as they arrive: holding every body until the
    /// sheet was complete kept a copy of a million-row sheet's bytes beside its parsed rows.
    struct Pages {
        fileprivate var hasher = SHA256()
        private(set) var count = 0

        mutating func add(_ page: Data) {
            withUnsafeBytes(of: UInt64(page.count).littleEndian) { hasher.update(bufferPointer: $0) }
            hasher.update(data: page)
            count += 1
        }
    }

    /// Lower-case hex.
    func finalize() -> String {
        Hex.lowercase(hasher.finalize())
    }
}
