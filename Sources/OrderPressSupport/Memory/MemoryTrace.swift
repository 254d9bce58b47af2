import Foundation

/// With `ORDERPRESS_MEMORY_TRACE` set in the environment, a line on standard error at each mark (each
/// step of a build begins with one): the allocator's counts there (`Allocator.statistics`), and the
/// highest of them since the mark before, sampled every 50 ms. How docs/benchmarks.md finds which step
/// holds a large build's peak, and how much of it is live.
package enum MemoryTrace {
    package static let enabled = ProcessInfo.processInfo.environment["ORDERPRESS_MEMORY_TRACE"] != nil

    /// Writes the counts now and the highest since the last mark, named `label`.
    package static func mark(_ label: @autoclosure () -> String) {
        guard enabled else { return }
        let now = Allocator.statistics()
        let highest = sampler.take(now)
        func mb(_ bytes: Int) -> String { String(bytes >> 20) }
        let line = "[memory] \(label()): allocated \(mb(now.allocated)) MiB, active \(mb(now.active)), resident \(mb(now.resident)), process \(mb(now.process)); "
            + "highest since the last mark: allocated \(mb(highest.allocated)), resident \(mb(highest.resident)), process \(mb(highest.process))\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    private static let sampler = Sampler()

    /// The highest counts seen, sampled on a thread of its own while the trace is on.
    private final class Sampler: @unchecked Sendable {
        private let lock = NSLock()
        // Guarded by `lock`.
        private var highest = (allocated: 0, resident: 0, process: 0)

        init() {
            Thread.detachNewThread { [self] in
                while true {
                    note(Allocator.statistics())
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        }

        private func note(_ counts: (allocated: Int, active: Int, resident: Int, process: Int)) {
            lock.withLock {
                highest = (max(highest.allocated, counts.allocated), max(highest.resident, counts.resident), max(highest.process, counts.process))
            }
        }

        /// The highest since the last call, `now` included; then starts again from `now`.
        func take(_ now: (allocated: Int, active: Int, resident: Int, process: Int)) -> (allocated: Int, resident: Int, process: Int) {
            note(now)
            return lock.withLock {
                defer { highest = (now.allocated, now.resident, now.process) }
                return highest
            }
        }
    }
}
