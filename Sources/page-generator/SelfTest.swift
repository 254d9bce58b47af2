import Foundation

/// What the generator must refuse, with the words its message must hold (`--self-test`, run by
/// GeneratedPagesTests).
enum SelfTest {
    static let refusals: [(template: String, words: String)] = [
        ("{{#orders}}{{/people}}", "closes no open section"),
        ("{{#orders}}", "never closed"),
        ("{{name(x)}}", "transforms"),
        ("{{>*kind}}", "dynamic partials"),
        ("{{=<% %>=}}", "set delimiters"),
        ("{{<group}}{{/group}}", "inheritance"),
        ("{{$block}}{{/block}}", "inheritance"),
        ("{{% CONTENT_TYPE:HTML}}", "configuration tags"),
        ("a\r\n", "carriage returns"),
        ("x\n  {{> rates}}\n", "indented standalone partial"),
        ("{{> nothing}}", "names no Markdown template"),
        ("{{shopSheet}}", "a variable cannot show"),
        ("{{#shopSheet}}{{.}}{{/shopSheet}}", "a variable cannot show"),
        ("{{orders}}", "a variable cannot show"),
        ("{{labels.Total}}", "not a label name"),
        ("{{> group}}", "nest more than 10 deep"),
    ]

    /// Model declarations the manifest must refuse.
    static let badModels = [
        "struct T\n    x: Decimal\n", "struct T\n    y: String { name }\n", "struct T\n    a = [1]\n",
        "struct T\n    a: [Int] = [1]\n", "struct T\n    a: String\n    a: Int\n", "struct T: index\nstruct U: index\n",
        "    a: String\n", "enum T\n",
    ]

    static func run(root: URL) -> [String] {
        var failures: [String] = []
        let manifest: ModelManifest
        do throws(Refusal) {
            manifest = try ModelManifest(
                String(decoding: (try? Data(contentsOf: root.appendingPathComponent(PageGenerator.manifestPath))) ?? Data(), as: UTF8.self),
                file: PageGenerator.manifestPath)
        } catch {
            return ["the manifest does not read: \(error)"]
        }
        guard let group = manifest.models.first(where: { $0.template == "group" }) else { return ["no model for group"] }
        for (template, words) in refusals {
            do throws(Refusal) {
                let nodes = try TemplateParser.parse(template, file: "test")
                var compiler = TemplateCompiler(manifest: manifest, templates: ["rates": [], "group": words.hasPrefix("nest") ? nodes : []])
                compiler.file = "test"
                _ = try compiler.compile(nodes, root: ("self", .page(group.name)), html: false, indent: 2)
                failures.append("\(template.debugDescription) compiled; expected a refusal with \(words.debugDescription)")
            } catch {
                if !error.description.contains(words) {
                    failures.append("\(template.debugDescription): \(error) (expected \(words.debugDescription))")
                }
            }
        }
        for text in badModels {
            do throws(Refusal) {
                let read = try ModelManifest(text, file: "test")
                for model in read.models {
                    for field in model.fields { _ = try read.type(field.type, where: "test") }
                }
                failures.append("model \(text.debugDescription) read")
            } catch {}
        }
        return failures
    }
}
