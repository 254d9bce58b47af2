import Foundation

/// Writes one template's nodes as Swift statements, every name resolved at generation time the way
/// swift-mustache's renderer looks it up (Template+Render.swift `getChild`): the first part of a dotted
/// name up the context stack, innermost first, the rest inside what was found; a nil optional counts as
/// absent, so the look-up goes on outwards. Sections over arrays loop, over a Bool test it, over
/// anything else present render once with it pushed; inverted sections render when the value is
/// absent, false or an empty array. A local is named after its depth (`v3`), so a template edit
/// renames nothing outside the lines it changes.
struct TemplateCompiler {
    typealias Frame = (expression: String, type: FieldType)

    let manifest: ModelManifest
    /// Markdown templates by name, for partials.
    let templates: [String: [TemplateNode]]
    var file = ""
    private(set) var lines: [String] = []
    /// Every `labels.…` name the templates show: `LabelTable` looks each up once per build.
    private(set) var labels: Set<String> = []

    init(manifest: ModelManifest, templates: [String: [TemplateNode]]) {
        self.manifest = manifest
        self.templates = templates
    }

    /// The statements writing `nodes` on `root` (`self` or a parameter), at `indent`; `html` escapes `{{…}}`.
    mutating func compile(_ nodes: [TemplateNode], root: Frame, html: Bool, indent: Int) throws(Refusal) -> [String] {
        lines = []
        try write(nodes, frames: [root], html: html, indent: indent, depth: 0)
        return lines
    }

    private mutating func emit(_ indent: Int, _ line: String) {
        lines.append(String(repeating: "    ", count: indent) + line)
    }

    private func fields(of model: String) throws(Refusal) -> [String: FieldType] {
        var fields: [String: FieldType] = [:]
        for field in manifest.model(named: model)?.fields ?? [] {
            fields[field.name] = try manifest.type(field.type, where: "PageModels.\(model).\(field.name)")
        }
        return fields
    }

    /// What `name` is inside a value of `type`: its expression and type (optional when it may be
    /// absent); nil when such a value never has it (scalars and arrays have no named children).
    private mutating func child(_ expression: String, _ type: FieldType, _ name: String) throws(Refusal) -> Frame? {
        switch type {
        case .page(let model):
            if name == "labels" { return ("labels", .labels) }
            return try fields(of: model)[name].map { ("\(expression).\(name)", $0) }
        case .structure(let model):
            return try fields(of: model)[name].map { ("\(expression).\(name)", $0) }
        case .dictionary:
            return ("\(expression)[\(SwiftText.literal(name))]", .optional(.string))
        case .labels:
            guard let first = name.unicodeScalars.first, ("a"..."z").contains(first),
                name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
            else {
                throw Refusal("\(file): `labels.\(name)` is not a label name (lower case letters, digits and `_`)")
            }
            labels.insert(name)
            return ("\(expression)[.\(SwiftText.camel(name))]", .optional(.string))
        default:
            return nil
        }
    }

    /// Runs `body` into lines of its own and returns them.
    private mutating func capture(_ body: (inout TemplateCompiler) throws(Refusal) -> Void) throws(Refusal) -> [String] {
        let saved = lines
        lines = []
        try body(&self)
        let made = lines
        lines = saved
        return made
    }

    private static func uses(_ name: String, in lines: [String]) -> Bool {
        lines.contains { line in
            line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).contains { $0 == name }
        }
    }

    private static func local(_ indent: Int) -> String { "v\(indent)" }

    typealias Found = (inout TemplateCompiler, String, FieldType, Int) throws(Refusal) -> Void
    typealias Missing = (inout TemplateCompiler, Int) throws(Refusal) -> Void

    /// `if let v = expression { found(v) } else { otherwise() }`, or a nil test when `found` does not use v.
    private mutating func branch(
        _ indent: Int, _ expression: String, _ inner: FieldType, found: Found, otherwise: Missing
    ) throws(Refusal) {
        let value = Self.local(indent)
        let made = try capture { (compiler) throws(Refusal) in try found(&compiler, value, inner, indent + 1) }
        emit(indent, Self.uses(value, in: made) ? "if let \(value) = \(expression) {" : "if \(expression) != nil {")
        lines += made
        let rest = try capture { (compiler) throws(Refusal) in try otherwise(&compiler, indent + 1) }
        if !rest.isEmpty {
            emit(indent, "} else {")
            lines += rest
        }
        emit(indent, "}")
    }

    /// swift-mustache's getChild: `.` is the top of the stack; `.a.b` looks only in the top; `a.b` finds
    /// `a` up the stack (an absent value, such as a nil optional, lets the search go on) and `b` inside
    /// it, without going on.
    private mutating func lookup(_ name: String, _ frames: [Frame], indent: Int, found: Found, missing: Missing) throws(Refusal) {
        if name == "." {
            let top = frames[frames.count - 1]
            return try found(&self, top.expression, top.type, indent)
        }
        let topOnly = name.hasPrefix(".")
        let parts = name.split(separator: ".").map(String.init)

        func rest(_ compiler: inout TemplateCompiler, _ expression: String, _ type: FieldType, _ parts: ArraySlice<String>, _ indent: Int)
            throws(Refusal)
        {
            guard let part = parts.first else { return try found(&compiler, expression, type, indent) }
            guard let (childExpression, childType) = try compiler.child(expression, type, part) else { return try missing(&compiler, indent) }
            if case .optional(let inner) = childType {
                return try compiler.branch(
                    indent, childExpression, inner,
                    found: { (compiler, value, type, indent) throws(Refusal) in try rest(&compiler, value, type, parts.dropFirst(), indent) },
                    otherwise: missing)
            }
            try rest(&compiler, childExpression, childType, parts.dropFirst(), indent)
        }

        func search(_ compiler: inout TemplateCompiler, _ level: Int, _ indent: Int) throws(Refusal) {
            if level < 0 || (topOnly && level < frames.count - 1) { return try missing(&compiler, indent) }
            let (expression, type) = frames[level]
            guard let (childExpression, childType) = try compiler.child(expression, type, parts[0]) else {
                return try search(&compiler, level - 1, indent)
            }
            if case .optional(let inner) = childType {
                return try compiler.branch(
                    indent, childExpression, inner,
                    found: { (compiler, value, type, indent) throws(Refusal) in try rest(&compiler, value, type, parts.dropFirst(), indent) },
                    otherwise: { (compiler, indent) throws(Refusal) in try search(&compiler, level - 1, indent) })
            }
            try rest(&compiler, childExpression, childType, parts.dropFirst(), indent)
        }

        try search(&self, frames.count - 1, indent)
    }

    private mutating func write(_ nodes: [TemplateNode], frames: [Frame], html: Bool, indent: Int, depth: Int) throws(Refusal) {
        var pending = ""
        func flush(_ compiler: inout TemplateCompiler) {
            if !pending.isEmpty {
                compiler.emit(indent, "out.text(\(SwiftText.literal(pending)))")
                pending = ""
            }
        }
        for node in nodes {
            if case .text(let text) = node {
                pending += text
                continue
            }
            flush(&self)
            switch node {
            case .text: break
            case .variable(let name, let escaped):
                try variable(name, escaped: escaped && html, frames, indent: indent)
            case .section(let name, let body):
                try section(name, body, frames, html: html, indent: indent, depth: depth)
            case .inverted(let name, let body):
                try inverted(name, body, frames, html: html, indent: indent, depth: depth)
            case .partial(let name):
                guard let partial = templates[name] else { throw Refusal("\(file): `{{> \(name)}}` names no Markdown template") }
                if depth > 10 { throw Refusal("\(file): partials nest more than 10 deep (does `\(name)` include itself?)") }
                // A partial renders with its own content type: every page template is TEXT.
                try write(partial, frames: frames, html: false, indent: indent, depth: depth + 1)
            }
        }
        flush(&self)
    }

    private mutating func variable(_ name: String, escaped: Bool, _ frames: [Frame], indent: Int) throws(Refusal) {
        let file = file
        try lookup(
            name, frames, indent: indent,
            found: { (compiler, expression, type, indent) throws(Refusal) in
                let call = escaped ? "html" : "write"
                switch type {
                case .string, .int, .bool: compiler.emit(indent, "out.\(call)(\(expression))")
                // A cell writes itself; in the layout, its text is escaped like any other value.
                case .cell: compiler.emit(indent, escaped ? "out.html(\(expression).description)" : "\(expression).write(into: &out)")
                default: throw Refusal("\(file): `{{\(name)}}` is a \(type.noun), which a variable cannot show")
                }
            },
            missing: { _, _ in })
    }

    private mutating func section(_ name: String, _ body: [TemplateNode], _ frames: [Frame], html: Bool, indent: Int, depth: Int) throws(Refusal) {
        let file = file
        try lookup(
            name, frames, indent: indent,
            found: { (compiler, expression, type, indent) throws(Refusal) in
                switch type {
                case .array(let element):
                    if case .optional = element { throw Refusal("\(file): `{{#\(name)}}` is an array of optionals, which is not compiled") }
                    try compiler.loop(indent, "for {} in \(expression) {", body, frames, element, html: html, depth: depth)
                case .rows(let element):
                    // Made one row at a time, each valid only inside the loop's body (`PageRows`).
                    try compiler.loop(indent, "\(expression).forEach { {} in", body, frames, element, html: html, depth: depth)
                case .bool:
                    compiler.emit(indent, "if \(expression) {")
                    try compiler.write(body, frames: frames, html: html, indent: indent + 1, depth: depth)
                    compiler.emit(indent, "}")
                default:
                    // Any other present value renders the section once, with the value on top of the stack.
                    compiler.emit(indent, "do {")
                    try compiler.write(body, frames: frames + [(expression, type)], html: html, indent: indent + 1, depth: depth)
                    compiler.emit(indent, "}")
                }
            },
            missing: { _, _ in })
    }

    /// `opening` ("for {} in xs {") with the element's name, or `_` when the body never names it.
    private mutating func loop(
        _ indent: Int, _ opening: String, _ body: [TemplateNode], _ frames: [Frame], _ element: FieldType, html: Bool, depth: Int
    ) throws(Refusal) {
        let value = Self.local(indent)
        let made = try capture { (compiler) throws(Refusal) in
            try compiler.write(body, frames: frames + [(value, element)], html: html, indent: indent + 1, depth: depth)
        }
        let name = Self.uses(value, in: made) ? value : "_"
        emit(indent, opening.replacingFirst("{}", with: name))
        lines += made
        emit(indent, "}")
    }

    private mutating func inverted(_ name: String, _ body: [TemplateNode], _ frames: [Frame], html: Bool, indent: Int, depth: Int) throws(Refusal) {
        try lookup(
            name, frames, indent: indent,
            found: { (compiler, expression, type, indent) throws(Refusal) in
                switch type {
                case .array, .rows:
                    // swift-mustache pushes the (empty) array, which names nothing.
                    compiler.emit(indent, "if \(expression).isEmpty {")
                    try compiler.write(body, frames: frames + [(expression, type)], html: html, indent: indent + 1, depth: depth)
                    compiler.emit(indent, "}")
                case .bool:
                    compiler.emit(indent, "if !\(expression) {")
                    try compiler.write(body, frames: frames, html: html, indent: indent + 1, depth: depth)
                    compiler.emit(indent, "}")
                default:
                    break
                }
            },
            missing: { (compiler, indent) throws(Refusal) in
                compiler.emit(indent, "do {")
                try compiler.write(body, frames: frames, html: html, indent: indent + 1, depth: depth)
                compiler.emit(indent, "}")
            })
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
