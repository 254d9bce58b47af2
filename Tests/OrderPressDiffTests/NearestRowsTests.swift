import PropertyBased
import Testing

@testable import OrderPressDiff
import OrderPressTestSupport

/// `NearestRows` pairs what trying every pair, closest first, pairs.
@Suite struct NearestRowsTests {
    /// The closest pair of all that are left (ties: the lower old row, then the lower new row), again
    /// and again: O(n³), plainly right.
    static func everyPair(old: [Int], new: [Int]) -> [(old: Int, new: Int)] {
        var (oldLeft, newLeft) = (Set(old.indices), Set(new.indices))
        var result: [(old: Int, new: Int)] = []
        while true {
            let pairs = oldLeft.flatMap { o in newLeft.map { n in (o, n) } }
            guard let best = pairs.min(by: { a, b in
                (abs(old[a.0] - new[a.1]), old[a.0], new[a.1]) < (abs(old[b.0] - new[b.1]), old[b.0], new[b.1])
            }) else { return result }
            oldLeft.remove(best.0)
            newLeft.remove(best.1)
            result.append(best)
        }
    }

    /// Distinct rows, few or many, close together or spread out, in any order.
    static let lists = Generator<[[Int]], Shrink.None<[[Int]]>> { rng in
        let span = [5, 20, 200].randomElement(using: &rng)!
        return (0..<2).map { _ in
            Array(Set((0..<Int.random(in: 0...12, using: &rng)).map { _ in Int.random(in: 2...span, using: &rng) })).shuffled(using: &rng)
        }
    }

    @Test func pairsAsTryingEveryPairPairs() async {
        await propertyCheck(count: 500, input: Self.lists) { lists in
            let (old, new) = (lists[0], lists[1])
            let found = NearestRows.pairs(old: old, new: new)
            let expected = Self.everyPair(old: old, new: new)
            #expect(found.map { [$0.old, $0.new] } == expected.map { [$0.old, $0.new] }, "\(old) → \(new)")
        }
    }

    @Test(arguments: [
        // An edit in place stays in place, even when an earlier row is nearer to it than its own is to anything else.
        ([10, 12], [12, 30], [[1, 0], [0, 1]]),
        // Equally near: the lower old row first, then the lower new row.
        ([10, 12], [11], [[0, 0]]),
        ([11], [10, 12], [[0, 0]]),
        ([], [3], []),
        ([4], [9], [[0, 0]]),
    ] as [([Int], [Int], [[Int]])])
    func nearestFirst(old: [Int], new: [Int], pairs: [[Int]]) {
        #expect(NearestRows.pairs(old: old, new: new).map { [$0.old, $0.new] } == pairs)
    }
}
