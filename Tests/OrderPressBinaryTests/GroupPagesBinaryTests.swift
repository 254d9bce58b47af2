import Foundation
import Testing
import OrderPressTestSupport

/// The built binary with one group of 3,500 orders by 1,500 people: its orders go on four pages (1,000
/// each), its people's totals on the first two, instead of one page of more than 1 MB; each order and
/// each person is on exactly one of them, every link works, and a rerun after one order changed
/// rewrites only the page that shows it.
@Suite struct GroupPagesBinaryTests {
    static let count = 3500

    /// Each order's note is its number between `#`, which only the order tables show.
    static func orders(note: (Int) -> String = { _ in "" }) -> String {
        var csv = "id,group,orderer,drink,price,note\n"
        for number in 1...count { csv += "\(number),週五下午茶,訂購人 \(number % 1500),紅茶,35,#\(number)# \(note(number))\n" }
        return csv
    }

    static func site() -> URL {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(
            ["orderpress.toml": "title = \"Big tea run\"\nbase_currency = \"TWD\"\n[orders]\npath = \"orders.csv\"\n", "orders.csv": orders()],
            in: folder)
        return folder
    }

    static func links(_ html: String) -> [String] {
        html.components(separatedBy: #"href=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func aLargeGroupsOrdersArePaginated() throws {
        let folder = Self.site()
        let build = try TestSupport.run(["build"], in: folder, environment: TestSupport.fixedClock)
        #expect(build.status == 0, "\(build.stderr)")
        let root = folder.appendingPathComponent("output/site")
        let files = TestSupport.files(in: root)
        let pages = ["groups/週五下午茶.html", "groups/週五下午茶--2.html", "groups/週五下午茶--3.html", "groups/週五下午茶--4.html"]
        #expect(files.filter { $0.hasPrefix("groups/") && $0.hasSuffix(".html") } == pages.sorted())

        // No page of the site over 1 MB.
        for file in files where file.hasSuffix(".html") {
            let size = try Data(contentsOf: root.appendingPathComponent(file)).count
            #expect(size < 1_000_000, "\(file) is \(size) bytes")
        }
        // Each order on exactly one page, in sheet order.
        let texts = try pages.map { try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) }
        let found = texts.map { text in text.components(separatedBy: "<td>#").dropFirst().compactMap { Int($0.prefix { $0 != "#" }) } }
        #expect(found.map(\.count) == [1000, 1000, 1000, 500])
        #expect(found.flatMap { $0 } == Array(1...Self.count), "the orders are not each on one page in order")
        let people = texts.map { Self.links($0).filter { $0.hasPrefix("../people/") } }
        #expect(people.map(\.count) == [1000, 500, 0, 0])
        #expect(Set(people.flatMap { $0 }).count == 1500)
        // Every link on them names a file of the site.
        for (page, text) in zip(pages, texts) {
            for link in Self.links(text) where !link.hasPrefix("http") {
                let target = root.appendingPathComponent("groups").appendingPathComponent(link.removingPercentEncoding!).standardized
                #expect(FileManager.default.fileExists(atPath: target.path), "\(page) links \(link)")
            }
        }
        #expect(texts[2].contains(#"<a href="週五下午茶--2.html">← Previous</a>"#) || texts[2].contains("%E9%80%B1%E4%BA%94%E4%B8%8B%E5%8D%88%E8%8C%B6--2.html"))

        // One order's note changes: of the group's pages only the one that shows it is written again.
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        for file in TestSupport.files(in: root) { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: root.appendingPathComponent(file).path) }
        try Data(Self.orders(note: { $0 == 2500 ? "no ice" : "" }).utf8).write(to: folder.appendingPathComponent("orders.csv"))
        let rerun = try TestSupport.run(["build"], in: folder, environment: TestSupport.fixedClock)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let touched = try TestSupport.files(in: root).filter {
            (try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent($0).path)[.modificationDate] as? Date) != old
        }
        #expect(touched.filter { $0.hasPrefix("groups/") } == ["groups/週五下午茶--3.html"], "\(touched)")
        #expect(try String(contentsOf: root.appendingPathComponent("groups/週五下午茶--3.html"), encoding: .utf8).contains("no ice"))
    }
}

/// The built binary with one person entering 2,500 orders for everyone: their page shows the first 1,000
/// and their totals; the rest go on `people/<slug>--2`, `--3`; each order once, no page of 1 MB.
@Suite struct PersonPagesBinaryTests {
    @Test func aLongPersonsOrdersArePaginated() throws {
        let folder = TestSupport.temporaryFolder()
        var csv = "id,group,orderer,drink,price,note\n"
        for number in 1...2500 { csv += "\(number),G\(number % 3),Organiser,紅茶,35,#\(number)# on behalf of someone\n" }
        TestSupport.write(["orderpress.toml": "title = \"One\"\nbase_currency = \"TWD\"\n[orders]\npath = \"orders.csv\"\n", "orders.csv": csv], in: folder)
        let build = try TestSupport.run(["build"], in: folder, environment: TestSupport.fixedClock)
        #expect(build.status == 0, "\(build.stderr)")
        let root = folder.appendingPathComponent("output/site")
        let pages = ["people/organiser.html", "people/organiser--2.html", "people/organiser--3.html"]
        #expect(TestSupport.files(in: root).filter { $0.hasPrefix("people/") } == pages.sorted())
        let texts = try pages.map { try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) }
        for (page, text) in zip(pages, texts) { #expect(text.utf8.count < 1_000_000, "\(page)") }
        let found = texts.map { text in text.components(separatedBy: "<td>#").dropFirst().compactMap { Int($0.prefix { $0 != "#" }) } }
        #expect(found.map(\.count) == [1000, 1000, 500])
        #expect(found.flatMap { $0 }.sorted() == Array(1...2500), "the orders are not each on one page")
        for (page, text) in zip(pages, texts) {
            for link in GroupPagesBinaryTests.links(text) where !link.hasPrefix("http") {
                let target = root.appendingPathComponent("people").appendingPathComponent(link.removingPercentEncoding!).standardized
                #expect(FileManager.default.fileExists(atPath: target.path), "\(page) links \(link)")
            }
        }
    }
}
