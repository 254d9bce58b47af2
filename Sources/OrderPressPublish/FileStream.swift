import Crypto
import Foundation
import OrderPressOutput
import OrderPressSupport

/// A file written front to back through a buffer and hashed as it goes: what the publish session
/// makes a large file in (`PublishSession.publishStreamed`), so that it is never all in memory. The
/// bytes of keyed pieces are not hashed: their keys stand for them (`FilePieces.contentDigest`).
final class FileStream: ByteStream {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Of the bytes without a key.
    private var hash = SHA256()
    /// Whether bytes of keyed pieces were appended since the last reset.
    private var keyed = false
    /// The first `errno` a write or a reset failed with; 0 while none has.
    private var error: Int32 = 0

    private static let bufferSize = 1 << 20

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.bufferSize)
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        hash.update(bufferPointer: bytes)
        write(bytes)
    }

    func append(keyed bytes: UnsafeRawBufferPointer) {
        keyed = true
        write(bytes)
    }

    /// Within the kernel when the published file can send (`PublishedPieces.send`), else through a buffer.
    func append(keyed length: Int, of published: PublishedPieces, at offset: Int) -> Bool {
        keyed = true
        var sent = 0
        if let send = published.send {
            flush()
            if error == 0 { sent = send(offset, length, descriptor) }
        }
        return sent >= length || copy(length - sent, of: published, at: offset + sent)
    }

    private func write(_ bytes: UnsafeRawBufferPointer) {
        if buffer.count + bytes.count > Self.bufferSize {
            flush()
            if bytes.count >= Self.bufferSize {
                writeAll(bytes)
                return
            }
        }
        buffer.append(contentsOf: bytes)
    }

    func reset() {
        buffer.removeAll(keepingCapacity: true)
        hash = SHA256()
        keyed = false
        if error == 0, ftruncate(descriptor, 0) != 0 || lseek(descriptor, 0, SEEK_SET) < 0 { error = errno }
    }

    /// Writes what is buffered; false when any write failed.
    func finish() -> Bool {
        flush()
        return error == 0
    }

    /// The digest of the file made of `pieces` (what `make` returned), as `FilePieces.contentDigest`
    /// makes it from the whole file's bytes: the SHA-256 of everything appended since the last reset
    /// when no piece has a key. Nil when keyed bytes came without keyed pieces to stand for them.
    func digest(of pieces: FilePieces?) -> ContentDigest? {
        let unkeyed = ContentDigest(hash.finalize())
        if let pieces, pieces.hasKeys { return pieces.contentDigest(unkeyed: unkeyed) }
        return keyed ? nil : unkeyed
    }

    private func flush() {
        buffer.withUnsafeBytes { writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        if error == 0 { error = AtomicFile.writeAll(bytes, to: descriptor) }
    }
}
