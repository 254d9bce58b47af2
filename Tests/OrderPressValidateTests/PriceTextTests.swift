import Foundation
import PropertyBased
import Testing

@testable import OrderPressValidate
import OrderPressTestSupport

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
        // Grouped thousands, well and badly: both ways, the fast path reads what the general rules read.
        let grouped = Gen.int(in: 0...9).array(of: 1...14).map { digits in
            var text = ""
            for (index, digit) in digits.enumerated() {
                if index > 0, index % 3 == digits.count % 3 || digit == 7 { text += "," }
                text += String(digit)
                if digit == 9, index == digits.count - 2 { text += "." }
            }
            return text
        }
        await propertyCheck(count: 2000, input: grouped) { text in
            let fast = PriceText.plainDigits(text)
            switch PriceText.parseInGeneral(text) {
            case .success(let general): #expect(fast == general && fast?.description == general.description, "'\(text)'")
            case .failure: #expect(fast == nil, "'\(text)'")
            }
        }
        for text in [
            "35", "35.50", "0.5", ".5", "5.", "000000000000123456789012.1000000", "1234567890123", "0.0000001", "0",
            "1,200", "12,345,678.5", "1,000.", "0,100", ",100", "1,00", "1,0000", "1000,000", "1,000,00", "1,2.5", "1.000,5", "123,456,789,012",
            "1,234,567,890,123", "1,23,456", "12,34,56,789.5", "1,23,45", "123,45,678", "1,234,56,789", "1,2,345", "1,23,456,789",
        ] {
            let fast = PriceText.plainDigits(text)
            switch PriceText.parseInGeneral(text) {
            case .success(let general): #expect(fast?.description == general.description, "'\(text)'")
            case .failure: #expect(fast == nil, "'\(text)'")
            }
        }
    }

    /// India's lakh and crore groups read as the number they write; groups that fit neither kind are refused.
    @Test(arguments: [
        ("1,23,456.78", "123456.78"), ("12,34,567", "1234567"), ("1,00,00,000", "10000000"), ("99,999", "99999"),
        ("1,23,45", nil), ("123,45,678", nil), ("1,234,56,789", nil), ("1,2,345", nil), ("1,23,456,789", nil),
    ] as [(String, String?)])
    func lakhGroupsRead(text: String, value: String?) {
        let expected = value.map { Decimal(string: $0)! }
        #expect(PriceText.plainDigits(text) == expected, "\(text)")
        switch PriceText.parseInGeneral(text) {
        case .success(let read): #expect(read == expected, "\(text)")
        case .failure: #expect(expected == nil, "\(text)")
        }
    }
}
