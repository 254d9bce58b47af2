import Foundation

/// How OrderPress encodes a value as JSON for a file or a message (`summary.json`, `status.json`, the
/// webhook's body and outbox, records in the state): pretty, keys sorted, so that the bytes depend on
/// nothing but the value, and ending in a newline. Written by hand instead, for speed: `summary.json`'s
/// long lists (`PrettyJSONWriter`, the same bytes), the manifest, the cached sheets and their metadata, the
/// unfinished-run marker (through `JSONEscaper`); the state's history entries are compact (`StateDatabase`).
enum JSONOutput {
    static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Only strings, numbers, bools, arrays and string-keyed objects reach here: encoding cannot fail.
        var data = (try? encoder.encode(value)) ?? Data()
        data.append(0x0A)
        return data
    }
}
