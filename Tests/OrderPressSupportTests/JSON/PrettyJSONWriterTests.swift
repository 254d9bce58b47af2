import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

@Suite struct PrettyJSONWriterTests {

    /// An array of objects of optional strings, nested once more in an object: every container
    /// shape `summary.json`'s lists use, empty ones included.
    static let documents = Generator<[[String: [String: String?]]], Shrink.None<[[String: [String: String?]]]>> { rng in
        (0..<Int.random(in: 0...3, using: &rng)).map { _ in
            Dictionary(
                (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                    let inner = Dictionary(
                        (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                            (PrettyJSONText.text(&rng), Bool.random(using: &rng) ? PrettyJSONText.text(&rng) : nil)
                        }, uniquingKeysWith: { first, _ in first })
                    return (PrettyJSONText.text(&rng), inner)
                }, uniquingKeysWith: { first, _ in first })
        }
    }

    @Test func writesWhatJSONEncoderWrites() async {
        await propertyCheck(count: 500, input: Self.documents) { document in
            var json = PrettyJSONWriter()
            json.openArray()
            for entry in document {
                json.element()
                json.openObject()
                for key in entry.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                    json.key(key)
                    json.object(entry[key]!)
                }
                json.closeObject()
            }
            json.closeArray()
            #expect(Data(json.bytes + [0x0A]) == JSONOutput.encode(document), "\(document)")
        }
    }

    @Test(arguments: [(0, "0"), (-12, "-12"), (1_000_000, "1000000")])
    func writesIntegersAsJSONEncoderDoes(value: Int, expected: String) {
        var json = PrettyJSONWriter()
        json.int(value)
        #expect(String(decoding: json.bytes, as: UTF8.self) == expected)
        #expect(JSONOutput.encode(value) == Data((expected + "\n").utf8))
    }
}
