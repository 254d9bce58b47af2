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

    /// A million (group, person) pairs at a million Form rows: each pair's two summaries hold their
    /// amounts inline, no 64-byte box per fee share.
    @Test func thePairsSummariesAreSmall() {
        #expect(MemoryLayout<PersonTotal>.stride <= 88)
        #expect(MemoryLayout<PersonSummary.GroupShare>.stride <= 64)
    }
}
