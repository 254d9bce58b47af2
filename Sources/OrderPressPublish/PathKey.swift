import Foundation
import OrderPressSupport

/// A published file's path as a dictionary key, compared and hashed by its UTF-8 bytes, as the file
/// system tells names apart. A `String` key compares and hashes a non-ASCII path (a person's page) by
/// its Unicode normalisation, which every one of a rerun's look-ups of the last manifest's paths paid.
struct PathKey: Hashable, Sendable {
    let path: String

    init(_ path: String) { self.path = path }

    static func == (left: PathKey, right: PathKey) -> Bool {
        Text.withUTF8(left.path) { left in
            Text.withUTF8(right.path) { right in
                left.count == right.count && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        Text.withUTF8(path) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
