import Foundation

/// A growable run of bytes in memory of its own, handed to `Data` without a copy: a million-order
/// site's `summary.json` is hundreds of MB, and `Data([UInt8])` held it twice while it copied.
public struct ByteBuffer: ~Copyable {
    // Inlined into the page writers of other targets (`PageBytes`, `ByteStream`): called for every piece
    // of every page, a call across targets per append was a visible share of a full build (docs/benchmarks.md).
    @usableFromInline var base: UnsafeMutableRawPointer?
    @usableFromInline var capacity = 0
    @usableFromInline var length = 0

    package var count: Int { length }

    package init() {}

    deinit { free(base) }

    @inlinable
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if length + bytes.count > capacity { grow(to: length + bytes.count) }
        (base! + length).copyMemory(from: source, byteCount: bytes.count)
        length += bytes.count
    }

    @inlinable
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The bytes as `Data`, which frees them when it goes; the buffer is empty after.
    package mutating func take() -> Data {
        guard let base, length > 0 else { return Data() }
        let (pointer, bytes) = (base, length)
        (self.base, capacity, length) = (nil, 0, 0)
        return Data(bytesNoCopy: pointer, count: bytes, deallocator: .free)
    }

    /// Forgets the bytes, keeping the memory for the next ones.
    package mutating func removeAll() { length = 0 }

    @usableFromInline
    mutating func grow(to needed: Int) {
        // realloc moves large blocks by remapping pages, not copying them.
        let grown = max(needed, capacity * 2, 4096)
        guard let moved = realloc(base, grown) else { fatalError("out of memory for \(grown) bytes") }
        (base, capacity) = (moved, grown)
    }
}
