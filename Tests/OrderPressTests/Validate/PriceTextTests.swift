import Foundation
import PropertyBased
import Testing

@testable import OrderPress

/// The shortcut taken for speed gives exactly what the general rules give.
@Suite struct PriceTextTests {
    /// A price made only of digits and a point reads, and prints, exactly as through every rule.
    @Test func plainDigitPricesReadAsTheGeneralRulesReadThem() async {
        let characters = Array("0123456789.,-+e ")
        let text = Gen.int(in: 0...(characters.count - 1)).array(of: 0...22).map { String($0.map { characters[$0] }) }
        await propertyCheck(count: 2000, input: text) { text in
            guard let fast = PriceText.plainDigits(text) else { return }
            guard case .success(let general) = PriceText.parseInGeneral(text) else {
                Issue.record("'\(text)' read as \(fast) but the general rules refuse it")
                return
            }
            #expect(fast == general && fast.description == general.description, "'\(text)'")
        }
        for text in ["35", "35.50", "0.5", ".5", "5.", "000000000000123456789012.1000000", "1234567890123", "0.0000001", "0"] {
            let fast = PriceText.plainDigits(text)
            switch PriceText.parseInGeneral(text) {
            case .success(let general): #expect(fast?.description == general.description, "'\(text)'")
            case .failure: #expect(fast == nil, "'\(text)'")
            }
        }
    }
}
