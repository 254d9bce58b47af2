import Foundation

/// A text as a dictionary key, compared and hashed by its UTF-8 bytes. A `String` key compares and
/// hashes non-ASCII text (a person's page path, a CJK name) by its Unicode normalisation, again at every
/// look-up; texts that are already normalised (`Text.normalize`, `PersonKey`) or that the file system
/// tells apart by their bytes (paths) are equal exactly when their bytes are.
public struct UTF8Key: Hashable, Sendable {
    public let text: String

    @inlinable
    public init(_ text: String) { self.text = text }

    @inlinable
    public static func == (left: UTF8Key, right: UTF8Key) -> Bool {
        Text.withUTF8(left.text) { left in
            Text.withUTF8(right.text) { right in
                left.count == right.count && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        Text.withUTF8(text) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
