import Crypto
import Foundation
import OrderPressSupport

/// SHA-256 over the sources' bytes, in a fixed order (orders, groups, rates), each framed by its name,
/// its format and the length of every part (a paged sheet has one part per page), so that no two
/// different sets of sources run together into the same stream of bytes.
package struct SourceFingerprint {
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
        add(source: source, format: format, pages: pages.digest)
    }

    /// A paged sheet by the digest of its pages, as fetched: the same for the cached copy of a fetch
    /// (`SourceCache.Entry.pages`) as for the fetch itself, so that a rerun within `refresh_minutes`
    /// sees the same input as the run that fetched.
    mutating func add(source: String, format: String, pages: Pages.Digest) {
        hasher.update(data: Data("\(source)\u{0}\(format)\u{0}\(pages.count)\u{0}\(pages.sha256)".utf8))
    }

    /// A paged sheet's pages, each length-prefixed, hashed as they arrive: holding every body until the
    /// sheet was complete kept a copy of a million-row sheet's bytes beside its parsed rows.
    package struct Pages {
        fileprivate var hasher = SHA256()
        package private(set) var count = 0

        /// What is known of the pages once they are all read.
        package struct Digest: Sendable, Equatable {
            package var count: Int
            package var sha256: String

            /// As the cache's metadata writes it: `count:sha256`.
            package var text: String { "\(count):\(sha256)" }

            package init(count: Int, sha256: String) {
                (self.count, self.sha256) = (count, sha256)
            }

            package init?(text: String) {
                let parts = text.split(separator: ":")
                guard parts.count == 2, let count = Int(parts[0]), count >= 0, parts[1].utf8.count == 64 else { return nil }
                self.init(count: count, sha256: String(parts[1]))
            }
        }

        var digest: Digest { Digest(count: count, sha256: Hex.lowercase(hasher.finalize())) }

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
