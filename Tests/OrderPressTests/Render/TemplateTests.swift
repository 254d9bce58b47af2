import Foundation
import Testing

@testable import OrderPress

@Suite struct TemplateTests {
    @Test func builtInTemplatesMatchTheTemplatesFolder() throws {
        let folder = TestSupport.repository.appendingPathComponent("templates")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == DefaultTemplates.files.keys.sorted(), "run make templates")
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(DefaultTemplates.files[name] == text, "\(name) differs from its built-in copy: run make templates")
        }
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
}
