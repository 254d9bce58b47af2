import TOMLKit

/// Reads one TOML table, checking types, and remembers which keys were asked for
/// so that anything left over can be reported as unknown.
struct TOMLTableReader {
    private let table: TOMLTable
    /// Dotted path of this table, empty for the root.
    let path: String
    package let file: String
    private var used: Set<String> = []

    init(_ table: TOMLTable, path: String = "", file: String) {
        self.table = table
        self.path = path
        self.file = file
    }

    func qualified(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    var keys: [String] { table.keys.sorted() }

    private mutating func value(_ key: String) -> TOMLValueConvertible? {
        used.insert(key)
        return table[key]
    }

    mutating func string(_ key: String) throws -> String? {
        guard let value = value(key) else { return nil }
        guard let string = value.string else { throw ConfigurationError.wrongType(qualified(key), expected: "a string", in: file) }
        return string
    }

    mutating func int(_ key: String) throws -> Int? {
        guard let value = value(key) else { return nil }
        guard let int = value.int else { throw ConfigurationError.wrongType(qualified(key), expected: "a whole number", in: file) }
        return int
    }

    /// A whole number that must lie in `range`.
    mutating func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let int = try int(key) else { return nil }
        guard range.contains(int) else {
            throw ConfigurationError.invalid(
                qualified(key), "must be a whole number from \(range.lowerBound) to \(range.upperBound) (found \(int))", in: file)
        }
        return int
    }

    mutating func bool(_ key: String) throws -> Bool? {
        guard let value = value(key) else { return nil }
        guard let bool = value.bool else { throw ConfigurationError.wrongType(qualified(key), expected: "true or false", in: file) }
        return bool
    }

    mutating func number(_ key: String) throws -> Double? {
        guard let value = value(key) else { return nil }
        if let int = value.int { return Double(int) }
        guard let double = value.double else { throw ConfigurationError.wrongType(qualified(key), expected: "a number", in: file) }
        return double
    }

    mutating func strings(_ key: String) throws -> [String]? {
        guard let value = value(key) else { return nil }
        guard let array = value.array else { throw ConfigurationError.wrongType(qualified(key), expected: "an array of strings", in: file) }
        return try array.map { element in
            guard let string = element.string else {
                throw ConfigurationError.wrongType(qualified(key), expected: "an array of strings", in: file)
            }
            return string
        }
    }

    mutating func table(_ key: String) throws -> TOMLTableReader? {
        guard let value = value(key) else { return nil }
        guard let table = value.table else { throw ConfigurationError.wrongType(qualified(key), expected: "a table", in: file) }
        return TOMLTableReader(table, path: qualified(key), file: file)
    }

    /// Throws for the first key (in sorted order) that was never asked for.
    func rejectUnknownKeys() throws {
        if let unknown = keys.first(where: { !used.contains($0) }) {
            throw ConfigurationError.unknownKey(qualified(unknown), in: file)
        }
    }
}
