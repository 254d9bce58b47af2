import Foundation
import OrderPressSupport

/// Where a large whole-site file is made, front to back: in memory, or (`FileStream`) straight into
/// the temporary file it is published from, so that a `summary.json` of hundreds of MB is never all in memory.
package protocol ByteStream: AnyObject {
    func append(_ bytes: UnsafeRawBufferPointer)
    /// Bytes of pieces with a key (`FilePieces`), made or copied from the published file: a stream that
    /// digests what it is given leaves them to their keys (`FileStream`), which stand for them.
    func append(keyed bytes: UnsafeRawBufferPointer)
    /// Appends `length` bytes of the published file from `offset`, bytes of keyed pieces; false when they
    /// cannot be read.
    func append(keyed length: Int, of published: PublishedPieces, at offset: Int) -> Bool
    /// Forgets everything appended, to make the file again from its start.
    func reset()
}

extension ByteStream {
    package func append(keyed bytes: UnsafeRawBufferPointer) { append(bytes) }

    package func append(keyed length: Int, of published: PublishedPieces, at offset: Int) -> Bool {
        copy(length, of: published, at: offset)
    }

    /// `append(keyed:of:at:)` through a buffer, a few MB at a time.
    package func copy(_ length: Int, of published: PublishedPieces, at offset: Int) -> Bool {
        guard length > 0 else { return true }
        let chunk = 4 << 20
        var buffer = [UInt8](repeating: 0, count: min(chunk, length))
        var done = 0
        while done < length {
            let count = min(chunk, length - done)
            guard buffer.withUnsafeMutableBytes({ published.read(offset + done, UnsafeMutableRawBufferPointer(rebasing: $0[0..<count])) }) else {
                return false
            }
            buffer.withUnsafeBytes { append(keyed: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            done += count
        }
        return true
    }

    package func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }
}

/// A stream into memory, for sinks that keep files as `Data`.
package final class MemoryStream: ByteStream {
    private var buffer = ByteBuffer()

    package func append(_ bytes: UnsafeRawBufferPointer) { buffer.append(bytes) }

    package func reset() { buffer.removeAll() }

    /// The bytes made, as `Data` (without a copy); the stream is empty after.
    package func take() -> Data { buffer.take() }
    package init() {}
}
