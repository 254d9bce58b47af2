/// Reads a template the way swift-mustache 2 reads it (Template+Parser.swift: standalone lines,
/// whitespace before tags), after the `{{% CONTENT_TYPE:…}}` tag TemplateSet puts before every
/// template, so a template's first line never counts as a new line (a tag there is never standalone).
/// What the generator does not compile (lambdas, transforms, set delimiters, inheritance, dynamic
/// partials, an indented standalone partial) is refused with the template and line.
struct TemplateParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private let file: String

    private static let nameCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*".unicodeScalars)

    static func parse(_ text: String, file: String) throws(Refusal) -> [TemplateNode] {
        if text.unicodeScalars.contains("\r") {
            throw Refusal("\(file): carriage returns are not compiled; save the template with \\n line ends")
        }
        var parser = TemplateParser(scalars: Array(text.unicodeScalars), file: file)
        return try parser.parse(newLine: false, section: nil)
    }

    private init(scalars: [Unicode.Scalar], file: String) {
        self.scalars = scalars
        self.file = file
    }

    private var atEnd: Bool { index >= scalars.count }
    private var current: Unicode.Scalar? { atEnd ? nil : scalars[index] }

    private var location: String {
        "\(file), line \(scalars[..<min(index, scalars.count)].lazy.filter { $0 == "\n" }.count + 1)"
    }

    private func starts(with text: String, at position: Int) -> Bool {
        let wanted = Array(text.unicodeScalars)
        return position + wanted.count <= scalars.count && Array(scalars[position..<position + wanted.count]) == wanted
    }

    private mutating func read(while allowed: (Unicode.Scalar) -> Bool) -> String {
        var text = String.UnicodeScalarView()
        while let scalar = current, allowed(scalar) {
            text.append(scalar)
            index += 1
        }
        return String(text)
    }

    private static func blank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }
    private static func space(_ scalar: Unicode.Scalar) -> Bool { blank(scalar) || scalar == "\n" }

    /// swift-mustache's hasLineFinished: only blanks to the end of the line (consumed with its newline)
    /// or of the text.
    private mutating func lineFinished() -> Bool {
        if atEnd { return true }
        var position = index
        while position < scalars.count, Self.blank(scalars[position]) { position += 1 }
        if position < scalars.count, scalars[position] == "\n" {
            index = position + 1
            return true
        }
        return false
    }

    private mutating func readName() throws(Refusal) -> String {
        _ = read(while: Self.space)
        let name = read { Self.nameCharacters.contains($0) || $0 == "(" || $0 == ")" }
        _ = read(while: Self.space)
        guard starts(with: "}}", at: index) else { throw Refusal("\(location): unfinished tag `{{\(name)`") }
        index += 2
        if name.contains("(") || name.contains(")") { throw Refusal("\(location): transforms (`\(name)`) are not compiled") }
        if name.isEmpty { throw Refusal("\(location): a tag without a name") }
        return name
    }

    private mutating func parse(newLine startsOnNewLine: Bool, section: String?) throws(Refusal) -> [TemplateNode] {
        var nodes: [TemplateNode] = []
        var newLine = startsOnNewLine
        var whitespaceBefore = ""
        while !atEnd {
            if newLine { whitespaceBefore = read(while: Self.blank) }
            var text = String.UnicodeScalarView()
            var opened = false
            while let scalar = current, scalar != "\n" {
                if starts(with: "{{", at: index) {
                    index += 2
                    opened = true
                    break
                }
                text.append(scalar)
                index += 1
            }
            if !opened, current == "\n" {
                nodes.append(.text(whitespaceBefore + String(text) + "\n"))
                newLine = true
                index += 1
                continue
            }
            if !text.isEmpty {
                nodes.append(.text(whitespaceBefore + String(text)))
                whitespaceBefore = ""
                newLine = false
            }
            if !opened { break }
            var setNewLine = false
            let tagStart = location
            switch current {
            case "#", "^":
                let inverted = current == "^"
                index += 1
                let name = try readName()
                if newLine && lineFinished() {
                    setNewLine = true
                } else if !whitespaceBefore.isEmpty {
                    nodes.append(.text(whitespaceBefore))
                    whitespaceBefore = ""
                }
                let inner = try parse(newLine: setNewLine, section: name)
                nodes.append(inverted ? .inverted(name, inner) : .section(name, inner))
            case "/":
                index += 1
                let name = try readName()
                guard name == section else {
                    throw Refusal("\(tagStart): `{{/\(name)}}` closes no open section (open: \(section ?? "none"))")
                }
                if newLine && lineFinished() {
                } else if !whitespaceBefore.isEmpty {
                    nodes.append(.text(whitespaceBefore))
                }
                return nodes
            case "!":
                var end = index
                while end < scalars.count, !starts(with: "}}", at: end) { end += 1 }
                guard end < scalars.count else { throw Refusal("\(tagStart): unfinished comment") }
                index = end + 2
                setNewLine = newLine && lineFinished()
            case "{", "&":
                let triple = current == "{"
                if !whitespaceBefore.isEmpty {
                    nodes.append(.text(whitespaceBefore))
                    whitespaceBefore = ""
                }
                index += 1
                let name = try readName()
                if triple {
                    guard current == "}" else { throw Refusal("\(tagStart): `{{{\(name)}}` lacks its third brace") }
                    index += 1
                }
                nodes.append(.variable(name, escaped: false))
            case ">":
                index += 1
                _ = read(while: Self.space)
                if current == "*" { throw Refusal("\(tagStart): dynamic partials are not compiled") }
                let name = read { Self.nameCharacters.contains($0) || $0 == "(" || $0 == ")" || $0 == "/" }
                _ = read(while: Self.space)
                guard starts(with: "}}", at: index) else { throw Refusal("\(tagStart): unfinished partial tag") }
                index += 2
                if !whitespaceBefore.isEmpty { nodes.append(.text(whitespaceBefore)) }
                if newLine && lineFinished() {
                    setNewLine = true
                    if !whitespaceBefore.isEmpty {
                        throw Refusal(
                            "\(tagStart): an indented standalone partial (`{{> \(name)}}`) is not compiled; start it at the line's beginning")
                    }
                }
                nodes.append(.partial(name))
                whitespaceBefore = ""
            case "<", "$", "=":
                throw Refusal("\(tagStart): `{{\(current!)` (inheritance or set delimiters) is not compiled")
            case "%":
                throw Refusal("\(tagStart): `{{%` configuration tags are not compiled; TemplateSet sets the content type")
            default:
                if !whitespaceBefore.isEmpty {
                    nodes.append(.text(whitespaceBefore))
                    whitespaceBefore = ""
                }
                nodes.append(.variable(try readName(), escaped: true))
            }
            newLine = setNewLine
        }
        if let section { throw Refusal("\(file): section `\(section)` is never closed") }
        return nodes
    }
}
