/// The view models as `templates/models/PageModels.txt` declares them, one declaration a line (its
/// header says how): the generator writes them as Swift and reads their fields' types from here, never
/// from Swift source.
struct ModelManifest {
    struct Field {
        var name: String
        var type: String
        var defaultValue: String?
        var documentation: [String]
    }

    struct Model {
        var name: String
        /// The template this is the model of (`index`, `layout`), if any.
        var template: String?
        var documentation: [String]
        var fields: [Field] = []
    }

    var cells: [String] = []
    var models: [Model] = []

    /// Parses the declaration; `file` names it in messages.
    init(_ text: String, file: String) throws(Refusal) {
        var documentation: [String] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let whereAt = "\(file):\(number + 1)"
            let line = raw.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("///") {
                documentation.append(line)
                continue
            }
            let indented = raw.first == " "
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            if !indented, words.first == "cell", words.count == 2, Self.isName(words[1]) {
                cells.append(words[1])
            } else if !indented, words.first == "struct", words.count == 2 {
                let parts = words[1].split(separator: ":", maxSplits: 1).map { String($0).trimmingWhitespace }
                guard Self.isName(parts[0]), parts.count == 1 || Self.isTemplateName(parts[1]) else {
                    throw Refusal("\(whereAt): cannot read `\(line)` (write `struct Name` or `struct Name: template`)")
                }
                models.append(Model(name: parts[0], template: parts.count == 2 ? parts[1] : nil, documentation: documentation))
            } else if indented, !models.isEmpty, let colon = line.firstIndex(of: ":") {
                let name = String(line[..<colon]).trimmingWhitespace
                var type = String(line[line.index(after: colon)...]).trimmingWhitespace
                var defaultValue: String?
                if let equals = type.firstIndex(of: "=") {
                    defaultValue = String(type[type.index(after: equals)...]).trimmingWhitespace
                    type = String(type[..<equals]).trimmingWhitespace
                }
                guard Self.isName(name), !type.isEmpty else {
                    throw Refusal("\(whereAt): cannot read the field `\(line)` (write `name: Type` or `name: Type = default`)")
                }
                if let value = defaultValue, !Self.isDefault(value) {
                    throw Refusal("\(whereAt): the default `\(value)` is not one of [], \"\", nil, true, false or a number")
                }
                guard !models[models.count - 1].fields.contains(where: { $0.name == name }) else {
                    throw Refusal("\(whereAt): `\(name)` is declared twice")
                }
                models[models.count - 1].fields.append(
                    Field(name: name, type: type, defaultValue: defaultValue, documentation: documentation))
            } else {
                throw Refusal("\(whereAt): cannot read `\(line)`")
            }
            documentation = []
        }
        var seen: Set<String> = []
        for name in models.map(\.name) + cells where !seen.insert(name).inserted {
            throw Refusal("\(file): `\(name)` is declared twice")
        }
        var templates: Set<String> = []
        for template in models.compactMap(\.template) where !templates.insert(template).inserted {
            throw Refusal("\(file): two models say they are the model of \(template)")
        }
    }

    func model(named name: String) -> Model? { models.first { $0.name == name } }

    /// The type a field's declaration names, checked: only what the compiled templates can show.
    func type(_ text: String, where whereAt: String) throws(Refusal) -> FieldType {
        let text = text.trimmingWhitespace
        if text.hasSuffix("?") { return .optional(try type(String(text.dropLast()), where: whereAt)) }
        if text == "[String: String]" { return .dictionary }
        if text.hasPrefix("["), text.hasSuffix("]") { return .array(try type(String(text.dropFirst().dropLast()), where: whereAt)) }
        if text.hasPrefix("PageRows<"), text.hasSuffix(">") {
            return .rows(try type(String(text.dropFirst("PageRows<".count).dropLast()), where: whereAt))
        }
        switch text {
        case "String": return .string
        case "Int": return .int
        case "Bool": return .bool
        default: break
        }
        if cells.contains(text) { return .cell(text) }
        if model(named: text) != nil { return .structure(text) }
        throw Refusal(
            "\(whereAt): type `\(text)` is not one the generator compiles (String, Int, Bool, [String: String], arrays, PageRows, optionals, the structs and cells declared)"
        )
    }

    private static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }

    private static func isTemplateName(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    private static func isDefault(_ text: String) -> Bool {
        ["[]", "\"\"", "nil", "true", "false"].contains(text) || (Int(text) != nil)
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
