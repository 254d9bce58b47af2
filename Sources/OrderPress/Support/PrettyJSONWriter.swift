/// Writes JSON byte for byte as `JSONOutput.encode` (JSONEncoder with `.prettyPrinted`,
/// `.sortedKeys`, `.withoutEscapingSlashes`) writes it, for the long lists of `summary.json`:
/// JSONEncoder builds a tree of boxed values per entry first, and at 10,000 orders that was a tenth
/// of a build's instructions. Callers write an object's keys in sorted order themselves (JSONEncoder
/// sorts keys by their UTF-8 bytes). `SummaryDocument`'s tests compare both on generated sites.
struct PrettyJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the open container at each depth has no member yet.
    private var empty: [Bool] = []
    private var level: Int

    /// A writer whose first value sits `level` containers deep.
    init(level: Int = 0) {
        self.level = level
    }

    mutating func openObject() { open(UInt8(ascii: "{")) }
    mutating func openArray() { open(UInt8(ascii: "[")) }
    mutating func closeObject() { close(UInt8(ascii: "}")) }
    mutating func closeArray() { close(UInt8(ascii: "]")) }

    /// Starts the member `key` of the open object; its value comes next.
    mutating func key(_ key: String) {
        nextMember()
        string(key)
        bytes += [0x20, UInt8(ascii: ":"), 0x20]
    }

    /// A member with a string value; none when `value` is nil (as JSONEncoder leaves out a nil property).
    mutating func member(_ key: String, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    mutating func member(_ key: String, _ value: Int) {
        self.key(key)
        int(value)
    }

    /// A member whose value is an object of strings or nulls; none when `members` is nil.
    mutating func member(_ key: String, object members: [String: String?]?) {
        guard let members else { return }
        self.key(key)
        object(members)
    }

    mutating func member(_ key: String, object members: [String: String]?) {
        guard let members else { return }
        self.key(key)
        object(members)
    }

    /// Starts the next element of the open array.
    mutating func element() { nextMember() }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x00..<0x20:
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
                bytes += [Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func int(_ value: Int) { bytes += String(value).utf8 }

    mutating func null() { bytes += "null".utf8 }

    /// A string-keyed object of strings or nulls, keys in JSONEncoder's order.
    mutating func object(_ members: [String: String?]) { object(members) { $0 } }
    mutating func object(_ members: [String: String]) { object(members) { $0 } }

    private mutating func object<Value>(_ members: [String: Value], _ text: (Value) -> String?) {
        openObject()
        for key in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            self.key(key)
            if let value = text(members[key]!) { string(value) } else { null() }
        }
        closeObject()
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        level += 1
        empty.append(true)
    }

    private mutating func nextMember() {
        if empty[empty.count - 1] {
            empty[empty.count - 1] = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
        bytes.append(0x0A)
        indent()
    }

    /// JSONEncoder leaves an empty line inside an empty container.
    private mutating func close(_ bracket: UInt8) {
        level -= 1
        if empty.removeLast() { bytes.append(0x0A) }
        bytes.append(0x0A)
        indent()
        bytes.append(bracket)
    }

    private mutating func indent() {
        bytes += repeatElement(0x20, count: 2 * level)
    }
}
