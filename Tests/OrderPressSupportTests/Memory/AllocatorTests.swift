import CJemalloc
import Foundation
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

@Suite struct AllocatorTests {
    final class Witness: @unchecked Sendable {
        let freed: DispatchSemaphore
        let freedOn: UnsafeMutablePointer<pthread_t>
        init(_ freed: DispatchSemaphore, _ freedOn: UnsafeMutablePointer<pthread_t>) { (self.freed, self.freedOn) = (freed, freedOn) }
        deinit {
            freedOn.pointee = pthread_self()
            freed.signal()
        }
    }

    /// What `Allocator.release` is given is freed, on another thread than the caller's.
    @Test func releaseFreesOnAnotherThread() {
        let freed = DispatchSemaphore(value: 0)
        let freedOn = UnsafeMutablePointer<pthread_t>.allocate(capacity: 1)
        defer { freedOn.deallocate() }
        freedOn.initialize(to: pthread_self())
        Allocator.release([Witness(freed, freedOn)])
        #expect(freed.wait(timeout: .now() + 60) == .success)
        #expect(pthread_equal(freedOn.pointee, pthread_self()) == 0)
    }

    /// jemalloc is the process's allocator: what Swift allocates is counted in jemalloc's own
    /// statistics for the thread, and its arenas can be purged.
    @Test func jemallocAllocatesForSwift() throws {
        func allocated() -> UInt64 {
            var value: UInt64 = 0
            var size = MemoryLayout<UInt64>.size
            #expect(mallctl("thread.allocated", &value, &size, nil, 0) == 0)
            return value
        }
        let before = allocated()
        let bytes = [UInt8](repeating: 7, count: 1 << 20)
        let after = allocated()
        withExtendedLifetime(bytes) {}
        #expect(after - before >= 1 << 20)
        #expect(Allocator.purgeAllArenas())
    }

    /// The resident size that decides whether to give pages back is this process's: 64 MB touched are in it,
    /// and it is what the kernel reports as resident (`VmRSS`), not the far larger virtual size. Bounds
    /// rather than a difference: other tests allocate and free on other threads meanwhile.
    @Test func residentBytesCountTouchedMemory() throws {
        let size = 64 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        defer { block.deallocate() }
        block.initializeMemory(as: UInt8.self, repeating: 1, count: size)
        func kernelResident() throws -> Int {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
            return try #require(Int(line.split(separator: " ")[1])) * 1024
        }
        let low = try kernelResident()
        let resident = try #require(Allocator.residentBytes())
        let high = try kernelResident()
        #expect(resident >= size)
        let slack = 16 << 20
        #expect(resident >= min(low, high) - slack && resident <= max(low, high) + slack, "\(resident) against \(low)–\(high)")
    }

    /// The allocator's counts (`MemoryTrace`'s) see what is allocated: 64 MB held are in `allocated`
    /// and `active`, and touched, in `resident`. Bounds: other tests allocate meanwhile.
    @Test func statisticsCountWhatIsHeld() {
        let size = 64 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        defer { block.deallocate() }
        block.initializeMemory(as: UInt8.self, repeating: 1, count: size)
        let counts = Allocator.statistics()
        #expect(counts.allocated >= size)
        #expect(counts.active >= counts.allocated)
        #expect(counts.resident >= size)
        #expect(counts.process >= size)
    }

    /// Freed pages go back at once in every arena and in those made later, and can be kept again: the
    /// setting `freeAtOnceWhenLarge` makes for a large rerun's render (restored here for the other tests).
    @Test func theDecayIsSetInEveryArena() throws {
        func decay(_ name: String) -> Int {
            var value = -2
            var size = MemoryLayout<Int>.size
            #expect(mallctl(name, &value, &size, nil, 0) == 0, "\(name)")
            return value
        }
        let kept = decay("opt.dirty_decay_ms")
        Allocator.setDirtyDecay(milliseconds: 0)
        #expect(decay("arenas.dirty_decay_ms") == 0)
        #expect(decay("arena.0.dirty_decay_ms") == 0)
        Allocator.setDirtyDecay(milliseconds: kept)
        #expect(decay("arena.0.dirty_decay_ms") == kept)
        #expect(decay("arenas.dirty_decay_ms") == kept)
    }
}
