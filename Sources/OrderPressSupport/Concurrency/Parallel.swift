import Dispatch
import Foundation

/// Splits work over contiguous ranges of rows, one per core, for the stages that read every row
/// independently. Results come back in range order, so the output is the same as one pass's.
public enum Parallel {
    /// Below this many rows a second thread costs more than it saves.
    public static let minimumChunk = 20_000

    /// `body` over `0..<count` cut into at most one range per core, each range at least `minimumChunk` long.
    @inlinable
    public static func chunks<T>(count: Int, minimumChunk: Int = minimumChunk, _ body: (Range<Int>) -> T) -> [T] {
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

    /// `element(index)` for each of `0..<count`, made over the ranges `chunks` cuts, each range
    /// initialising its own elements in place: joining the chunks' arrays afterwards would hold every
    /// element twice. `element` must be safe to call from several threads at once.
    @inlinable
    public static func fill<T>(count: Int, minimumChunk: Int = minimumChunk, _ element: (Int) -> T) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each range initialises only its own elements, every one of them exactly once.
            nonisolated(unsafe) let buffer = buffer
            _ = chunks(count: count, minimumChunk: minimumChunk) { range in
                for index in range { (buffer.baseAddress! + index).initialize(to: element(index)) }
            }
            initialized = count
        }
    }

    /// Two arrays of `count` elements each, made over the ranges `chunks` cuts, each range initialising
    /// its own elements of both in place through the `put(index, first, second)` it is given (every index
    /// of its range exactly once), and what each range returns besides, in range order: the ranges'
    /// arrays joined afterwards were copied once more, on one core. `put` takes its elements as they are
    /// handed over (`consume`), moved into the arrays rather than copied and the caller's copy released.
    @inlinable
    public static func fill<A, B, R>(
        count: Int, minimumChunk: Int = minimumChunk, _ range: (Range<Int>, _ put: (Int, consuming A, consuming B) -> Void) -> R
    ) -> (first: [A], second: [B], results: [R]) {
        var results: [R] = []
        var second: [B] = []
        let first = [A](unsafeUninitializedCapacity: count) { firstBuffer, firstInitialized in
            second = [B](unsafeUninitializedCapacity: count) { secondBuffer, secondInitialized in
                // Each range initialises only its own elements of both, every one of them exactly once.
                nonisolated(unsafe) let (firstBuffer, secondBuffer) = (firstBuffer, secondBuffer)
                results = chunks(count: count, minimumChunk: minimumChunk) { indices in
                    var put = 0
                    let result = range(indices) { index, a, b in
                        precondition(indices.contains(index), "a range put an element outside itself")
                        (firstBuffer.baseAddress! + index).initialize(to: a)
                        (secondBuffer.baseAddress! + index).initialize(to: b)
                        put += 1
                    }
                    precondition(put == indices.count, "a range left elements unmade")
                    return result
                }
                secondInitialized = count
            }
            firstInitialized = count
        }
        return (first, second, results)
    }

    /// `transform` applied to each of `0..<count` on every core, results in index order; `transform`
    /// must be safe to call from several threads at once.
    @inlinable
    public static func map<T>(_ count: Int, _ transform: (Int) -> T) -> [T] {
        guard count > 1 else { return (0..<count).map(transform) }
        return withoutActuallyEscaping(transform) { transform in
            [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                // concurrentPerform returns when every iteration has: nothing here outlives the call, and
                // each iteration initialises its own element.
                let shared = Unchecked((buffer.baseAddress!, transform))
                DispatchQueue.concurrentPerform(iterations: count) { index in
                    (shared.value.0 + index).initialize(to: shared.value.1(index))
                }
                initialized = count
            }
        }
    }

    @usableFromInline
    struct Unchecked<Value>: @unchecked Sendable {
        @usableFromInline package let value: Value
        @inlinable init(_ value: Value) { self.value = value }
    }
}
