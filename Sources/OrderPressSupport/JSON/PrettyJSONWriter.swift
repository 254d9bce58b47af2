import Foundation

/// Writes JSON byte for byte as `JSONOutput.encode` (JSONEncoder with `.prettyPrinted`,
/// `.sortedKeys`, `.withoutEscapingSlashes`) writes it, for the long lists of `summary.json`:
/// JSONEncoder builds a tree of boxed values per entry first, a large share of a build
/// (docs/benchmarks.md). Callers write an object's keys in sorted order themselves (JSONEncoder
/// sorts keys by their UTF-8 bytes). `SummaryDocument`'s tests compare both on generated sites.
package struct PrettyJSONWriter {
    package private(set) var bytes: [UInt8] = []
    /// Bit `d`: whether the open container `d + 1` deep has no member yet (a bit, not an array of
    /// flags: a writer is made for every entry of `summary.json`).
    private var empty: UInt64 = 0
    private var depth = 0
    private var level: Int

    /// A writer whose first value sits `level` containers deep.
    package init(level: Int = 0) {
        self.level = level
    }

    /// Writes through `write` onto the end of `bytes`, the first value `level` containers deep: one
    /// buffer for a whole run of entries rather than an array made and copied per entry.
    package static func append(to bytes: inout [UInt8], level: Int, _ write: (inout PrettyJSONWriter) -> Void) {
        var json = PrettyJSONWriter(level: level)
        swap(&json.bytes, &bytes)
        write(&json)
        swap(&json.bytes, &bytes)
    }

    package mutating func openObject() { open(UInt8(ascii: "{")) }
    package mutating func openArray() { open(UInt8(ascii: "[")) }
    package mutating func closeObject() { close(UInt8(ascii: "}")) }
    package mutating func closeArray() { close(UInt8(ascii: "]")) }

    /// Starts the member `key` of the open object; its value comes next.
    package mutating func key(_ key: String) {
        nextMember()
        string(key)
        bytes += Self.separator
    }

    /// What separates a key from its value.
    private static let separator = [0x20, UInt8(ascii: ":"), 0x20]

    /// A key as written, escaped and followed by ` : `: for the keys every entry of a list repeats.
    package struct Key: Sendable {
        fileprivate let bytes: [UInt8]

        package init(_ name: String) {
            var json = PrettyJSONWriter()
            json.string(name)
            bytes = json.bytes + PrettyJSONWriter.separator
        }
    }

    package mutating func key(_ key: Key) {
        nextMember()
        bytes += key.bytes
    }

    package mutating func member(_ key: Key, _ value: String) {
        self.key(key)
        string(value)
    }

    package mutating func member(_ key: Key, _ value: Int) {
        self.key(key)
        int(value)
    }

    /// A member whose value is `DecimalText.exact(value)` as a string, written without making it.
    package mutating func member(_ key: Key, exact value: Decimal) {
        self.key(key)
        DecimalText.withExact(value) { string(utf8: $0) }
    }

    /// Starts the next element of the open array.
    package mutating func element() { nextMember() }

    package mutating func string(_ text: String) {
        Text.withUTF8(text) { string(utf8: $0) }
    }

    /// A string from its UTF-8, escaped as JSONEncoder escapes it; the runs between escapes are
    /// copied whole (most names and every amount have none).
    package mutating func string(utf8 text: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var run = 0
        for (index, byte) in text.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<index]))
            run = index + 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            default:
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
                Hex.append(CollectionOfOne(byte), to: &bytes)
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[run...]))
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func int(_ value: Int) { DecimalText.withInteger(value) { bytes.append(contentsOf: $0) } }

    package mutating func null() { bytes += "null".utf8 }

    /// A string-keyed object of strings or nulls, keys in JSONEncoder's order.
    package mutating func object(_ members: [String: String?]) { object(members) { $0 } }
    package mutating func object(_ members: [String: String]) { object(members) { $0 } }

    private mutating func object<Value>(_ members: [String: Value], _ text: (Value) -> String?) {
        openObject()
        for key in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            self.key(key)
            if let value = text(members[key]!) { string(value) } else { null() }
        }
        closeObject()
    }

    private mutating func open(_ bracket: UInt8) {
        precondition(depth < UInt64.bitWidth, "JSON nested over 64 deep")
        bytes.append(bracket)
        level += 1
        empty |= 1 << depth
        depth += 1
    }

    private mutating func nextMember() {
        precondition(depth > 0, "a member outside any container")
        let bit: UInt64 = 1 << (depth - 1)
        if empty & bit != 0 {
            empty &= ~bit
        } else {
            bytes.append(UInt8(ascii: ","))
        }
        lineBreak()
    }

    /// JSONEncoder leaves an empty line inside an empty container.
    private mutating func close(_ bracket: UInt8) {
        precondition(depth > 0, "a container closed that was never opened")
        level -= 1
        depth -= 1
        let bit: UInt64 = 1 << depth
        if empty & bit != 0 { bytes.append(0x0A) }
        empty &= ~bit
        lineBreak()
        bytes.append(bracket)
    }

    /// A line break and the indent of each level, made once.
    private static let lineBreaks = (0..<16).map { [0x0A] + [UInt8](repeating: 0x20, count: 2 * $0) }

    private mutating func lineBreak() {
        if level < Self.lineBreaks.count {
            bytes += Self.lineBreaks[level]
        } else {
            bytes.append(0x0A)
            bytes += repeatElement(0x20, count: 2 * level)
        }
    }
}
