import Foundation
import Testing
import OrderPressTestSupport


/// A Google Form's response tab exported as CSV (the shipped `examples/google-form`), with what people
/// really type into it, built by the binary as cron runs it.
@Suite struct FormExportTests {
    /// The shipped example copied into a new folder.
    static func example() throws -> URL {
        let example = TestSupport.repository.appendingPathComponent("examples/google-form")
        let site = TestSupport.temporaryFolder()
        try FileManager.default.copyItem(at: example.appendingPathComponent("data"), to: site.appendingPathComponent("data"))
        try FileManager.default.copyItem(at: example.appendingPathComponent("orderpress.toml"), to: site.appendingPathComponent("orderpress.toml"))
        return site
    }

    /// Replaces the first unused (checkbox-only) rows of the export with `responses`, as the Form fills them.
    static func answer(_ responses: [String], in site: URL) throws {
        let csv = site.appendingPathComponent("data/responses.csv")
        var lines = try String(contentsOf: csv, encoding: .utf8).components(separatedBy: "\n")
        let blank = try #require(lines.firstIndex { $0.hasPrefix(",,,") })
        lines.replaceSubrange(blank..<(blank + responses.count), with: responses)
        try Data(lines.joined(separator: "\n").utf8).write(to: csv)
    }

    /// A price typed with its currency, or in words, into a Form whose price question sits between the
    /// quantity and an empty note: a typo, rejected with its values and its fix, on the person's page and
    /// in cron's mail — not taken for a row whose cells moved (which is shown without values, to nobody).
    /// A quantity typed with its unit (`2杯`) says which number to write. (The group's own currency's sign,
    /// `35 元` or `$35` in TWD, is read: these name another.)
    @Test func aPriceTypedWithItsCurrencyIsATypoNotAShiftedRow() throws {
        let site = try Self.example()
        #expect(try TestSupport.run(["build", "--quiet"], in: site, environment: TestSupport.fixedClock).status == 0)
        try Self.answer([
            "2026/11/21 下午 5:40:00,小芳,週五下午茶,熟成紅茶,L,半糖,少冰,1,35 円,,FALSE",
            "2026/11/21 下午 5:41:00,阿哲,週五下午茶,四季春,M,無糖,去冰,1,US$35,,FALSE",
            "2026/11/21 下午 5:42:00,Joy,週五下午茶,烏龍拿鐵,L,半糖,少冰,1,問店家,,FALSE",
            "2026/11/21 下午 5:43:00,小芳,週五下午茶,四季春,M,無糖,去冰,2杯,30,,FALSE",
        ], in: site)
        let check = try TestSupport.run(["check"], in: site, environment: DataTrustTests.secondRun)
        #expect(check.status == 65)
        #expect(check.stdout.hasPrefix("""
            row 7: rejected: price '35 円' is marked 円, which is not TWD, the order's currency [團購: 週五下午茶 · 姓名: 小芳 · 飲料: 熟成紅茶 · 大小: L · 甜度: 半糖 · 冰塊: 少冰 · 杯數: 1 · 單價: 35 円 · 時間戳記: 2026/11/21 下午 5:40:00 · 備註:  · 已付款: FALSE]
            row 8: rejected: price 'US$35' is marked US$, which is not TWD, the order's currency [團購: 週五下午茶 · 姓名: 阿哲 · 飲料: 四季春 · 大小: M · 甜度: 無糖 · 冰塊: 去冰 · 杯數: 1 · 單價: US$35 · 時間戳記: 2026/11/21 下午 5:41:00 · 備註:  · 已付款: FALSE]
            row 9: rejected: price '問店家' is not a number [團購: 週五下午茶 · 姓名: Joy · 飲料: 烏龍拿鐵 · 大小: L · 甜度: 半糖 · 冰塊: 少冰 · 杯數: 1 · 單價: 問店家 · 時間戳記: 2026/11/21 下午 5:42:00 · 備註:  · 已付款: FALSE]
            row 10: rejected: quantity '2杯' is not a plain number; write 2 [團購: 週五下午茶 · 姓名: 小芳 · 飲料: 四季春 · 大小: M · 甜度: 無糖 · 冰塊: 去冰 · 杯數: 2杯 · 單價: 30 · 時間戳記: 2026/11/21 下午 5:43:00 · 備註:  · 已付款: FALSE]

            """), "\(check.stdout)")
        #expect(!check.stdout.contains("shifted"))

        let cron = try TestSupport.run(["build", "--quiet"], in: site, environment: DataTrustTests.secondRun)
        #expect(cron.status == 0, "\(cron.stderr)")
        #expect(cron.stdout == """
            被退回：第 7 列 小芳：1 × 熟成紅茶 L 半糖 少冰 · 週五下午茶 · 價格「35 円」標示為 円，不是訂單的幣別 TWD
            被退回：第 8 列 阿哲：1 × 四季春 M 無糖 去冰 · 週五下午茶 · 價格「US$35」標示為 US$，不是訂單的幣別 TWD
            被退回：第 9 列 Joy：1 × 烏龍拿鐵 L 半糖 少冰 · 週五下午茶 · 價格「問店家」不是數字
            被退回：第 10 列 小芳：2杯 × 四季春 M 無糖 去冰 · 週五下午茶 · 數量「2杯」不是單純的數字；請寫 2

            """)
        let page = try String(contentsOf: site.appendingPathComponent("output/markdown/people/小芳.md"), encoding: .utf8)
        #expect(page.contains("- 熟成紅茶 L 半糖 少冰（週五下午茶，第 7 列）：價格「35 円」標示為 円，不是訂單的幣別 TWD——未計入；請詢問王小明，或重新填寫表單"), "\(page)")
        #expect(page.contains("- 四季春 M 無糖 去冰（週五下午茶，第 10 列）：數量「2杯」不是單純的數字；請寫 2——未計入；請詢問王小明，或重新填寫表單"), "\(page)")
    }

    /// A response sent twice (the same answers on the next row, 40 s later) is counted twice, as every
    /// row is, and the Attention page says so in the site's language; the same answers twenty minutes
    /// later, or different answers seconds later, are simply orders.
    @Test func aResponseSentTwiceIsFlagged() throws {
        let site = try Self.example()
        try Self.answer([
            "2026/11/21 下午 5:31:40,林佳慧,週五下午茶,烏龍拿鐵,L,半糖,少冰,,60,,FALSE",
            "2026/11/21 下午 5:51:40,林佳慧,週五下午茶,烏龍拿鐵,L,半糖,少冰,,60,,FALSE",
            "2026/11/21 下午 5:51:45,林佳慧,週五下午茶,烏龍拿鐵,L,微糖,少冰,,60,,FALSE",
        ], in: site)
        let check = try TestSupport.run(["check"], in: site, environment: TestSupport.fixedClock)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == """
            row 7: warning: repeats row 6: the same answers sent 40 s later; if they were sent twice, delete one (both are counted)
            8 rows: 8 valid, 0 rejected, 1 warning, 3 blank rows skipped

            """)
        let build = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(build.status == 0, "\(build.stderr)")
        let attention = try String(contentsOf: site.appendingPathComponent("output/markdown/attention.md"), encoding: .utf8)
        // A member cannot delete a row: they tell the organiser.
        #expect(attention.contains("| 7 | 與第 6 列的回答完全相同，40 秒後送出，兩列都計入；若是重複送出，請告訴團主 |"), "\(attention)")
        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        let group = try #require((summary["groups"] as? [[String: Any]])?.first)
        #expect(group["total"] as? String == "465")
    }

    /// A paid box ticked on an unused row (no timestamp, no answer): not blank, so rejected, and cron's
    /// line (in the site's language, zh-Hant) says what is missing without empty fields ("row 7: person is missing …", not "row 7 : 1 ×  ·  ·").
    @Test func aBoxTickedOnAnEmptyRowIsOneClearCronLine() throws {
        let site = try Self.example()
        #expect(try TestSupport.run(["build", "--quiet"], in: site, environment: TestSupport.fixedClock).status == 0)
        try Self.answer([",,,,,,,,,,TRUE"], in: site)
        let cron = try TestSupport.run(["build", "--quiet"], in: site, environment: DataTrustTests.secondRun)
        #expect(cron.status == 0, "\(cron.stderr)")
        #expect(cron.stdout == """
            被退回：第 7 列：缺少訂購人（欄位「姓名」）；缺少品項（欄位「飲料」）；缺少團購名稱（欄位「團購」）；缺少價格（欄位「單價」）

            """)
    }

    /// `orderpress restore` on a Form's tab read as SheetDB's JSON: the row comes out in the tab's own
    /// column order (the question order, the email column second), not the README's suggested layout,
    /// so that pasted back each answer lands under its question; the unmapped email stays empty.
    @Test func aRestoredFormOrderFollowsTheTabsColumns() throws {
        let site = TestSupport.temporaryFolder()
        let keys = ["時間戳記", "電子郵件地址", "姓名", "團購", "飲料", "杯數", "單價"]
        func body(_ rows: [[String]]) -> String {
            "[" + rows.map { row in "{" + zip(keys, row).map { "\"\($0)\": \"\($1)\"" }.joined(separator: ", ") + "}" }.joined(separator: ",\n") + "]"
        }
        let amy = ["2026/11/21 下午 12:05:40", "amy@example.com", "Amy", "週五下午茶", "熟成紅茶", "1", "35"]
        let ben = ["2026/11/21 下午 4:02:18", "ben@example.com", "Ben", "週五下午茶", "芒果冰沙", "2", "65"]
        TestSupport.write(
            [
                "orderpress.toml": """
                    title = "Form"
                    base_currency = "TWD"
                    timezone = "Asia/Taipei"
                    [orders]
                    path = "responses.json"
                    [orders.columns]
                    time = "時間戳記"
                    person = "姓名"
                    group = "團購"
                    item = "飲料"
                    options = []
                    quantity = "杯數"
                    price = "單價"
                    secret = []
                    """,
                "responses.json": body([amy, ben]),
            ], in: site)
        #expect(try TestSupport.run(["build", "--quiet"], in: site, environment: TestSupport.fixedClock).status == 0)
        try Data(body([amy]).utf8).write(to: site.appendingPathComponent("responses.json"))
        let restore = try TestSupport.run(["restore", "Ben 芒果冰沙"], in: site, environment: DataTrustTests.secondRun)
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout == "2026/11/21 下午 4:02:18\t\tBen\t週五下午茶\t芒果冰沙\t2\t65\n")
        #expect(restore.stderr.contains("columns: 時間戳記, 電子郵件地址, 姓名, 團購, 飲料, 杯數, 單價."), "\(restore.stderr)")
    }
}
