import CJemalloc
import Foundation

/// The process allocates through jemalloc, linked in place of glibc's malloc (`CJemalloc`): reruns are
/// faster and peaks lower with it than with glibc's (docs/benchmarks.md).
/// Memory freed stays in the allocator's arenas for its next allocations (jemalloc hands it back
/// after about ten seconds): the sheets' cells that validation freed would stay resident while
/// render allocates elsewhere. Giving the freed pages back after the steps that free hundreds of MB
/// keeps the peak at what is alive.
package enum Allocator {
    /// Below this much resident memory nothing is given back: the pages would only be faulted in again
    /// by the steps after, and the smallest peak-memory limit is 512 MB (docs/ARCHITECTURE.md, Performance limits).
    static let purgedAbove = 256 << 20

    /// Returns the free pages of every arena to the system (a few milliseconds) when the process holds more
    /// than `purgedAbove`.
    package static func releaseFreed() {
        guard let resident = residentBytes(), resident > purgedAbove else { return }
        purgeAllArenas()
    }

    /// From `freedAtOnceAbove` resident, has every arena give the pages it frees back to the system at once
    /// (a decay of 0 ms) instead of keeping them about ten seconds for its own next allocations: a
    /// large rerun's render frees and allocates hundreds of MB on threads whose arenas do not reuse each
    /// other's pages, so the kept ones only added to the peak (docs/benchmarks.md). Below it nothing
    /// changes: giving pages back and faulting them in again costs time (a million rows' render some 10 %).
    package static func freeAtOnceWhenLarge() {
        guard let resident = residentBytes(), resident > freedAtOnceAbove else { return }
        setDirtyDecay(milliseconds: 0)
    }

    /// How long every arena, and any made later, keeps the pages it frees before giving them back.
    static func setDirtyDecay(milliseconds: Int) {
        var value = milliseconds
        _ = mallctl("arenas.dirty_decay_ms", nil, nil, &value, MemoryLayout<Int>.size)
        var arenas: UInt32 = 0
        var size = MemoryLayout<UInt32>.size
        guard mallctl("arenas.narenas", &arenas, &size, nil, 0) == 0 else { return }
        for arena in 0..<arenas {
            _ = mallctl("arena.\(arena).dirty_decay_ms", nil, nil, &value, MemoryLayout<Int>.size)
        }
    }

    static let freedAtOnceAbove = 512 << 20

    /// jemalloc's purge of every arena (`MALLCTL_ARENAS_ALL` is 4096); true when it was done.
    @discardableResult
    static func purgeAllArenas() -> Bool {
        mallctl("arena.4096.purge", nil, nil, nil, 0) == 0
    }

    /// The process's resident set, from `/proc/self/statm` (its second number, in pages); nil where there is none.
    static func residentBytes() -> Int? {
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    /// The allocator's own counts, in bytes: what is allocated and live, the pages that hold it
    /// (`active`), and what is resident of its mappings; with the process's resident set. For
    /// `ORDERPRESS_MEMORY_TRACE` (`MemoryTrace`): where a large build's peak is, by step.
    package static func statistics() -> (allocated: Int, active: Int, resident: Int, process: Int) {
        // The counts are refreshed by writing the epoch.
        var epoch: UInt64 = 1
        _ = mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size)
        func read(_ name: String) -> Int {
            var value = 0
            var size = MemoryLayout<Int>.size
            return mallctl(name, &value, &size, nil, 0) == 0 ? value : 0
        }
        return (read("stats.allocated"), read("stats.active"), read("stats.resident"), residentBytes() ?? 0)
    }

    /// Lets go of `value` on a thread of its own: a full build's aggregation or validated orders take
    /// milliseconds to free, which the steps still to run need not wait for. Pass the only copy.
    /// The freed pages then go back to the system (`releaseFreed`): they are the arenas of the threads
    /// that made the value, where the steps still to run, allocating on other threads, would not reuse
    /// them (a million Form rows' rerun grew by a hundred MB while publishing, the aggregation and the
    /// orders freed beside it).
    package static func release<T>(_ value: consuming T) {
        let held = Held(value)
        Thread.detachNewThread {
            held.value = nil
            releaseFreed()
        }
    }

    private final class Held<T>: @unchecked Sendable {
        // Set once, then cleared by the releasing thread alone.
        var value: T?
        init(_ value: consuming T) { self.value = value }
    }
}
