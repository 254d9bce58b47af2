import FlyingFox
import Foundation
import Testing
import OrderPressTestSupport


/// A Google Form's response tab, served by a loopback SheetDB stand-in as SheetDB serves it in both of its
/// modes — `FORMATTED_VALUE` (every value a string in the zh-TW sheet's formats) and `UNFORMATTED_VALUE`
/// (JSON numbers, booleans, date serials) — built by the binary: the published times, deadline, paid
/// state and totals are what the Form says, blank checkbox rows are nothing, and both modes publish the
/// same site. Also the shipped `examples/google-form`, built from its files.
@Suite struct GoogleFormBinaryTests {
    static let headers = ["時間戳記", "姓名", "團購", "飲料", "甜度", "杯數", "單價", "已付款"]

    /// One row per order, each cell as raw JSON, in each mode. Sheet rows 2–6; then 25 unused rows of the
    /// checkbox column (rows 7–31). Serials are the shortest texts of the Doubles Sheets keeps.
    static let formatted: [[String]] = [
        [#""2026/11/21 上午 11:58:03""#, #""王小明""#, #""週五下午茶""#, #""珍珠奶茶""#, #""微糖""#, #""1""#, #""55""#, #""TRUE""#],
        [#""2026/11/21 下午 12:05:40""#, #""Amy""#, #""週五下午茶""#, #""熟成紅茶""#, #""半糖""#, #""""#, #""35""#, #""是""#],
        [#""2026/11/21 下午 3:15:00""#, #""陳怡君""#, #""週五下午茶""#, #""四季春""#, #""無糖""#, #""２""#, #""３５""#, #""FALSE""#],
        [#""2026/11/21 下午 5:31:00""#, #""Ben""#, #""週五下午茶""#, #""芒果冰沙""#, #""""#, #""1""#, #""65""#, #""V""#],
        [#""今晚""#, #""林佳慧""#, #""週五下午茶""#, #""烏龍拿鐵""#, #""半糖""#, #""1""#, #""40""#, #""FALSE""#],
    ] + Array(repeating: [#""""#, #""""#, #""""#, #""""#, #""""#, #""""#, #""""#, #""FALSE""#], count: 25)

    static let unformatted: [[String]] = [
        ["46347.49864583334", #""王小明""#, #""週五下午茶""#, #""珍珠奶茶""#, #""微糖""#, "1", "55", "true"],
        ["46347.50393518519", #""Amy""#, #""週五下午茶""#, #""熟成紅茶""#, #""半糖""#, #""""#, "35", #""是""#],
        ["46347.635416666664", #""陳怡君""#, #""週五下午茶""#, #""四季春""#, #""無糖""#, #""２""#, #""３５""#, "false"],
        ["46347.72986111111", #""Ben""#, #""週五下午茶""#, #""芒果冰沙""#, #""""#, "1", "65", #""V""#],
        [#""今晚""#, #""林佳慧""#, #""週五下午茶""#, #""烏龍拿鐵""#, #""半糖""#, "1", "40", "false"],
    ] + Array(repeating: [#""""#, #""""#, #""""#, #""""#, #""""#, #""""#, #""""#, "false"], count: 25)

    static let groupHeaders = ["團購", "團主", "截止時間"]
    static let formattedGroups = [[#""週五下午茶""#, #""王小明""#, #""2026/11/21 下午 6:00:00""#]]
    static let unformattedGroups = [[#""週五下午茶""#, #""王小明""#, "46347.75"]]

    /// Rates as of 14:00 in Taipei: the newest order (17:31, read as 05:31 when PM is dropped) is newer.
    static let rter = #"{"USDTWD": {"Exrate": 32.125, "UTC": "2026-11-21 06:00:00"}, "USDJPY": {"Exrate": 154.32, "UTC": "2026-11-21 06:00:00"}}"#

    /// A page of `rows` written byte for byte as given (not through JSONSerialization, which would write
    /// every number through a Double), with `limit` and `offset` as SheetDB reads them.
    static func page(_ headers: [String], _ rows: [[String]], _ request: LocalServer.Request) -> HTTPResponse {
        let offset = request.query["offset"].flatMap(Int.init) ?? 0
        let limit = request.query["limit"].flatMap(Int.init) ?? rows.count
        let objects = rows.dropFirst(offset).prefix(limit).map { row in
            "{" + zip(headers, row).map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "}"
        }
        return Reply.text("[\n" + objects.joined(separator: ",\n") + "\n]")
    }

    /// Serves the Form tab and the groups tab in `mode`, as `?mode=UNFORMATTED_VALUE` on the URL asks.
    static func serve(_ request: LocalServer.Request) -> HTTPResponse {
        let raw = request.query["mode"] == "UNFORMATTED_VALUE"
        switch (request.path, request.query["sheet"]) {
        case ("/capi.php", _): return Reply.text(rter)
        case ("/api/v1/form", "表單回應 1"): return page(headers, raw ? unformatted : formatted, request)
        case ("/api/v1/form", "groups"): return page(groupHeaders, raw ? unformattedGroups : formattedGroups, request)
        default: return Reply.status(404)
        }
    }

    static func toml(_ server: LocalServer, mode: String) -> String {
        let query = mode.isEmpty ? "" : "&mode=\(mode)"
        return """
            title = "Form"
            language = "zh-Hant"
            base_currency = "TWD"
            display_currencies = ["USD"]
            timezone = "Asia/Taipei"
            [orders]
            url = "\(server.url("/api/v1/form?sheet=%E8%A1%A8%E5%96%AE%E5%9B%9E%E6%87%89%201\(query)"))"
            page_size = 7
            [orders.columns]
            time = "時間戳記"
            person = "姓名"
            group = "團購"
            item = "飲料"
            options = ["甜度"]
            quantity = "杯數"
            price = "單價"
            paid = "已付款"
            secret = []
            [groups]
            url = "\(server.url("/api/v1/form?sheet=groups\(query)"))"
            [groups.columns]
            name = "團購"
            organizer = "團主"
            deadline = "截止時間"
            [rates]
            url = "\(server.url("/capi.php"))"
            [minor_units]
            TWD = 0
            """
    }

    /// Builds the Form in `mode` ("" for SheetDB's default, FORMATTED_VALUE) into a new folder.
    static func build(mode: String) async throws -> (site: URL, result: (status: Int32, stdout: String, stderr: String)) {
        try await LocalServer.with({ request, _ in Self.serve(request) }) { server in
            let site = TestSupport.temporaryFolder()
            try Data(Self.toml(server, mode: mode).utf8).write(to: site.appendingPathComponent("orderpress.toml"))
            return (site, try await TestSupport.runDetached(["build"], in: site, environment: TestSupport.fixedClock))
        }
    }

    static func text(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
    }

    @Test(arguments: ["", "FORMATTED_VALUE", "UNFORMATTED_VALUE"])
    func aFormTabPublishesWhatTheFormSays(mode: String) async throws {
        let (site, result) = try await Self.build(mode: mode)
        #expect(result.status == 0, "\(result.stderr)")
        // 25 checkbox-only rows: neither orders nor rejected, counted only here.
        #expect(result.stdout.hasPrefix("5 orders, 0 rejected, 1 warning, 25 blank rows skipped · "), "\(result.stdout)")

        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        // The newest order is 17:31 in Taipei, not 05:31, and not left out as unreadable.
        #expect(summary["data_as_of"] as? String == "2026-11-21T09:31:00Z")
        #expect(summary["rows_read"] as? Int == 5)
        #expect((summary["rejected"] as? [Any])?.isEmpty == true)
        let warnings = try #require(summary["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["row"] as? Int } == [6])
        #expect(warnings.map { $0["message"] as? String } == [
            "time '今晚' is not a date and time OrderPress reads and is shown as written (write it like 2026-11-21 09:15)"
        ])
        let group = try #require((summary["groups"] as? [[String: Any]])?.first)
        // 55 + 35 + 2 × 35 (full-width ２ and ３５) + 65 + 40; 王小明 organises, Amy said 是, Ben ticked V.
        #expect(group["total"] as? String == "265")
        #expect(group["orders"] as? Int == 5)
        #expect(group["outstanding"] as? String == "110")
        let people = try #require(group["people"] as? [[String: Any]])
        let paid = Dictionary(uniqueKeysWithValues: people.map { ($0["name"] as! String, "\($0["paid"]!)/\($0["outstanding"]!)") })
        #expect(paid == ["王小明": "55/0", "Amy": "35/0", "陳怡君": "0/70", "Ben": "65/0", "林佳慧": "0/40"])

        let page = try Self.text(site, "output/site/groups/週五下午茶.html")
        for time in ["2026-11-21 11:58", "2026-11-21 12:05", "2026-11-21 15:15", "2026-11-21 17:31", "今晚"] {
            #expect(page.contains("<td>\(time)</td>"), "\(time)")
        }
        #expect(!page.contains("03:15") && !page.contains("05:31") && !page.contains("46347"))
        #expect(page.contains("截止時間：2026-11-21 18:00"))
        #expect(page.contains("2026-11-21 17:31 (Asia/Taipei)"))
        let markdown = try Self.text(site, "output/markdown/groups/週五下午茶.md")
        #expect(markdown.contains("| 2 × 四季春 無糖 | 35 | 70 |"))
        #expect(markdown.contains("| 陳怡君 | 四季春 無糖 | 70 |  | 2 | 35 | 2026-11-21 15:15 |"))
        #expect(markdown.contains("| Ben | 芒果冰沙 | 65 | ✓ | 1 | 65 | 2026-11-21 17:31 |"))
        #expect(!(try Self.text(site, "output/markdown/attention.md")).contains("| 7 |"))
    }

    /// Whichever mode SheetDB is read in, the published site is the same, byte for byte.
    @Test func bothModesPublishTheSameSite() async throws {
        let (formatted, first) = try await Self.build(mode: "")
        let (unformatted, second) = try await Self.build(mode: "UNFORMATTED_VALUE")
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        let one = try TestSupport.contents(of: formatted.appendingPathComponent("output/site"))
        let other = try TestSupport.contents(of: unformatted.appendingPathComponent("output/site"))
        #expect(one.keys.sorted() == other.keys.sorted())
        for (path, bytes) in one where path != "feed.xml" {
            #expect(other[path] == bytes, "\(path)")
        }
    }

    /// `examples/google-form`: a Form's tab exported as CSV, built as shipped.
    @Test func theShippedGoogleFormExampleBuilds() throws {
        let example = TestSupport.sampleConfig.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("google-form")
        let site = TestSupport.temporaryFolder()
        try FileManager.default.copyItem(at: example.appendingPathComponent("data"), to: site.appendingPathComponent("data"))
        try FileManager.default.copyItem(at: example.appendingPathComponent("orderpress.toml"), to: site.appendingPathComponent("orderpress.toml"))
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("5 orders, 0 rejected, 0 warnings, 6 blank rows skipped · "), "\(result.stdout)")
        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        #expect(summary["data_as_of"] as? String == "2026-11-21T09:31:00Z")
        let group = try #require((summary["groups"] as? [[String: Any]])?.first)
        #expect(group["total"] as? String == "285")
        #expect(group["outstanding"] as? String == "130")
        let people = try #require(group["people"] as? [[String: Any]])
        let paid = Dictionary(uniqueKeysWithValues: people.map { ($0["name"] as! String, "\($0["paid"]!)/\($0["outstanding"]!)") })
        #expect(paid == ["王小明": "55/0", "Amy": "35/0", "陳怡君": "0/70", "Ben": "65/0", "林佳慧": "0/60"])
        let page = try Self.text(site, "output/markdown/groups/週五下午茶.md")
        #expect(page.contains("截止時間：2026-11-21 18:00"))
        #expect(page.contains("| 陳怡君 | 四季春 M 無糖 正常冰 | 70 |  | 2 | 35 | 2026-11-21 15:15 | 一杯給同事 |"))
        #expect(page.contains("| Amy | 熟成紅茶 L 半糖 少冰 | 35 | ✓ | 1 | 35 | 2026-11-21 12:05 |  |"))
        #expect(page.contains("| 林佳慧 | 烏龍拿鐵 L 半糖 少冰 | 60 |  | 1 | 60 | 2026-11-21 17:31 |  |"))
    }
}
