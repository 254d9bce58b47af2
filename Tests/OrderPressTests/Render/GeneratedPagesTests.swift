import Crypto
import Foundation
import Mustache
import PropertyBased
import Testing

@testable import OrderPress

/// `GeneratedPages` is `scripts/generate-pages.py`'s compilation of the built-in templates: it must
/// be made from the templates, models and generator in the repository, and write what swift-mustache
/// renders from the same template and model (also `BuiltInPagesTests`, on whole sites).
@Suite struct GeneratedPagesTests {
    /// The digest the generator writes into the file, computed the same way from the files as they are now.
    @Test func theGeneratedFileIsCurrent() throws {
        let root = TestSupport.repository
        var inputs = ["scripts/generate-pages.py", "Sources/OrderPress/Render/PageModels.swift", "Sources/OrderPress/Render/PageCell.swift"]
        inputs += try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("templates").path)
            .filter { $0.hasSuffix(".mustache") }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { "templates/\($0)" }
        var digest = SHA256()
        for path in inputs {
            digest.update(data: Data(path.utf8) + [0] + (try Data(contentsOf: root.appendingPathComponent(path))) + [0])
        }
        #expect(
            Hex.lowercase(digest.finalize()) == GeneratedPages.sourceDigest,
            "GeneratedPages.swift is older than templates/, PageModels.swift, PageCell.swift or the generator: run make templates")
    }

    /// The generator, run over the repository, would write exactly the file that is compiled in (also
    /// catching an edit by hand, which the digest does not); and it refuses, naming the tag, every
    /// construct it cannot compile (`--self-test`, its table `REFUSALS`).
    @Test(arguments: ["--check", "--self-test"])
    func theGenerator(mode: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestSupport.repository.appendingPathComponent("scripts/generate-pages.py").path, mode]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
    }

    /// Every built-in Markdown template has its compiled writer, and every page kind's model reaches one.
    @Test func everyPageTemplateIsCompiled() {
        #expect(GeneratedPages.templates == Set(PageKind.templates))
        #expect(BuiltInPages.kinds == Set(PageKind.templates).union(["layout"]))
    }

    /// Each page of generated sites, its full view model written by the compiled template and by
    /// swift-mustache (its cells as their text, its rows as arrays).
    @Test func everyPageModelWritesAsMustacheRendersIt() async throws {
        let sample = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: sample).fetch()
        let templates = try TemplateSet.load(overrides: nil)
        await propertyCheck(count: 30, input: BuiltInPagesTests.sites) { site in
            let built = BuiltInPagesTests.build(site, sample: sample, fetched: fetched)
            let context = built.context(limits: site.limits)
            let builder = PageBuilder(context: context)
            for page in PageKind.all.flatMap({ $0.pages(context) }) {
                let model = page.model(builder)
                let compiled = GeneratedPages.markdown(model, template: page.template, labels: builder.builtIn.labels)
                var values = TemplateContext.make(model) as? [String: Any] ?? [:]
                values["labels"] = context.markdownLabels
                let mustache = templates.pages.render(values, withTemplate: page.template) ?? ""
                #expect(compiled.map { String(decoding: $0, as: UTF8.self) } == mustache, "\(page.path) for \(site)")
            }
        }
    }

    /// The layout is cut around markers once per build; values that hold the markers' characters
    /// make it write each page whole, with the same bytes as swift-mustache.
    @Test(arguments: ["Orders", "\u{E000}&title\u{E000}", "a \u{E000} b & <c>"])
    func theLayoutWritesAsMustacheRendersIt(siteTitle: String) throws {
        let templates = try TemplateSet.load(overrides: nil)
        let model = PageModels.Layout(
            language: "en", labels: ["rates": "Rates & <fees>", "attention": "Attention", "changes": "Changes", "made_by": "by \u{E000}"],
            feedTitle: "Feed \"x\"", pageTitle: "", siteTitle: siteTitle, root: "../", attentionCount: "3", dataAsOf: "now", body: "")
        let layout = BuiltInPages.Layout(model)
        for (title, body) in [("Amy & <Ben>", "<p>x</p>\n"), ("\u{E000}&body\u{E000}", "\u{E000}&title\u{E000}"), ("", "")] {
            var page = model
            (page.pageTitle, page.body) = (title, body)
            #expect(String(decoding: layout.html(title: title, body: Data(body.utf8)), as: UTF8.self) == templates.layout.render(page))
        }
    }
}
