import Foundation
import PropertyBased
import Testing

@testable import OrderPressAggregate
import OrderPressTestSupport

/// `MoneyShares` against a computation written another way: units handed out one at a time, each to
/// the person furthest below their exact quota (compared as fractions over the common denominator, in
/// Decimal, exact at these sizes), the first in name order on a tie. The largest-remainder method gives
/// the same parts; both sum exactly to the amount.
@Suite struct MoneySharesTests {
    /// One unit at a time: person i's shortfall is quota_i − given_i = (units × w_i − given_i × W) / W.
    static func oneUnitAtATime(_ units: Int, weights: [Int]) -> [Int] {
        guard !weights.isEmpty else { return [] }
        let total = weights.reduce(0, +)
        let effective = total == 0 ? weights.map { _ in 1 } : weights
        let sum = Decimal(effective.reduce(0, +))
        var given = [Int](repeating: 0, count: weights.count)
        for _ in 0..<units {
            var best = 0
            var bestShortfall: Decimal?
            for index in weights.indices {
                let shortfall = Decimal(units) * Decimal(effective[index]) - Decimal(given[index]) * sum
                if bestShortfall == nil || shortfall > bestShortfall! {
                    (best, bestShortfall) = (index, shortfall)
                }
            }
            given[best] += 1
        }
        return given
    }

    @Test func proportionalIsTheOneUnitAtATimeSplit() async {
        // Small weights too, so that remainders tie.
        let weights = Gen.int(in: 0...5_000).array(of: 1...9)
        await propertyCheck(count: 400, input: weights, Gen.int(in: 0...3_000), Gen.bool) { weights, units, small in
            let weights = small ? weights.map { $0 % 4 } : weights
            let parts = MoneyShares.proportional(UInt64(units), to: weights.map(UInt64.init))
            #expect(parts.map(Int.init) == Self.oneUnitAtATime(units, weights: weights), "\(weights) \(units)")
            #expect(parts.reduce(0, +) == UInt64(units))
        }
    }

    @Test func equalIsTheOneUnitAtATimeSplitWithEqualWeights() async {
        await propertyCheck(count: 300, input: Gen.int(in: 1...12), Gen.int(in: 0...500)) { count, units in
            let parts = MoneyShares.equal(UInt64(units), among: count)
            #expect(parts.map(Int.init) == Self.oneUnitAtATime(units, weights: Array(repeating: 7, count: count)))
            #expect(parts.reduce(0, +) == UInt64(units))
            #expect(parts.max()! - parts.min()! <= 1)
        }
    }

    /// Ties go to the first in name order: 100 units by three equal subtotals, and 10 among four people.
    @Test(arguments: [
        (100, [5, 5, 5], [34, 33, 33]),
        (2, [1, 1, 1], [1, 1, 0]),
        (250, [1025, 2100, 2425], [46, 95, 109]),
        (7, [0, 0, 0], [3, 2, 2]),  // no subtotal at all: equally
        (0, [3, 4], [0, 0]),
    ])
    func largestRemainderWithTiesByOrder(units: Int, weights: [Int], expected: [Int]) {
        #expect(MoneyShares.proportional(UInt64(units), to: weights.map(UInt64.init)).map(Int.init) == expected)
    }

    @Test func equalGivesTheLeftOverUnitsToTheFirst() {
        #expect(MoneyShares.equal(60, among: 8) == [8, 8, 8, 8, 7, 7, 7, 7])
        #expect(MoneyShares.equal(5, among: 0) == [])
    }

    /// A fee finer than the currency's unit is rounded half-up to it; the units back to an exact Decimal.
    @Test(arguments: [("60", 0, 60), ("12.5", 0, 13), ("12.49", 0, 12), ("3.005", 2, 301), ("1000", 2, 100_000)])
    func unitsOfAnAmount(text: String, digits: Int, units: Int) {
        #expect(MoneyShares.units(Decimal(string: text)!, digits: digits) == UInt64(units))
        #expect(MoneyShares.amount(units: UInt64(units), digits: digits) == Decimal(units) / pow(10, digits))
    }

    /// Huge subtotals (beyond millionths in 64 bits) still split exactly to the unit.
    @Test func hugeSubtotalsStillSumExactly() {
        let weights = MoneyShares.weights([Decimal(string: "99999999999999999")!, Decimal(string: "1")!, 0])
        let parts = MoneyShares.proportional(1_000, to: weights)
        #expect(parts.reduce(0, +) == 1_000)
        #expect(parts == [1_000, 0, 0])
    }
}
