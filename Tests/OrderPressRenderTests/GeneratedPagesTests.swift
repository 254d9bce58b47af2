import Foundation
import Mustache
import PropertyBased
import Testing

@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressRender
import OrderPressSiteTestSupport
import OrderPressTestSupport

/// The page models' `*+Generated.swift` are page-generator's compilation of the built-in templates
/// (Sources/page-generator): they must be made from the templates and models in the repository, and
/// write what swift-mustache renders from the same template and model (also `BuiltInPagesTests`, on
/// whole sites).
@Suite struct GeneratedPagesTests {
    /// The generator, run over the repository, would write exactly the files that are compiled in (a
    /// template or model changed without `make templates`, a generated file edited by hand or left
    /// over all fail); and it refuses, naming the tag, every construct it cannot compile
    /// (`--self-test`, its table `SelfTest.refusals`).
    @Test(arguments: ["--check", "--self-test"])
    func theGenerator(mode: String) throws {
        let generator = TestSupport.binary.deletingLastPathComponent().appendingPathComponent("page-generator")
        let result = try TestSupport.run([mode, "--root", TestSupport.repository.path], executable: generator)
        #expect(result.status == 0, "\(result.stderr)")
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
        await propertyCheck(count: 30, input: GeneratedSites.sites) { site in
            let built = GeneratedSites.build(site, sample: sample, fetched: fetched)
            let context = built.context(limits: site.limits)
            let builder = PageBuilder(context: context)
            for page in PageKind.all.flatMap({ $0.pages(context) }) {
                let model = page.model(builder)
                #expect(type(of: model).template == page.template)
                let compiled = Optional(model.markdown(labels: builder.builtIn.labels))
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
