import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressCatalogue
@testable import OrderPressValidate
import OrderPressTestSupport

/// A quantity typed with its unit, as people answer a Form's short-answer question, is rejected with
/// the number to write; anything else with what a quantity is.
@Suite struct QuantityTextTests {
    @Test(arguments: [
        ("2杯", "quantity '2杯' is not a plain number; write 2", ReasonCode.quantityFormatted),
        ("２份", "quantity '２份' is not a plain number; write 2", .quantityFormatted),
        ("2 cups", "quantity '2 cups' is not a plain number; write 2", .quantityFormatted),
        ("x3", "quantity 'x3' is not a plain number; write 3", .quantityFormatted),
        ("兩杯", "quantity must be a whole number from 1 to 10,000 (found '兩杯')", .quantityInvalid),
        ("1.5杯", "quantity must be a whole number from 1 to 10,000 (found '1.5杯')", .quantityInvalid),
        ("0杯", "quantity must be a whole number from 1 to 10,000 (found '0杯')", .quantityInvalid),
        ("-1", "quantity must be a whole number from 1 to 10,000 (found '-1')", .quantityInvalid),
        ("1e5", "quantity must be a whole number from 1 to 10,000 (found '1e5')", .quantityInvalid),
        ("2杯3", "quantity must be a whole number from 1 to 10,000 (found '2杯3')", .quantityInvalid),
        ("20000杯", "quantity must be a whole number from 1 to 10,000 (found '20000杯')", .quantityInvalid),
    ])
    func aQuantityWithAUnitSaysWhatToWrite(text: String, english: String, code: ReasonCode) {
        #expect(QuantityText.parse(text) == nil)
        let reason = QuantityText.problem(text)
        #expect(reason.english == english)
        #expect(reason.code == code)
    }
}
