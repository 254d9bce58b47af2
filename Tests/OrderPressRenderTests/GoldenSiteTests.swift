import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressOutput
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressAggregate
@testable import OrderPressDiff
@testable import OrderPressRender
import OrderPressSiteTestSupport
import OrderPressTestSupport

/// The sample site, rendered in-process, compared byte for byte with the files under Fixtures/golden.
/// `make golden` rewrites them; review the diff before committing.
@Suite struct GoldenSiteTests {
    static let golden = TestSupport.golden

    static let firstRun = [
        HistoryEntry(time: "2026-11-21T10:00:00Z", changes: ChangeSet(firstRun: true, deleted: [], added: [], changed: []), sequence: 1)
    ]

    static func renderSample() async throws -> RenderedSite {
        let configuration = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: configuration).fetch()
        var data = try Validator(configuration: configuration).validate(orders: fetched.orders, groups: fetched.groups)
        data.warnings = (fetched.warnings + data.warnings).sorted()
        return try SiteRenderer(templateOverrides: nil).render(
            configuration: configuration, data: data, aggregation: Aggregator.aggregate(
                data, rates: fetched.rates, displayCurrencies: configuration.displayCurrencies,
                baseCurrency: configuration.baseCurrency, money: MoneyFormat(minorUnitOverrides: configuration.minorUnits)),
            rates: fetched.rates,
            history: firstRun, now: GoldenSite.now, siteID: GoldenSite.siteID)
    }

    @Test func sampleSiteMatchesGoldenFiles() async throws {
        let site = try await Self.renderSample()
        let trees = [("markdown", site.markdown), ("site", site.site)]
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(at: Self.golden)
            for (tree, files) in trees {
                for file in files {
                    let url = Self.golden.appendingPathComponent(tree).appendingPathComponent(file.path)
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try file.contents.write(to: url)
                }
            }
        }
        for (tree, files) in trees {
            let folder = Self.golden.appendingPathComponent(tree)
            #expect(TestSupport.files(in: folder) == files.map(\.path).sorted(), "\(tree): file list differs")
            for file in files {
                let expected = FileManager.default.contents(atPath: folder.appendingPathComponent(file.path).path)
                #expect(expected == file.contents, "\(tree)/\(file.path) differs from its golden file (make golden)")
            }
        }
    }

    @Test func renderingIsDeterministic() async throws {
        let first = try await Self.renderSample()
        let second = try await Self.renderSample()
        #expect(first == second)
    }

    @Test func emptyGroupSaysNoOrdersYet() async throws {
        let site = try await Self.renderSample()
        let page = try #require(site.markdown.first { $0.path == "groups/週一早餐.md" })
        #expect(String(decoding: page.contents, as: UTF8.self).contains("\n尚無訂單。\n"))
        #expect(!site.site.contains { $0.path == "groups/週一早餐.svg" })
    }

    @Test func staleRatesAreFlaggedOnEveryPage() async throws {
        let configuration = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: configuration).fetch()
        let data = try Validator(configuration: configuration).validate(orders: fetched.orders, groups: fetched.groups)
        let site = try SiteRenderer(templateOverrides: nil).render(
            configuration: configuration, data: data, aggregation: Aggregator.aggregate(
                data, rates: fetched.rates, displayCurrencies: configuration.displayCurrencies,
                baseCurrency: configuration.baseCurrency, money: MoneyFormat(minorUnitOverrides: configuration.minorUnits)),
            rates: fetched.rates,
            history: Self.firstRun, now: GoldenSite.now.addingTimeInterval(3 * 86_400), siteID: GoldenSite.siteID)
        for page in site.markdown where page.path.hasSuffix(".md") && !page.path.hasPrefix("people/") && !["attention.md", "changes.md"].contains(page.path) {
            #expect(String(decoding: page.contents, as: UTF8.self).contains("已超過 48 小時未更新"), "\(page.path)")
        }
    }
}
