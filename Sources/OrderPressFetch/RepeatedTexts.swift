import Foundation
import OrderPressSupport

/// The cell texts too long to be stored inside a `String` (more than 15 bytes) made lately, one in each
/// slot of a table by a hash of their bytes: a cell equal to the text in its slot is that `String` again,
/// not a new one. A sheet repeats most of its long texts (a group's name in each of its orders, a Form's
/// timestamp in the rows sent within the same second), and each cell lives in its order until the pages
/// are written: at a million Form rows, about half of the 200 MB of cell texts were repeats. A slot is
/// overwritten by the next text that hashes to it, so texts that never repeat cost no more than the table.
/// Short texts have a small table of their own, found by their bytes (`normalText`). Every text is handed
/// out normalised (`Text.normalize`). One a thread: its texts are shared, the table is not.
package struct RepeatedTexts {
    private var hashes: [UInt64]
    private var texts: [String]
    private let mask: Int
    /// `normalText`'s short texts: each slot's two words of bytes and count (the first words, then the
    /// second), and its text. Zero words are the empty text's.
    private var shortKeys = [UInt64](repeating: 0, count: 2 * shortSlots)
    private var shortTexts = [String](repeating: "", count: shortSlots)
    private static let shortSlots = 4_096

    /// Longer texts than this are not stored inline: only those are looked up.
    package static let inlineBytes = 15

    /// A table for about `texts` texts: a slot for each, at most 1,048,576 (24 MB). Texts that repeat far
    /// apart (a person's e-mail in each of their orders) are found again only in a table that large.
    package init(texts: Int) {
        var slots = 256
        while slots < 1 << 20, slots < texts { slots <<= 1 }
        self.init(slots: slots)
    }

    private init(slots: Int) {
        hashes = [UInt64](repeating: 0, count: slots)
        texts = [String](repeating: "", count: slots)
        mask = slots - 1
    }

    /// `Text.normalize` of the text of the `count` bytes at `base` (UTF-8, as the caller checked): the one
    /// made before when it is still in its slot. A long text is found again only when its bytes are normal
    /// already (the one in the slot is compared with the bytes); a short one by its bytes as they came, in a
    /// small table of its own: a sheet's short cells (sizes, sugar levels, prices, quantities) are mostly
    /// repeats, and decoding and checking each cost more than finding it.
    @inline(__always)
    package mutating func normalText(_ base: UnsafePointer<UInt8>, count: Int) -> String {
        guard count > Self.inlineBytes else { return shortNormalText(base, count: count) }
        let hash = Self.hash(base, count: count)
        let slot = Int(truncatingIfNeeded: hash >> 40) & mask
        if hashes[slot] == hash, Self.equal(texts[slot], base, count: count) { return texts[slot] }
        let text = Text.normalize(String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self))
        hashes[slot] = hash
        texts[slot] = text
        return text
    }

    /// A text of at most 15 bytes, by its bytes and their count in two words: equal words, equal bytes.
    @inline(__always)
    private mutating func shortNormalText(_ base: UnsafePointer<UInt8>, count: Int) -> String {
        var key = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &key) { words in
            words.copyMemory(from: UnsafeRawBufferPointer(start: base, count: count))
            words[15] = UInt8(truncatingIfNeeded: count)
        }
        var hash = (key.0 ^ (key.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 29
        let slot = Int(truncatingIfNeeded: hash >> 40) & (Self.shortSlots - 1)
        if shortKeys[slot] == key.0, shortKeys[slot + Self.shortSlots] == key.1 { return shortTexts[slot] }
        let text = Text.normalize(String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self))
        (shortKeys[slot], shortKeys[slot + Self.shortSlots], shortTexts[slot]) = (key.0, key.1, text)
        return text
    }

    /// A hash of 16 or more bytes, eight at a time (the last eight overlapping the ones before).
    @inline(__always)
    private static func hash(_ base: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let raw = UnsafeRawPointer(base)
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 < count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
            offset += 8
        }
        hash = (hash ^ raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 32)
    }

    @inline(__always)
    private static func equal(_ text: String, _ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { stored in
            stored.count == count && memcmp(stored.baseAddress!, base, count) == 0
        } ?? false
    }
}
