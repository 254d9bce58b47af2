import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// Bytes in memory are written as hex straight into the string: exactly the hex of the same bytes as a sequence.
@Suite struct HexTests {
    @Test func bytesInMemoryGiveTheHexOfTheSequence() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...255).array(of: 0...40)) { values in
            let bytes = values.map(UInt8.init)
            let inMemory = bytes.withUnsafeBytes { Hex.lowercase($0) }
            #expect(inMemory == Hex.lowercase(bytes.lazy.map { $0 }))
        }
        #expect(([0x00, 0x0F, 0xA5, 0xFF] as [UInt8]).withUnsafeBytes { Hex.lowercase($0) } == "000fa5ff")
    }
}
