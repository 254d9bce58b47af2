import Foundation
import Testing
import OrderPressTestSupport

/// The built binary with one person more than the index lists (500): the people list goes on to a
/// second page, linked both ways, and the pages work from the file system and through `serve`.
@Suite struct PaginationBinaryTests {
    static let people = 501

    static func orders(_ count: Int) -> String {
        var csv = "id,group,orderer,drink,price\n"
        for number in 1...count { csv += "\(number),\(number % 2 == 0 ? "週五下午茶" : "Friday"),訂購人 \(number),紅茶,35\n" }
        return csv
    }

    static func site() throws -> URL {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(
            [
                "orderpress.toml": """
                title = "Big tea run"
                base_currency = "TWD"
                [orders]
                path = "orders.csv"
                """,
                "orders.csv": orders(people),
            ], in: folder)
        return folder
    }

    static func personLinks(_ html: String) -> [String] {
        html.components(separatedBy: #"href=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }.filter { $0.hasPrefix("people/") }
    }

    @Test func aLongPeopleListContinuesOnASecondPage() async throws {
        let folder = try Self.site()
        let result = try TestSupport.run(["build"], in: folder, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        let root = folder.appendingPathComponent("output/site")
        let markdown = TestSupport.files(in: folder.appendingPathComponent("output/markdown")).filter { !$0.contains("/") }
        #expect(markdown == ["attention.md", "changes.md", "index.md", "people-2.md", "rates.md"])

        let index = try String(contentsOf: root.appendingPathComponent("index.html"), encoding: .utf8)
        let second = try String(contentsOf: root.appendingPathComponent("people-2.html"), encoding: .utf8)
        #expect(index.contains(#"<p>1–500 of 501 · <strong>1</strong> <a href="people-2.html">2</a> · <a href="people-2.html">Next →</a></p>"#))
        #expect(second.contains(#"<p>501–501 · <a href="index.html">← Previous</a> · <a href="index.html">1</a> <strong>2</strong></p>"#))
        #expect(second.contains("<title>People, page 2 of 2 · Big tea run</title>"))
        #expect(second.contains(#"<a href="index.html">Big tea run</a>"#), "the layout's links stay relative")

        // Every person once, across the two pages, each link naming a published file.
        let links = Self.personLinks(index) + Self.personLinks(second)
        #expect(links.count == Self.people)
        #expect(Set(links).count == Self.people)
        for link in links {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(link.removingPercentEncoding!).path), "\(link)")
        }

        let server = try ServeProcess(["serve", "--port", "0"], in: folder)
        let page = try await server.get("/people-2.html")
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self) == second)
        #expect(server.stop().status == 0)

        // One person fewer: the list fits on the index again, and the second page is removed.
        TestSupport.write(["orders.csv": Self.orders(Self.people - 1)], in: folder)
        let rerun = try TestSupport.run(["build"], in: folder, environment: TestSupport.fixedClock)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("people-2.html").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("output/markdown/people-2.md").path))
        let shorter = try String(contentsOf: root.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(Self.personLinks(shorter).count == Self.people - 1)
        #expect(!shorter.contains("people-2.html"))
    }

    /// Each file of the output and when it was last written.
    static func written(in folder: URL) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        for tree in ["markdown", "site"] {
            let root = folder.appendingPathComponent("output/\(tree)")
            for path in TestSupport.files(in: root) {
                dates["\(tree)/\(path)"] = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)[.modificationDate] as? Date
            }
        }
        return dates
    }

    /// Someone new at the end of a list of three pages rewrites the index (its latest change and the list's
    /// length), the last page (their row), their page, their group's page and chart, and the whole-site
    /// files; the page between, whose rows stay the same, is kept as it was. (Its pager said "of 1001".)
    @Test func someoneNewAtTheEndOfTheListRewritesOnlyThePagesThatShowThem() throws {
        let folder = try Self.site()
        TestSupport.write(["orders.csv": Self.orders(1_001)], in: folder)
        let first = try TestSupport.run(["build"], in: folder, environment: TestSupport.fixedClock)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Self.written(in: folder)
        // Sorted after every "訂購人 …": the last row of the list, in the group of the odd numbers.
        TestSupport.write(["orders.csv": Self.orders(1_001) + "1003,Friday,龘 Newcomer,紅茶,35\n"], in: folder)
        let rerun = try TestSupport.run(["build"], in: folder, environment: TestSupport.fixedClock)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let after = try Self.written(in: folder)
        let rewritten = after.keys.filter { before[$0] != after[$0] }.sorted()
        let pages = ["index", "people-3", "changes", "groups/friday", "people/龘-newcomer"]
        let expected = pages.flatMap { ["markdown/\($0).md", "site/\($0).html"] } + [
            "markdown/groups/friday.svg", "site/groups/friday.svg", "site/feed.xml", "site/summary.json", "site/orders.csv",
        ]
        #expect(rewritten == expected.sorted())
        #expect(before["site/people-2.html"] != nil && after["site/people-2.html"] == before["site/people-2.html"])
    }
}
