import Foundation
import Testing

@testable import OrderPressRender
import OrderPressTestSupport

@Suite struct TemplateTests {
    @Test func builtInTemplatesMatchTheTemplatesFolder() throws {
        let folder = TestSupport.repository.appendingPathComponent("templates")
        // Files only, as embed-templates.py embeds them: `models/` holds the page models' declaration.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { (try? folder.appendingPathComponent($0).resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        #expect(names == DefaultTemplates.files.keys.sorted(), "run make templates")
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(DefaultTemplates.files[name] == text, "\(name) differs from its built-in copy: run make templates")
        }
    }

    /// A page kind is one template and one registry entry: neither exists without the other.
    @Test func everyPageTemplateHasItsPageKind() {
        let pageTemplates = DefaultTemplates.files.keys.filter { $0.hasSuffix(".md.mustache") }.map { String($0.dropLast(".md.mustache".count)) }
        #expect(Set(pageTemplates) == Set(PageKind.templates))
        #expect(PageKind.templates.count == Set(PageKind.templates).count)
    }

    @Test func aTemplateFolderOverridesFileByFile() throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["rates.md.mustache": "# Custom {{base}}\n"], in: folder)
        let templates = try TemplateSet.load(overrides: folder)
        #expect(templates.pages.render(["base": "USD"], withTemplate: "rates") == "# Custom USD\n")
        #expect(templates.pages.getTemplate(named: "index") != nil)
    }

    @Test func aBrokenTemplateNamesTheFileAndLine() throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["group.md.mustache": "# {{name}}\n{{#orders}}\n"], in: folder)
        do {
            _ = try TemplateSet.load(overrides: folder)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix(folder.appendingPathComponent("group.md.mustache").path + ": line "))
            #expect(error.exitStatus == .usage)
        }
    }

    /// The first error loading `files` as a templates folder, with the folder's path shown as `T`.
    static func loadError(_ files: [String: String]) -> String? {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(files, in: folder)
        do {
            _ = try TemplateSet.load(overrides: folder)
            return nil
        } catch {
            #expect(error.exitStatus == .usage)
            return error.description.replacingOccurrences(of: folder.path, with: "T")
        }
    }

    @Test(arguments: [
        (["index.md.mustache": "# {{title}}\n{{> index}}\n"],
         "T/index.md.mustache: includes itself through partials (index → index); remove one of these {{> …}} tags"),
        (["group.md.mustache": "{{#people}}{{> person}}{{/people}}", "person.md.mustache": "{{> rates}}", "rates.md.mustache": "{{< group}}{{/group}}"],
         "T/group.md.mustache: includes itself through partials (group → person → rates → group); remove one of these {{> …}} tags"),
        (["rates.md.mustache": "{{> footer}}"],
         "T/rates.md.mustache: {{> footer}} names no template; a partial is one of index, group, group_orders, person, person_orders, moved, tombstone, groups, people, rates, attention, changes, archive"),
        (["rates.md.mustache": "{{>*kind}}"],
         "T/rates.md.mustache: {{>*kind}} is not supported: a dynamic partial takes its name from the data, so it could include its own template; fix the template"),
        (["rates.md.mustache": "{{=<% %>=}}\n<%> rates%>\n"],
         "T/rates.md.mustache: {{=<% %>=}} is not supported: OrderPress templates keep the {{ }} delimiters; fix the template"),
        (["layout.html.mustache": "<title>{{pageTitle}}</title>{{> index}}"],
         "T/layout.html.mustache: {{> index}}: the layout cannot include partials; remove the tag"),
        (["changes.md.mustache": String(repeating: "{{#a}}", count: 101) + String(repeating: "{{/a}}", count: 101)],
         "T/changes.md.mustache: nests sections more than 100 deep; simplify the template"),
    ])
    func partialsThatCannotRenderAreRefusedAtLoad(files: [String: String], message: String) {
        #expect(Self.loadError(files) == message)
    }

    /// Columns count from the start of the file, not of the content-type tag put before it.
    @Test func aParseErrorOnTheFirstLineHasTheFilesColumn() {
        #expect(Self.loadError(["rates.md.mustache": "{{/x}}"]) == "T/rates.md.mustache: line 1, column 4: sectionCloseNameIncorrect; fix the template")
        #expect(Self.loadError(["layout.html.mustache": "{{/x}}"]) == "T/layout.html.mustache: line 1, column 4: sectionCloseNameIncorrect; fix the template")
    }

    /// Partials that end are fine, and a tag inside a comment is no tag.
    @Test func acyclicPartialsRender() throws {
        #expect(Self.loadError(["index.md.mustache": "{{! {{> index}} }}\n{{> rates}}", "rates.md.mustache": "{{> changes}}"]) == nil)
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["index.md.mustache": "Index: {{> rates}}", "rates.md.mustache": "rates of {{base}}"], in: folder)
        #expect(try TemplateSet.load(overrides: folder).pages.render(["base": "USD"], withTemplate: "index") == "Index: rates of USD")
        #expect(TemplatePartials.scan("{{> a}} {{{b}}} {{<c}}{{$d}}x{{/d}}{{/c}} {{!> e}}").partials == ["a", "c"])
    }

    /// swift-mustache's own escaping missed a quote carrying a combining mark, which could end an attribute.
    @Test func theLayoutEscapesEveryQuote() throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["layout.html.mustache": "<meta content=\"{{pageTitle}}\">"], in: folder)
        let html = try TemplateSet.load(overrides: folder).layout.render(["pageTitle": "Amy\"\u{301} onmouseover=alert(1) '<b>&"])
        #expect(html == "<meta content=\"Amy&quot;\u{301} onmouseover=alert(1) &apos;&lt;b&gt;&amp;\">")
        #expect(html.unicodeScalars.filter { $0 == "\"" }.count == 2)
    }

    /// The built-in templates, parsed on first use, render as the same templates parsed at load (a
    /// folder holding copies of them), from several threads at once.
    @Test func builtInTemplatesParsedOnFirstUseRenderAsParsedAtLoad() async throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(DefaultTemplates.files, in: folder)
        let (onUse, atLoad) = (try TemplateSet.load(overrides: nil), try TemplateSet.load(overrides: folder))
        func values() -> [String: Any] { ["base": "USD", "title": "T", "name": "N", "pageTitle": "P", "body": "<p>b</p>", "labels": ["total": "Total"]] }
        let rendered = await withTaskGroup(of: [String?].self) { group in
            for _ in 0..<4 {
                group.addTask { PageKind.templates.map { onUse.pages.render(values(), withTemplate: $0) } + [onUse.layout.render(values())] }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let expected = PageKind.templates.map { atLoad.pages.render(values(), withTemplate: $0) } + [atLoad.layout.render(values())]
        #expect(expected.allSatisfy { $0?.isEmpty == false })
        #expect(rendered == Array(repeating: expected, count: 4))
        #expect(onUse.digest == atLoad.digest)
        #expect(onUse.builtIn == atLoad.builtIn)
    }
}
