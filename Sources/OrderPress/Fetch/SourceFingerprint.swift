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

    /// Lower-case hex.
    func finalize() -> String {
        Hex.lowercase(hasher.finalize())
    }
}
