import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressOutput
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressSlugs
@testable import OrderPressAggregate
@testable import OrderPressDiff
@testable import OrderPressRender
import OrderPressSiteTestSupport
import OrderPressTestSupport

/// The built-in templates are compiled to Swift (`GeneratedPages`, around `BuiltInPages.Layout`); these
/// tests render whole sites both ways (compiled, and swift-mustache on the same built-in templates and
/// the same models: cells as their text, rows as arrays) and require the same bytes.
@Suite struct BuiltInPagesTests {
    @Test func generatedSitesRenderAsThroughMustache() async throws {
        let sample = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: sample).fetch()
        await propertyCheck(count: 60, input: GeneratedSites.sites) { site in
            let built = GeneratedSites.build(site, sample: sample, fetched: fetched)
            var renderer = try! SiteRenderer(templateOverrides: nil)
            renderer.limits = site.limits
            func render() -> RenderedSite {
                renderer.render(
                    configuration: built.configuration, data: built.data, aggregation: built.aggregation, rates: built.rates,
                    history: built.history, now: GoldenSite.now, siteID: GoldenSite.siteID, archives: built.archives)
            }
            // summary.json, put together entry by entry, is what JSONEncoder makes of the whole.
            let context = built.context
            #expect(SummaryDocument.encoded(context).contents == JSONOutput.encode(SummaryDocument(context)))
            let swift = render()
            renderer.usesBuiltInPages = false
            let mustache = render()
            #expect(swift.markdown.map(\.path) == mustache.markdown.map(\.path))
            for (fast, slow) in zip(swift.markdown + swift.site, mustache.markdown + mustache.site) where fast.contents != slow.contents {
                Issue.record("\(fast.path) differs for \(site):\n\(String(decoding: fast.contents, as: UTF8.self))\n---\n\(String(decoding: slow.contents, as: UTF8.self))")
            }
        }
    }

    /// The built-in pages are used for unedited copies of the built-in templates too (sites made by
    /// `orderpress init` have them), and not for an edited one.
    @Test func anUneditedCopyIsBuiltInAndAnEditedOneIsNot() throws {
        let folder = TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(DefaultTemplates.files["group.md.mustache"]!.utf8).write(to: folder.appendingPathComponent("group.md.mustache"))
        try Data(("<!-- ours -->\n" + DefaultTemplates.files["layout.html.mustache"]!).utf8)
            .write(to: folder.appendingPathComponent("layout.html.mustache"))
        let templates = try TemplateSet.load(overrides: folder)
        #expect(templates.builtIn == BuiltInPages.kinds.subtracting(["layout"]))
        #expect(try TemplateSet.load(overrides: nil).builtIn == BuiltInPages.kinds)
    }
}
