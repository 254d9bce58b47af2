import Foundation
import PropertyBased
import Testing

@testable import OrderPressAggregate
import OrderPressTestSupport

/// A sum's Decimal, written field by field (`ExactSum.decimal(micros:)`), is the one Foundation
/// makes, byte for byte: the same value in the same form, so that it prints, hashes (`RawDecimal`)
/// and compares as before.
@Suite struct ExactSumTests {
    @Test func writtenDecimalsAreFoundationsBytes() async {
        #expect(ExactSum.writesDecimals, "the layout is known on this platform: the written form must be the one tested")
        for value: Int64 in [0, 1, -1, 9, 10, 100, 65_535, 65_536, -65_536, .max, .min, -.max, 4_294_967_296, 281_474_976_710_656] {
            #expect(ExactSum.sameBytes(ExactSum.decimal(micros: value), ExactSum.foundationDecimal(micros: value)), "\(value)")
        }
        // Whole amounts, cents and millionths, with runs of trailing zeros, of either sign, up to 64 bits.
        await propertyCheck(count: 2_000, input: Gen.int(in: -9_999_999...9_999_999), Gen.int(in: Int.min...Int.max)) { small, any in
            let scaled = Int64(small).multipliedReportingOverflow(by: [1, 10, 100, 1_000_000, 1_000_000_000_000][Int(any.magnitude % 5)]).partialValue
            for value in [scaled, Int64(any), Int64(any) / 1_000_000 * 1_000_000] {
                let written = ExactSum.decimal(micros: value)
                #expect(ExactSum.sameBytes(written, ExactSum.foundationDecimal(micros: value)), "\(value)")
                #expect(written == Decimal(string: "\(value)e-6"), "\(value)")
            }
        }
    }
}
