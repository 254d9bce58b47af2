import Foundation
import Testing

@testable import OrderPressOutput
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressAggregate
@testable import OrderPressRender
@testable import OrderPressReuse
import OrderPressSiteTestSupport
import OrderPressTestSupport

/// The plan runner keeps a file only when the file declares what it is made from and the last build
/// recorded that very key for it in every tree it goes into; a file that declares nothing is always made.
@Suite struct PlanRunnerTests {
    /// A last build that claims every file, with the key `key` (or, when nil, the key asked for last
    /// by `expecting`), and counts the questions.
    final class Record: PublishedFiles, @unchecked Sendable {
        private let lock = NSLock()
        private let answer: @Sendable (String, OutputTree) -> String?
        private(set) var asked: [String] = []

        init(_ answer: @escaping @Sendable (String, OutputTree) -> String?) { self.answer = answer }

        func published(_ path: String, in tree: OutputTree) -> PublishedRecord? {
            lock.withLock { asked.append("\(tree) \(path)") }
            return answer(path, tree).map { PublishedRecord(reuseKey: $0, index: -1) }
        }

        func pieces(of path: String, in tree: OutputTree) -> PublishedPieces? { nil }
        func intactCount(builtFrom inputs: String?) -> Int? { nil }
    }

    static func keys() async throws -> (PageKeys, Aggregation) {
        let configuration = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: configuration).fetch()
        let data = try Validator(configuration: configuration).validate(orders: fetched.orders, groups: fetched.groups)
        let aggregation = Aggregator.aggregate(data)
        let context = SiteContext(
            configuration: configuration, data: data, aggregation: aggregation, rates: nil, history: [],
            now: GoldenSite.now, siteID: GoldenSite.siteID)
        return (PageKeys(context, templates: try SiteRenderer(templateOverrides: nil).templates), aggregation)
    }

    /// An undeclared file is made even when the last build claims a file at its path, and the record is
    /// not even asked.
    @Test func aFileThatDeclaresNothingIsAlwaysMade() async throws {
        let (keys, _) = try await Self.keys()
        let record = Record { _, _ in "any key" }
        let runner = PlanRunner(keys: keys, record: record)
        var made = 0
        let file = runner.run(PlannedFile(path: "style.css", trees: OutputTree.allCases, dependsOn: nil) {
            made += 1
            return Data("body {}".utf8)
        })
        #expect(made == 1)
        #expect(file == OutputFile(path: "style.css", contents: Data("body {}".utf8)))
        #expect(record.asked == [])
    }

    /// An undeclared page's Markdown is always made, and carries no key; its HTML is keyed by the
    /// Markdown's bytes, so the HTML of the same Markdown is kept and of other Markdown made.
    @Test(arguments: [true, false])
    func aPageThatDeclaresNothingIsAlwaysMade(sameMarkdown: Bool) async throws {
        let (keys, _) = try await Self.keys()
        let published = keys.html(ofMarkdown: Data("# Rates".utf8), page: "rates", title: "Rates")
        let record = Record { path, _ in path == "rates.html" ? published : "any key" }
        var (markdowns, htmls) = (0, 0)
        let page = PlanRunner(keys: keys, record: record).run(
            page: "rates", title: "Rates", dependsOn: nil,
            markdown: {
                markdowns += 1
                return Data((sameMarkdown ? "# Rates" : "# Rates changed").utf8)
            },
            html: { _ in
                htmls += 1
                return Data("<h1>Rates</h1>".utf8)
            })
        #expect(markdowns == 1)
        #expect(page.markdown?.path == "rates.md" && page.markdown?.reuseKey == nil)
        #expect(htmls == (sameMarkdown ? 0 : 1))
        #expect((page.html == nil) == sameMarkdown)
        #expect(record.asked == ["site rates.html"])
    }

    /// A declared file is kept only when every tree it goes into holds the key of its declaration.
    @Test(arguments: [[OutputTree.markdown, .site], [.markdown], [.site], []])
    func aDeclaredFileIsKeptOnlyWhereEveryTreeHasItsKey(matching: [OutputTree]) async throws {
        let (keys, aggregation) = try await Self.keys()
        let summary = try #require(aggregation.groups.first { !$0.orders.isEmpty })
        let key = keys.key(of: .chart(summary))
        let runner = PlanRunner(keys: keys, record: Record { _, tree in matching.contains(tree) ? key : "other" })
        var made = 0
        let file = runner.run(PlannedFile(path: "groups/g.svg", trees: OutputTree.allCases, dependsOn: .chart(summary)) {
            made += 1
            return Data("<svg/>".utf8)
        })
        let kept = matching.count == OutputTree.allCases.count
        #expect((file == nil) == kept)
        #expect(made == (kept ? 0 : 1))
        if let file { #expect(file.reuseKey == key) }
    }

    /// A declared page is kept whole when both its files hold their keys; with the HTML's key alone
    /// (say, a Markdown file edited by hand), its Markdown is made again and its HTML kept.
    @Test func aDeclaredPageIsKeptWhenBothFilesHoldTheirKeys() async throws {
        let (keys, aggregation) = try await Self.keys()
        let summary = try #require(aggregation.groups.first)
        let markdownKey = keys.key(of: .group(summary))
        let htmlKey = keys.html(ofMarkdownKey: markdownKey, page: "groups/g", title: "G")
        for markdownHeld in [true, false] {
            let record = Record { path, _ in path.hasSuffix(".md") ? (markdownHeld ? markdownKey : nil) : htmlKey }
            var made = 0
            let page = PlanRunner(keys: keys, record: record).run(
                page: "groups/g", title: "G", dependsOn: .group(summary),
                markdown: {
                    made += 1
                    return Data("# G".utf8)
                },
                html: { _ in Data() })
            #expect(made == (markdownHeld ? 0 : 1))
            #expect((page.markdown == nil) == markdownHeld)
            #expect(page.html == nil)
            #expect(page.markdown.map { $0.reuseKey == markdownKey } ?? true)
        }
    }
}
