import Dispatch
import Foundation

/// Splits work over contiguous ranges of rows, one per core, for the stages that read every row
/// independently. Results come back in range order, so the output is the same as one pass's.
enum Parallel {
    /// Below this many rows a second thread costs more than it saves.
    static let minimumChunk = 20_000

    /// `body` over `0..<count` cut into at most one range per core, each range at least `minimumChunk` long.
    static func chunks<T>(count: Int, minimumChunk: Int = minimumChunk, _ body: (Range<Int>) -> T) -> [T] {
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, count / minimumChunk)
        guard workers > 1 else { return [body(0..<count)] }
        var results = [T?](repeating: nil, count: workers)
        results.withUnsafeMutableBufferPointer { buffer in
            // Each iteration writes only its own element.
            nonisolated(unsafe) let buffer = buffer
            withoutActuallyEscaping(body) { body in
                nonisolated(unsafe) let body = body
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    let range = (count * worker / workers)..<(count * (worker + 1) / workers)
                    buffer[worker] = body(range)
                }
            }
        }
        return results.map { $0! }
    }
}
