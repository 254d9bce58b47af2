import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// glibc's allocator keeps the memory a program frees for its next allocations, in the arena (one
/// per thread that allocated, up to eight per core) that first handed it out: the sheets' cells that
/// validation freed stay in the process's resident memory while render allocates elsewhere. Giving
/// freed pages back after the steps that free hundreds of MB keeps the peak at what is alive.
enum Heap {
    /// Returns the free pages of every arena to the system; a few milliseconds.
    static func releaseFreed() {
        _ = trim?(0)
    }

    /// Lets go of `value` on a thread of its own: a full build's aggregation or validated orders take
    /// milliseconds to free, which the steps still to run need not wait for. Pass the only copy.
    static func release<T>(_ value: consuming T) {
        let held = Held(value)
        Thread.detachNewThread { held.value = nil }
    }

    private final class Held<T>: @unchecked Sendable {
        // Set once, then cleared by the releasing thread alone.
        var value: T?
        init(_ value: consuming T) { self.value = value }
    }

    /// glibc's `malloc_trim`, looked up by name: `<malloc.h>` is not part of the Glibc module. Nil on
    /// other C libraries, which need no such call.
    static let trim = GlibcFunction.named("malloc_trim", as: (@convention(c) (Int) -> Int32).self)
}
