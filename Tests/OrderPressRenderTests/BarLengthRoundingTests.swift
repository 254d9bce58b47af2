import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressRender
import OrderPressTestSupport

/// A bar's length (`BarChart.pixels`) is Foundation's rounding, as every shown amount is (`MoneyFormatTests`).
@Suite struct BarLengthRoundingTests {
    /// A bar's length, fast path or Decimal division, is Foundation's rounding of the quotient.
    @Test func barLengthsAreFoundationsRounding() async {
        let pairs = Generator<(Decimal, Decimal, Int), Shrink.None<(Decimal, Decimal, Int)>> { rng in
            let (value, _) = DecimalFixtures.anyShape.run(using: &rng)
            let (largest, _) = DecimalFixtures.anyShape.run(using: &rng)
            let share = [value, largest / Decimal(Int.random(in: 1...7, using: &rng)), largest / 2 / Decimal(Int.random(in: 1...400, using: &rng))]
            return (abs(share[Int.random(in: 0..<3, using: &rng)]), abs(largest), Int.random(in: 0...400, using: &rng))
        }
        await propertyCheck(count: 3000, input: pairs) { value, largest, width in
            guard largest > 0 else { return }
            let expected = NSDecimalNumber(decimal: DecimalFixtures.foundation(value * Decimal(width) / largest, 0)).intValue
            if let fast = DecimalText.roundedRatio(value, times: width, over: largest) {
                #expect(fast == expected, "\(value) × \(width) / \(largest)")
            }
            #expect(BarChart.pixels(value, of: largest, in: width) == expected, "\(value) × \(width) / \(largest)")
        }
        #expect(DecimalText.roundedRatio(Decimal(string: "12.5")!, times: 290, over: 100) == 36)  // 36.25
        #expect(DecimalText.roundedRatio(1, times: 1, over: 2) == 1)  // a half rounds up
        #expect(DecimalText.roundedRatio(-1, times: 1, over: 2) == nil)
    }
}
