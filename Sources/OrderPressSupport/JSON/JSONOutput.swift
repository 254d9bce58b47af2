import Foundation

/// How OrderPress encodes a value as JSON: pretty, keys sorted, so that the bytes depend on nothing
/// but the value, and ending in a newline. Long or frequent JSON is written by hand instead
/// (`PrettyJSONWriter`, `JSONEscaper`).
package enum JSONOutput {
    package static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Only strings, numbers, bools, arrays and string-keyed objects reach here: encoding cannot fail.
        var data = (try? encoder.encode(value)) ?? Data()
        data.append(0x0A)
        return data
    }
}
