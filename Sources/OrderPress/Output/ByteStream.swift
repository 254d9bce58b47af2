import Foundation

/// Where a large whole-site file is made, front to back: in memory, or (`FileStream`) straight into
/// the temporary file it is published from, so that a 320 MB `summary.json` is never all in memory.
protocol ByteStream: AnyObject {
    func append(_ bytes: UnsafeRawBufferPointer)
    /// Forgets everything appended, to make the file again from its start.
    func reset()
}

extension ByteStream {
    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }
}

/// A stream into memory, for sinks that keep files as `Data`.
final class MemoryStream: ByteStream {
    private var buffer = ByteBuffer()

    func append(_ bytes: UnsafeRawBufferPointer) { buffer.append(bytes) }

    func reset() { buffer.removeAll() }

    /// The bytes made, as `Data` (without a copy); the stream is empty after.
    func take() -> Data { buffer.take() }
}
