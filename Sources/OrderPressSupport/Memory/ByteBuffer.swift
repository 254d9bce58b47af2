import Foundation

/// A growable run of bytes in memory of its own, handed to `Data` without a copy: a million-order
/// site's `summary.json` is hundreds of MB, and `Data([UInt8])` held it twice while it copied.
package struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0
    package private(set) var count = 0

    package init() {}

    deinit { free(base) }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(count + bytes.count)
        (base! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The bytes as `Data`, which frees them when it goes; the buffer is empty after.
    package mutating func take() -> Data {
        guard let base, count > 0 else { return Data() }
        let (pointer, length) = (base, count)
        (self.base, capacity, count) = (nil, 0, 0)
        return Data(bytesNoCopy: pointer, count: length, deallocator: .free)
    }

    /// Forgets the bytes, keeping the memory for the next ones.
    package mutating func removeAll() { count = 0 }

    private mutating func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        // realloc moves large blocks by remapping pages, not copying them.
        let grown = max(needed, capacity * 2, 4096)
        guard let moved = realloc(base, grown) else { fatalError("out of memory for \(grown) bytes") }
        (base, capacity) = (moved, grown)
    }
}
