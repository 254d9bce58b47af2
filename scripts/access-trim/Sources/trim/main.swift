import Foundation
import SwiftParser
import SwiftSyntax

// Trims `package` to internal where no other module uses a declaration (issue 37 Deliver 2).
// Usage (from the repository's root; `make access` runs the first and then loop.sh):
//   trim --aggressive [--dry-run] [--keep NAME,...]   decide and rewrite every Sources/OrderPress*/ file
//   trim --restore FILE:LINE:COL...                   put `package` back on the declarations there
//   trim --restore-names NAME,...                     put it back on every declaration of these names
// A declaration keeps `package` when
//   - its name is a token in a file of another module (Sources/*, Tests/*) that does not
//     `@testable import` its module (tests that do see internal declarations anyway);
//   - it is an init, subscript, operator, override or a likely protocol witness, and its type keeps it;
//   - a kept declaration of the same module names it in its signature (everything but bodies), to a fixpoint;
//   - its name is in --keep (names the compiler asked for on an earlier run).
// Members of a type that is not kept are trimmed too. Idempotent: a second run changes nothing.

let witnessNames: Set<String> = [
    "hash", "description", "debugDescription", "encode", "makeIterator", "next", "startIndex", "endIndex", "index",
    "count", "isEmpty", "id", "rawValue", "allCases", "errorDescription", "write", "makeAsyncIterator", "underestimatedCount",
    "log", "metadata", "logLevel", "handleRequest", "distance", "advanced", "formIndex", "indices", "callAsFunction",
    "databaseTableName", "databaseSelection", "handle", "wrappedValue", "projectedValue", "failureReason", "recoverySuggestion",
    "run", "validate", "configuration", "helpMessage", "defaultValue", "reduce", "buildBlock", "buildExpression",
]

struct Decl {
    let file: String
    let module: String
    let names: [String]
    let special: Bool  // follows its type: init, subscript, operator, override, witness-like
    let parents: [String]
    let signature: Set<String>
    let modifierStart: Int
    let modifierEnd: Int
    let line: Int
}

func identifiers(_ node: some SyntaxProtocol) -> Set<String> {
    var out = Set<String>()
    for token in node.tokens(viewMode: .sourceAccurate) {
        if case .identifier(let text) = token.tokenKind { out.insert(text.trimmingCharacters(in: CharacterSet(charactersIn: "`"))) }
    }
    return out
}

/// The declaration's text without bodies: what its callers' modules must be able to see.
func signatureIdentifiers(_ decl: DeclSyntax) -> Set<String> {
    final class Strip: SyntaxRewriter {
        override func visit(_ node: CodeBlockSyntax) -> CodeBlockSyntax { CodeBlockSyntax(statements: []) }
        override func visit(_ node: AccessorBlockSyntax) -> AccessorBlockSyntax {
            // A computed property's getter is a body; its type annotation stays.
            AccessorBlockSyntax(accessors: .getter([]))
        }
        override func visit(_ node: MemberBlockSyntax) -> MemberBlockSyntax {
            // An enum's cases are part of its signature; other members decide for themselves.
            let cases = node.members.filter { $0.decl.is(EnumCaseDeclSyntax.self) }
            return MemberBlockSyntax(members: MemberBlockItemListSyntax(cases))
        }
    }
    return identifiers(Strip(viewMode: .sourceAccurate).rewrite(decl))
}

let accessWords: Set<String> = ["private", "fileprivate", "internal", "package", "public", "open"]

final class Collector: SyntaxVisitor {
    let file: String
    let module: String
    let converter: SourceLocationConverter
    var decls: [Decl] = []
    var conformances: [String: Set<String>] = [:]
    var protocolRequirements: [String: Set<String>] = [:]
    var parents: [String] = []

    init(file: String, module: String, tree: SourceFileSyntax) {
        self.file = file
        self.module = module
        converter = SourceLocationConverter(fileName: file, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    var publicNames = Set<String>()

    func record(_ node: some DeclSyntaxProtocol & WithModifiersSyntax & SyntaxProtocol, names: [String], special: Bool) {
        if node.modifiers.contains(where: { ["public", "open"].contains($0.name.text) }) { publicNames.formUnion(names) }
        guard let modifier = node.modifiers.first(where: { $0.name.text == "package" && $0.detail == nil }) else { return }
        if let attributed = node.asProtocol(WithAttributesSyntax.self),
            attributed.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "usableFromInline" })
        { return }
        let isOverride = node.modifiers.contains { $0.name.text == "override" }
        let start = modifier.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = modifier.endPosition.utf8Offset
        decls.append(
            Decl(
                file: file, module: module, names: names, special: special || isOverride, parents: parents,
                signature: signatureIdentifiers(DeclSyntax(node)), modifierStart: start, modifierEnd: end,
                line: converter.location(for: modifier.positionAfterSkippingLeadingTrivia).line))
    }

    func inherited(_ clause: InheritanceClauseSyntax?) -> Set<String> {
        Set(clause?.inheritedTypes.map { $0.type.trimmedDescription.components(separatedBy: ".").last ?? "" } ?? [])
    }

    var declaredTypes = Set<String>()

    func enter(_ name: String, _ clause: InheritanceClauseSyntax?, declared: Bool = true) {
        if declared { declaredTypes.insert(name) }
        conformances[name, default: []].formUnion(inherited(clause))
        parents.append(name)
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, names: [node.name.text], special: false); enter(node.name.text, node.inheritanceClause); return .visitChildren
    }
    override func visitPost(_ node: StructDeclSyntax) { parents.removeLast() }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, names: [node.name.text], special: false); enter(node.name.text, node.inheritanceClause); return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { parents.removeLast() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, names: [node.name.text], special: false); enter(node.name.text, node.inheritanceClause); return .visitChildren
    }
    override func visitPost(_ node: EnumDeclSyntax) { parents.removeLast() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, names: [node.name.text], special: false); enter(node.name.text, node.inheritanceClause); return .visitChildren
    }
    override func visitPost(_ node: ActorDeclSyntax) { parents.removeLast() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.extendedType.trimmedDescription.components(separatedBy: ".").last ?? ""
        enter(name, node.inheritanceClause, declared: false); return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { parents.removeLast() }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, names: [node.name.text], special: false)
        var requirements = Set<String>()
        for item in node.memberBlock.members {
            if let f = item.decl.as(FunctionDeclSyntax.self) { requirements.insert(f.name.text) }
            if let v = item.decl.as(VariableDeclSyntax.self) {
                for b in v.bindings { if let n = b.pattern.as(IdentifierPatternSyntax.self) { requirements.insert(n.identifier.text) } }
            }
            if item.decl.is(InitializerDeclSyntax.self) { requirements.insert("init") }
            if item.decl.is(SubscriptDeclSyntax.self) { requirements.insert("subscript") }
        }
        protocolRequirements[node.name.text] = requirements
        return .skipChildren
    }
    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, names: [node.name.text], special: false); return .skipChildren
    }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.text
        let isOperator = !(name.first.map { $0.isLetter || $0 == "_" } ?? true)
        record(node, names: [name], special: isOperator || witnessNames.contains(name)); return .skipChildren
    }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, names: ["init"], special: true); return .skipChildren
    }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, names: ["subscript"], special: true); return .skipChildren
    }
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        let names = node.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
        record(node, names: names, special: names.contains(where: witnessNames.contains)); return .skipChildren
    }
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

// MARK: - Reading the package

let arguments = Array(CommandLine.arguments.dropFirst())
let dryRun = arguments.contains("--dry-run")
// Members too are kept only for a reason the compiler gives (`--restore` puts back what a build asks for).
let aggressive = arguments.contains("--aggressive")
if let i = arguments.firstIndex(of: "--restore-names") {
    // Overloads hidden by the trim: every module's declarations of these names.
    let names = Set(arguments[i + 1].split(separator: ",").map(String.init))
    let modules = (try? FileManager.default.contentsOfDirectory(atPath: "Sources"))?.filter { $0.hasPrefix("OrderPress") } ?? []
    try restoreNamed(Dictionary(uniqueKeysWithValues: modules.map { ($0, names) }))
    exit(0)
}
if let i = arguments.firstIndex(of: "--restore") {
    try restore(Array(arguments[(i + 1)...]))
    exit(0)
}
var forced = Set<String>()
if let i = arguments.firstIndex(of: "--keep"), i + 1 < arguments.count {
    forced = Set(arguments[i + 1].split(separator: ",").map(String.init))
}

let manager = FileManager.default
func swiftFiles(_ root: String) -> [String] {
    guard let e = FileManager.default.enumerator(atPath: root) else { return [] }
    return e.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "\(root)/\($0)" }.sorted()
}
func moduleOf(_ path: String) -> String {
    let parts = path.split(separator: "/").map(String.init)
    guard let i = parts.lastIndex(where: { $0 == "Sources" || $0 == "Tests" }), i + 1 < parts.count else { return "" }
    return parts[i + 1]
}

var decls: [Decl] = []
var conformances: [String: [String: Set<String>]] = [:]  // module -> type -> protocols
var requirements: [String: Set<String>] = [:]
var publicNames: [String: Set<String>] = [:]
var declaredTypes: [String: Set<String>] = [:]
var usesByFile: [(module: String, imports: Set<String>, testable: Set<String>, names: Set<String>)] = []
var trees: [String: String] = [:]

for path in swiftFiles("Sources") + swiftFiles("Tests") {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let tree = Parser.parse(source: text)
    let module = moduleOf(path)
    var testable = Set<String>()
    var imports = Set<String>()
    for item in tree.statements {
        if let i = item.item.as(ImportDeclSyntax.self) { imports.insert(i.path.trimmedDescription) }
        if let i = item.item.as(ImportDeclSyntax.self),
            i.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "testable" })
        {
            testable.insert(i.path.trimmedDescription)
        }
    }
    usesByFile.append((module, imports, testable, identifiers(tree)))
    // Generated files are the generators' to write (`make templates` checks them).
    guard path.hasPrefix("Sources/OrderPress"), !path.contains("+Generated"), !text.hasPrefix("// Generated") else { continue }
    trees[path] = text
    let collector = Collector(file: path, module: module, tree: tree)
    collector.walk(tree)
    decls += collector.decls
    publicNames[module, default: []].formUnion(collector.publicNames)
    declaredTypes[module, default: []].formUnion(collector.declaredTypes)
    for (type, protocols) in collector.conformances { conformances[module, default: [:]][type, default: []].formUnion(protocols) }
    for (p, r) in collector.protocolRequirements { requirements[p, default: []].formUnion(r) }
}

// Members are found through any import chain; a top-level name only where its module is imported.
var external: [String: Set<String>] = [:]
var externalTopLevel: [String: Set<String>] = [:]
let modules = Set(decls.map(\.module))
for module in modules {
    var names = Set<String>()
    var topLevel = Set<String>()
    for use in usesByFile where use.module != module && !use.testable.contains(module) {
        names.formUnion(use.names)
        if use.imports.contains(module) { topLevel.formUnion(use.names) }
    }
    external[module] = names
    externalTopLevel[module] = topLevel
}

/// Whether a member named `name` of `type` may witness a requirement of a protocol it conforms to.
@MainActor func mayWitness(_ name: String, type: String, module: String) -> Bool {
    let protocols = conformances[module]?[type] ?? []
    for p in protocols {
        if let r = requirements[p] {
            if r.contains(name) { return true }
        } else if witnessNames.contains(name) || name == "init" || name == "subscript" || !(name.first?.isLetter ?? false) {
            return true
        }
    }
    return false
}

// MARK: - Deciding, to a fixpoint

var kept = [Bool](repeating: false, count: decls.count)
var keptNames: [String: Set<String>] = [:]  // module -> names kept (types and members alike)
for (i, d) in decls.enumerated() where d.names.contains(where: {
    forced.contains($0) || (d.parents.isEmpty ? externalTopLevel[d.module]!.contains($0) : !aggressive && external[d.module]!.contains($0))
}) {
    kept[i] = true
}
var changed = true
while changed {
    changed = false
    keptNames = publicNames
    for (i, d) in decls.enumerated() where kept[i] { keptNames[d.module, default: []].formUnion(d.names) }
    var signatureNames: [String: Set<String>] = [:]
    for (i, d) in decls.enumerated() where kept[i] { signatureNames[d.module, default: []].formUnion(d.signature) }
    for (i, d) in decls.enumerated() where !kept[i] {
        // A type of another module extended here: kept when other modules name it.
        let parentKept = d.parents.last.map { parent in
            (keptNames[d.module]?.contains(parent) ?? false)
                || (!(declaredTypes[d.module]?.contains(parent) ?? false) && external[d.module]!.contains(parent))
        } ?? false
        var keep = d.names.contains { signatureNames[d.module]?.contains($0) ?? false }
        if !keep, parentKept, let parent = d.parents.last {
            keep = d.special || d.names.contains { mayWitness($0, type: parent, module: d.module) }
        }
        // A member of a type of another module (an extension) named nowhere else stays internal.
        if keep {
            kept[i] = true
            changed = true
        }
    }
}

// MARK: - Rewriting

var trimmedCount = 0
var byFile: [String: [Decl]] = [:]
for (i, d) in decls.enumerated() where !kept[i] { byFile[d.file, default: []].append(d) }
for (file, list) in byFile.sorted(by: { $0.key < $1.key }) {
    var bytes = Array(trees[file]!.utf8)
    for d in list.sorted(by: { $0.modifierStart > $1.modifierStart }) {
        var end = d.modifierEnd
        while end < bytes.count, bytes[end] == UInt8(ascii: " ") { end += 1 }
        bytes.removeSubrange(d.modifierStart..<end)
        trimmedCount += 1
        if dryRun { print("\(file):\(d.line): \(d.parents.joined(separator: ".")).\(d.names.joined(separator: ","))") }
    }
    if !dryRun { try Data(bytes).write(to: URL(fileURLWithPath: file)) }
}
FileHandle.standardError.write(Data("trim: \(decls.count) package declarations, \(trimmedCount) trimmed to internal, \(decls.count - trimmedCount) kept\n".utf8))


// MARK: - Restoring what a build asks for

/// Puts `package` back on the innermost declaration around each `file:line:column` (a compiler's
/// "declared here" note, or a witness that must be package), unless it has an access level already.
func restore(_ locations: [String]) throws {
    var byFile: [String: [(Int, Int)]] = [:]
    for location in locations {
        let parts = location.split(separator: ":")
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) else { continue }
        byFile[parts.dropLast(2).joined(separator: ":"), default: []].append((line, column))
    }
    var restored = 0
    var restoredSignatures: [String: Set<String>] = [:]
    for (file, positions) in byFile {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let tree = Parser.parse(source: text)
        let converter = SourceLocationConverter(fileName: file, tree: tree)
        var inserts = Set<Int>()
        for (line, column) in positions {
            let offset = converter.position(ofLine: line, column: column).utf8Offset
            var node: Syntax? = tree.token(at: AbsolutePosition(utf8Offset: offset)).map(Syntax.init)
            var found: (any WithModifiersSyntax)?
            while let n = node {
                if n.is(DeclSyntax.self), let decl = n.asProtocol(WithModifiersSyntax.self), !n.is(EnumCaseDeclSyntax.self),
                    !n.is(ExtensionDeclSyntax.self)
                {
                    found = decl
                    break
                }
                node = n.parent
            }
            guard let decl = found else {
                FileHandle.standardError.write(Data("restore: no declaration at \(file):\(line):\(column)\n".utf8)); continue
            }
            restoredSignatures[file, default: []].formUnion(signatureIdentifiers(DeclSyntax(Syntax(decl))!))
            if decl.modifiers.contains(where: { accessWords.contains($0.name.text) && $0.detail == nil }) { continue }
            let start: Int
            if let first = decl.modifiers.first {
                start = first.positionAfterSkippingLeadingTrivia.utf8Offset
            } else {
                // Before the keyword: after any attributes.
                let syntax = Syntax(decl)
                if let attributed = syntax.asProtocol(WithAttributesSyntax.self), let last = attributed.attributes.last {
                    var p = last.endPositionBeforeTrailingTrivia.utf8Offset
                    let bytes = Array(text.utf8)
                    while p < bytes.count, bytes[p] == UInt8(ascii: " ") || bytes[p] == UInt8(ascii: "\n") { p += 1 }
                    start = p
                } else {
                    start = syntax.positionAfterSkippingLeadingTrivia.utf8Offset
                }
            }
            inserts.insert(start)
        }
        var bytes = Array(text.utf8)
        for offset in inserts.sorted(by: >) { bytes.insert(contentsOf: Array("package ".utf8), at: offset) }
        restored += inserts.count
        try Data(bytes).write(to: URL(fileURLWithPath: file))
    }
    FileHandle.standardError.write(Data("restore: \(restored) declarations made package again\n".utf8))
    // What they name in their signatures must be package too, in their modules.
    var wanted: [String: Set<String>] = [:]
    for (file, names) in restoredSignatures { wanted[moduleOf(file), default: []].formUnion(names) }
    try restoreNamed(wanted)
}

/// Declarations without an access level (trimmed earlier) named in `wanted`, by module, get `package`
/// back, and then what their own signatures name, to a fixpoint.
func restoreNamed(_ start: [String: Set<String>]) throws {
    var wanted = start
    var done: [String: Set<String>] = [:]
    while wanted.contains(where: { !$0.value.isEmpty }) {
        var next: [String: Set<String>] = [:]
        for (module, names) in wanted where !names.isEmpty {
            for file in swiftFiles("Sources/\(module)") {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                let tree = Parser.parse(source: text)
                let finder = Unmarked(names)
                finder.walk(tree)
                guard !finder.found.isEmpty else { continue }
                var bytes = Array(text.utf8)
                for (offset, signature) in finder.found.sorted(by: { $0.0 > $1.0 }) {
                    bytes.insert(contentsOf: Array("package ".utf8), at: offset)
                    next[module, default: []].formUnion(signature.subtracting(done[module, default: []]))
                }
                FileHandle.standardError.write(Data("restore: \(finder.found.count) named in signatures, \(file)\n".utf8))
                try Data(bytes).write(to: URL(fileURLWithPath: file))
            }
            done[module, default: []].formUnion(names)
        }
        wanted = next.mapValues { $0.subtracting([]) }
        for (module, names) in wanted { wanted[module] = names.subtracting(done[module] ?? []) }
    }
}

/// Declarations in type or file scope with no access level whose name is in `names`: where `package` goes.
final class Unmarked: SyntaxVisitor {
    let names: Set<String>
    var found: [(Int, Set<String>)] = []
    var privateDepth = 0
    init(_ names: Set<String>) { self.names = names; super.init(viewMode: .sourceAccurate) }

    func check(_ node: some DeclSyntaxProtocol & WithModifiersSyntax, _ declNames: [String]) {
        guard privateDepth == 0, declNames.contains(where: names.contains),
            !node.modifiers.contains(where: { accessWords.contains($0.name.text) && $0.detail == nil })
        else { return }
        // Not a local: its parent is file scope or a member block.
        guard let parent = node.parent, parent.is(MemberBlockItemSyntax.self) || parent.parent?.parent?.is(SourceFileSyntax.self) == true
        else { return }
        if parent.is(MemberBlockItemSyntax.self) {
            var p = parent.parent
            while let q = p, !q.is(MemberBlockSyntax.self) { p = q.parent }
            if p?.parent?.is(ProtocolDeclSyntax.self) == true { return }
        }
        let start: Int
        if let first = node.modifiers.first { start = first.positionAfterSkippingLeadingTrivia.utf8Offset }
        else if let attributed = Syntax(node).asProtocol(WithAttributesSyntax.self), let last = attributed.attributes.last,
            let keyword = last.nextToken(viewMode: .sourceAccurate)
        { start = keyword.positionAfterSkippingLeadingTrivia.utf8Offset }
        else { start = node.positionAfterSkippingLeadingTrivia.utf8Offset }
        found.append((start, signatureIdentifiers(DeclSyntax(node))))
    }
    func isPrivate(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { ($0.name.text == "private" || $0.name.text == "fileprivate") && $0.detail == nil }
    }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { check(node, [node.name.text]); if isPrivate(node.modifiers) { privateDepth += 1 }; return .visitChildren }
    override func visitPost(_ node: StructDeclSyntax) { if isPrivate(node.modifiers) { privateDepth -= 1 } }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { check(node, [node.name.text]); if isPrivate(node.modifiers) { privateDepth += 1 }; return .visitChildren }
    override func visitPost(_ node: ClassDeclSyntax) { if isPrivate(node.modifiers) { privateDepth -= 1 } }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { check(node, [node.name.text]); if isPrivate(node.modifiers) { privateDepth += 1 }; return .visitChildren }
    override func visitPost(_ node: EnumDeclSyntax) { if isPrivate(node.modifiers) { privateDepth -= 1 } }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { if isPrivate(node.modifiers) || node.modifiers.contains(where: { accessWords.contains($0.name.text) }) { privateDepth += 1 }; return .visitChildren }
    override func visitPost(_ node: ExtensionDeclSyntax) { if isPrivate(node.modifiers) || node.modifiers.contains(where: { accessWords.contains($0.name.text) }) { privateDepth -= 1 } }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { check(node, [node.name.text]); return .skipChildren }
    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind { check(node, [node.name.text]); return .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { check(node, [node.name.text]); return .skipChildren }
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        check(node, node.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }); return .skipChildren
    }
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
