import Foundation
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

@Suite struct ParallelTests {
    /// Two arrays made in place by ranges: every element where its index says, each range's result in order.
    @Test(arguments: [0, 1, 7, 10_000])
    func parallelFillOfTwoArraysPutsEveryElementInPlace(count: Int) {
        let (squares, names, ranges) = Parallel.fill(count: count, minimumChunk: 3) { range, put in
            for index in range.reversed() { put(index, index * index, "row \(index)") }
            return range
        }
        #expect(squares == (0..<count).map { $0 * $0 })
        #expect(names == (0..<count).map { "row \($0)" })
        #expect(ranges.flatMap { Array($0) } == Array(0..<count))
        #expect(ranges.count == max(1, min(ProcessInfo.processInfo.activeProcessorCount, count / 3)))
    }

    /// Chunks cover every row once, in order.
    @Test(arguments: [0, 1, 19_999, 40_000, 100_001])
    func parallelChunksCoverEveryRowInOrder(count: Int) {
        let ranges = Parallel.chunks(count: count) { $0 }
        #expect(ranges.flatMap { Array($0) } == Array(0..<count))
        #expect(ranges.count >= 1 && ranges.allSatisfy { $0.count >= min(count, Parallel.minimumChunk) })
    }
}
