import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
import OrderPressTestSupport
#endif


/// Two builds of the sample around an edit of its orders, run through the built binary.
@Suite struct ChangesTests {
    static let firstRun = ["SOURCE_DATE_EPOCH": "1795255200"]  // 2026-11-21T10:00:00Z
    static let secondRun = ["SOURCE_DATE_EPOCH": "1795258800"]  // an hour later

    /// Deletes ids 5, 12 and 30, adds ids 43 and 44, changes the sugar of id 7.
    static func editOrders(in site: URL) throws {
        let url = site.appendingPathComponent("data/orders.json")
        var rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: String]])
        rows.removeAll { ["5", "12", "30"].contains($0["id"]) }
        for index in rows.indices where rows[index]["id"] == "7" { rows[index]["sugar"] = "0% sugar" }
        var zoe = rows[0]
        zoe["id"] = "43"
        zoe["orderer"] = "Zoe"
        zoe["editCode"] = "Zz43code"
        var yuki = rows[1]
        yuki["id"] = "44"
        yuki["orderer"] = "Yuki"
        yuki["editCode"] = "Yy44code"
        rows += [zoe, yuki]
        try JSONSerialization.data(withJSONObject: rows).write(to: url)
    }

    /// A rebuild copies the entries of `summary.json` and the rows of `orders.csv` that no edit touched
    /// from the published files: they come out byte for byte as in a build that makes them whole
    /// (the same site, its two published files removed before the rebuild).
    @Test func filesCopiedInPiecesEqualFilesMadeWhole() throws {
        let site = try TestSupport.sampleSite()
        #expect(try TestSupport.run(["build"], in: site, environment: Self.firstRun).status == 0)
        let whole = TestSupport.temporaryFolder().appendingPathComponent("site")
        try FileManager.default.copyItem(at: site, to: whole)
        for name in ["summary.json", "orders.csv"] {
            try FileManager.default.removeItem(at: whole.appendingPathComponent("output/site/\(name)"))
        }
        for folder in [site, whole] {
            try Self.editOrders(in: folder)
            let second = try TestSupport.run(["build"], in: folder, environment: Self.secondRun)
            #expect(second.status == 0, "\(second.stderr)")
        }
        for name in ["summary.json", "orders.csv"] {
            let copied = try Data(contentsOf: site.appendingPathComponent("output/site/\(name)"))
            #expect(copied == (try Data(contentsOf: whole.appendingPathComponent("output/site/\(name)"))), "\(name)")
            #expect(copied.count > 1_000)
        }
    }

    @Test func twoBuildsShowExactlyWhatChanged() throws {
        let site = try TestSupport.sampleSite()
        let first = try TestSupport.run(["build"], in: site, environment: Self.firstRun)
        #expect(first.stdout.contains("· first run: nothing to compare ·"))
        let rerun = try TestSupport.run(["build"], in: site, environment: Self.firstRun)
        #expect(rerun.stdout.contains("· 0 files written, \(TestSupport.sampleFileCount) unchanged, 0 removed · no changes ·"))

        try Self.editOrders(in: site)
        let diff = try TestSupport.run(["diff"], in: site, environment: Self.secondRun)
        #expect(diff.status == 0)
        let diffLines = diff.stdout.split(separator: "\n").map(String.init)
        #expect(diffLines.dropLast().map { String($0.prefix(8)) } == ["deleted ", "deleted ", "deleted ", "added   ", "added   ", "changed "])
        #expect(diffLines.first == "deleted  row 6 (id 5) 陳怡君: 1 × 唐揚げ定食 大盛 · 東京出張ランチ · 1080 JPY")
        #expect(diffLines.contains("changed  row 7 (id 7) Kevin Lin: 1 × Classic Milk Tea L 0% sugar less ice · SF office boba · 5.75 USD: sugar 50% sugar → 0% sugar"))
        #expect(diffLines.last == "3 deleted, 2 added, 1 changed since the build of 2026-11-21 18:00 (Asia/Taipei)")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("output/state/history.json.orderpress").path))

        let second = try TestSupport.run(["build"], in: site, environment: Self.secondRun)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("· 3 deleted, 2 added, 1 changed ·"))

        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        let changes = try #require(summary["changes"] as? [String: Any])
        #expect(changes["first_run"] as? Bool == false)
        #expect(changes["time"] as? String == "2026-11-21T11:00:00Z")
        #expect((changes["deleted"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["5", "12", "30"])
        #expect((changes["deleted"] as? [[String: Any]])?.first?["first_seen"] as? String == "2026-11-21T10:00:00Z")
        #expect((changes["added"] as? [[String: Any]])?.compactMap { $0["person"] as? String } == ["Zoe", "Yuki"])
        let changed = try #require(changes["changed"] as? [[String: Any]])
        #expect(changed.count == 1)
        #expect(changed.first?["id"] as? String == "7")
        #expect((changed.first?["fields"] as? [String: [String]]) == ["sugar": ["50% sugar", "0% sugar"]])

        let page = try String(contentsOf: site.appendingPathComponent("output/markdown/changes.md"), encoding: .utf8)
        #expect(page.contains("## 2026-11-21 19:00：刪除 3 筆、新增 2 筆、修改 1 筆\n\n### ⚠ 已刪除的訂單 (3)\n"))
        #expect(page.contains("| **陳怡君** | 1 × 唐揚げ定食 大盛 | 1,080 JPY | 東京出張ランチ | 2026-11-21 18:00 | 6 |"))
        #expect(page.contains("| Kevin Lin | 1 × Classic Milk Tea L 0% sugar less ice | SF office boba | 7 | sugar: 50% sugar → 0% sugar |"))
        #expect(page.contains("## 2026-11-21 18:00：首次建置，沒有可比較的資料\n"))
        let deletedAt = try #require(page.range(of: "已刪除的訂單"))
        let addedAt = try #require(page.range(of: "新增的訂單"))
        #expect(deletedAt.lowerBound < addedAt.lowerBound)
        let group = try String(contentsOf: site.appendingPathComponent("output/markdown/groups/週五下午茶.md"), encoding: .utf8)
        #expect(group.contains("- ~~王小明: 2 × 四季春青茶 L 無糖 正常冰 (60 TWD)~~\n"))
        let index = try String(contentsOf: site.appendingPathComponent("output/markdown/index.md"), encoding: .utf8)
        #expect(index.contains("## 最近異動：2026-11-21 19:00\n\n刪除 3 筆、新增 2 筆、修改 1 筆\n\n- ⚠ ~~陳怡君: 1 × 唐揚げ定食 大盛 (1,080 JPY) · 東京出張ランチ~~\n"))
        // The grand total and the latest change come first.
        let grandAt = try #require(index.range(of: "## 總計"))
        let latestAt = try #require(index.range(of: "## 最近異動"))
        let groupsAt = try #require(index.range(of: "## 團購"))
        #expect(grandAt.lowerBound < latestAt.lowerBound && latestAt.lowerBound < groupsAt.lowerBound)

        let feed = try Data(contentsOf: site.appendingPathComponent("output/site/feed.xml"))
        let parsed = FeedReader(feed)
        #expect(parsed.wellFormed)
        #expect(parsed.entryTitles == ["刪除 3 筆、新增 2 筆、修改 1 筆", "首次建置，沒有可比較的資料"])
        #expect(parsed.entryUpdated == ["2026-11-21T11:00:00Z", "2026-11-21T10:00:00Z"])
        #expect(Set(parsed.entryIds).count == 2)
        let html = try String(contentsOf: site.appendingPathComponent("output/site/index.html"), encoding: .utf8)
        #expect(html.contains(#"<link rel="alternate" type="application/atom+xml" title="Friday tea run：異動" href="feed.xml">"#))

        // A third build on the same input adds no entry and leaves the change files alone.
        let stamps = try TestSupport.contents(of: site.appendingPathComponent("output"))
        let third = try TestSupport.run(["build"], in: site, environment: ["SOURCE_DATE_EPOCH": "1795262400"])
        #expect(third.stdout.contains("· 0 files written,"))
        #expect(try TestSupport.contents(of: site.appendingPathComponent("output")) == stamps)

        let state = site.appendingPathComponent("output/state")
        #expect(TestSupport.files(in: state).filter { $0 != "lock" && $0 != "published.json" } == ["secret.key", "state.sqlite"])
        for file in TestSupport.files(in: state) {
            let bytes = try Data(contentsOf: state.appendingPathComponent(file))
            for secret in ["Zz43code", "Yy44code", "MTY3pFXE"] { #expect(bytes.range(of: Data(secret.utf8)) == nil) }
        }
    }

    @Test func anEmptiedSheetIsRefusedAndNothingChangesOnDisk() throws {
        let site = try TestSupport.sampleSite()
        try TestSupport.run(["build"], in: site, environment: Self.firstRun)
        let output = site.appendingPathComponent("output")
        let before = try TestSupport.contents(of: output)
        try Data("[]".utf8).write(to: site.appendingPathComponent("data/orders.json"))
        let result = try TestSupport.run(["build"], in: site, environment: Self.secondRun)
        #expect(result.status == 65)
        #expect(result.stderr == "orderpress: diff: 37 of the last run's 37 orders are no longer valid orders (37 gone), more than 50%; nothing was published; if that is right, run again with --accept-deletions\n")
        // Nothing but status.json, which says the guard refused and what to do.
        #expect(try TestSupport.besidesHealth(TestSupport.contents(of: output)) == TestSupport.besidesHealth(before))
        #expect(try String(contentsOf: output.appendingPathComponent("site/status.json"), encoding: .utf8).contains("\"state\" : \"blocked\""))

        let accepted = try TestSupport.run(["build", "--accept-deletions"], in: site, environment: Self.secondRun)
        #expect(accepted.status == 0)
        // The 37 orders; the 5 rejected rows were never orders.
        #expect(accepted.stdout.contains("· 37 deleted ·"))
    }

    @Test func aCorruptedSnapshotStopsTheBuild() throws {
        let site = try TestSupport.sampleSite()
        try TestSupport.run(["build"], in: site, environment: Self.firstRun)
        let snapshot = site.appendingPathComponent("output/state/state.sqlite")
        try Data(String(repeating: "{\"version\": 1, \"rows\": [", count: 50).utf8).write(to: snapshot)
        let result = try TestSupport.run(["build"], in: site, environment: Self.secondRun)
        #expect(result.status == 65)
        #expect(result.stderr == "orderpress: diff: \(snapshot.standardizedFileURL.path) cannot be read (file is not a database); move it away to start afresh (the next build is then a first run)\n")
    }
}

/// Reads an Atom feed with Foundation's XML parser: is it well-formed, and what do its entries say.
private final class FeedReader: NSObject, XMLParserDelegate {
    var wellFormed = false
    var entryTitles: [String] = []
    var entryUpdated: [String] = []
    var entryIds: [String] = []
    private var path: [String] = []
    private var text = ""

    init(_ data: Data) {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        wellFormed = parser.parse()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        path.append(name)
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if path.dropLast().last == "entry" {
            switch name {
            case "title": entryTitles.append(text)
            case "updated": entryUpdated.append(text)
            case "id": entryIds.append(text)
            default: break
            }
        }
        path.removeLast()
    }
}
