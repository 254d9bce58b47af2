import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

@Suite struct FlatTableTests {
    /// Whatever is inserted is found with its number, and nothing else is, through every growth of the
    /// table: against a Dictionary of the same keys, short texts that differ in a byte or two.
    @Test func findsWhatADictionaryFinds() async {
        let texts = Gen.int(in: 0...3000).array(of: 0...400)
        await propertyCheck(count: 100, input: texts) { picks in
            var table = FlatTable<TextBits>()
            var reference: [TextBits: Int32] = [:]
            for pick in picks {
                let bits = TextBits("n\(pick)")!
                #expect(table[bits] == reference[bits])
                if reference[bits] == nil {
                    let number = Int32(reference.count)
                    table.insert(bits, number)
                    reference[bits] = number
                }
            }
            for pick in 0...3000 {
                let bits = TextBits("n\(pick)")!
                #expect(table[bits] == reference[bits], "n\(pick)")
            }
        }
    }

    /// `updateValue` sets a key's number and returns the one it had, as a Dictionary's does, from a
    /// table made with room for some keys or none, through every growth.
    @Test func updatesAsADictionaryUpdates() async {
        let steps = Gen.int(in: 0...300).array(of: 0...600)
        await propertyCheck(count: 100, input: steps) { picks in
            var table = picks.count % 2 == 0 ? FlatTable<TextBits>() : FlatTable<TextBits>(minimumCapacity: picks.count)
            var reference: [TextBits: Int32] = [:]
            for (step, pick) in picks.enumerated() {
                let bits = TextBits("n\(pick)")!
                #expect(table.updateValue(Int32(step), forKey: bits) == reference.updateValue(Int32(step), forKey: bits))
            }
            for pick in 0...300 {
                let bits = TextBits("n\(pick)")!
                #expect(table[bits] == reference[bits], "n\(pick)")
            }
        }
    }
}
