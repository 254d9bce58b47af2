import Foundation
import PropertyBased
import Testing

@testable import OrderPressAggregate
import OrderPressTestSupport

/// The summaries' amounts packed as millionths (`PackedDecimals`) read back as the very Decimals they were
/// given, byte for byte — exact sums, and those millionths cannot hold (finer fractions, beyond 64 bits,
/// zeros written with an exponent) — so that every page prints them as before; and the per-pair
/// summaries hold no box for a fee share.
@Suite struct PackedDecimalsTests {
    static let awkward: [Decimal?] = [
        nil, 0, Decimal(), Decimal(sign: .plus, exponent: -2, significand: 0), Decimal(string: "75.50")!, Decimal(string: "0.0000001")!,
        Decimal(string: "123456789012345678901234567890")!, Decimal(string: "-9223372036854.775808")!, -1, Decimal(string: "1e-6")!,
        ExactSum.decimal(micros: .min), ExactSum.decimal(micros: .min + 1), ExactSum.decimal(micros: .max),
    ]

    @Test(arguments: awkward)
    func readsBackTheSameBytes(_ value: Decimal?) {
        for slot in 0..<4 {
            var packed = PackedDecimals()
            packed[slot] = value
            #expect(packed[slot].map { ExactSum.sameBytes($0, value!) } ?? (value == nil), "\(String(describing: value)) in slot \(slot)")
            for other in 0..<4 where other != slot { #expect(packed[other] == 0) }
        }
    }

    @Test func everySlotKeepsItsOwnValueAndCopiesAreIndependent() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...(Self.awkward.count - 1)).array(of: 8), Gen.int(in: Int.min...Int.max)) { picks, any in
            let values: [Decimal?] = picks.enumerated().map { index, pick in
                index % 2 == 0 ? Self.awkward[pick] : ExactSum.decimal(micros: Int64(any) / Int64(pick + 1))
            }
            var packed = PackedDecimals()
            for (index, value) in values.enumerated() { packed[index % 4] = value }
            let copy = packed
            for slot in 0..<4 {
                let expected = values[slot + 4]
                #expect(packed[slot].map { ExactSum.sameBytes($0, expected!) } ?? (expected == nil))
            }
            packed[0] = 7
            packed[1] = Decimal(string: "0.0000001")!
            #expect(copy == { var again = PackedDecimals(); for (index, value) in values.enumerated() { again[index % 4] = value }; return again }())
            #expect(packed[0] == 7 && packed[1] == Decimal(string: "0.0000001")!)
        }
    }

    /// A sum stored as the aggregation stores it (`set(_:to:)`, without its Decimal) reads back as the very
    /// bytes of `value`, whatever the slot held before: sums of any millionths (the two that mark a
    /// slot boxed or empty among them), sums that spilled into a Decimal, over a slot boxed before.
    @Test func aSumReadsBackAsItsValue() async {
        let special: [Int64] = [.min, .min + 1, .max, 0, -1, 1]
        await propertyCheck(
            count: 500, input: Gen.int(in: Int.min...Int.max).array(of: 3), Gen.int(in: 0...(Self.awkward.count - 1)), Gen.int(in: 0...5)
        ) { parts, before, pick in
            var sum = ExactSum()
            for part in parts { sum.add(micros: Int64(part)) }
            if pick % 2 == 0 { sum = ExactSum(); sum.add(micros: special[pick]) }
            if pick == 5 { sum.add(Decimal(string: "0.0000001")!) }
            for slot in 0..<4 {
                var packed = PackedDecimals()
                packed[slot] = Self.awkward[before]
                packed.set(slot, to: sum)
                #expect(packed[slot].map { ExactSum.sameBytes($0, sum.value) } == true, "\(sum.value) over \(String(describing: Self.awkward[before]))")
                for other in 0..<4 where other != slot { #expect(packed[other] == 0) }
            }
        }
    }

    /// A million (group, person) pairs at a million Form rows: each pair's two summaries hold their
    /// amounts inline, no 64-byte box per fee share.
    @Test func thePairsSummariesAreSmall() {
        #expect(MemoryLayout<PersonTotal>.stride <= 88)
        #expect(MemoryLayout<PersonSummary.GroupShare>.stride <= 64)
    }
}
