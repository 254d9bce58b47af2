import Foundation
import Testing
import OrderPressTestSupport


/// The built binary reading a Google Form's response tab and a groups tab straight from the Sheets API
/// (a loopback stand-in, and its token endpoint checking the service account's signed JWT): it publishes
/// what the Form says, the same site as SheetDB's raw mode gives, with no key or token in any output,
/// and builds again `--offline` from its cached copy.
@Suite struct GoogleSheetsBinaryTests {
    typealias G = GoogleStandIn
    typealias Form = GoogleFormBinaryTests
    static let variable = "ORDERPRESS_TEST_GOOGLE_CREDENTIALS"

    /// `rows` (each cell raw JSON) as the API's `values`: the header row first, and each row without its
    /// trailing empty cells, as the API leaves them out. `last` moves a column to the end: the Form's 甜度,
    /// so that Ben's row (no 甜度) and the checkbox-only rows come shorter than the header.
    static func values(_ headers: [String], _ rows: [[String]], last: Int? = nil) -> String {
        func moved<T>(_ row: [T]) -> [T] {
            guard let last else { return row }
            var row = row
            row.append(row.remove(at: last))
            return row
        }
        let header = "[" + moved(headers).map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        let short = rows.map { row in Array(moved(row).reversed().drop { $0 == #""""# }.reversed()) }
        return "[" + ([header] + short.map { "[" + $0.joined(separator: ", ") + "]" }).joined(separator: ",\n") + "]"
    }

    static let tabs = [
        "表單回應 1": values(Form.headers, Form.unformatted, last: 4),
        "groups": values(Form.groupHeaders, Form.unformattedGroups),
    ]

    static func toml(_ google: GoogleStandIn) -> String {
        """
        title = "Form"
        language = "zh-Hant"
        base_currency = "TWD"
        display_currencies = ["USD"]
        timezone = "Asia/Taipei"
        [orders]
        google_sheet = "https://docs.google.com/spreadsheets/d/\(G.spreadsheetID)/edit"
        tab = "表單回應 1"
        credentials_env = "\(variable)"
        google_api_url = "\(google.url(""))"
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
        google_sheet = "\(G.spreadsheetID)"
        tab = "groups"
        credentials_env = "\(variable)"
        google_api_url = "\(google.url(""))"
        [groups.columns]
        name = "團購"
        organizer = "團主"
        deadline = "截止時間"
        [rates]
        url = "\(google.url("/capi.php"))"
        [minor_units]
        TWD = 0
        """
    }

    @Test func aServiceAccountsSheetPublishesWhatTheFormSaysAndNoSecret() async throws {
        let site = TestSupport.temporaryFolder()
        let keys = TestSupport.temporaryFolder()
        let (result, requests, secrets, offline) = try await G.with(sheets: [G.spreadsheetID: Self.tabs], documents: ["/capi.php": Form.rter]) { google in
            try Data(Self.toml(google).utf8).write(to: site.appendingPathComponent("orderpress.toml"))
            let environment = TestSupport.fixedClock.merging([Self.variable: try google.keyFile(in: keys).path]) { $1 }
            let result = try await TestSupport.runDetached(["build"], in: site, environment: environment)
            let requests = await google.requests
            #expect(await google.problems == [])
            // The API is gone: the cached copy builds the site, with no credentials at all.
            await google.stop()
            let offline = try await TestSupport.runDetached(["build", "--offline"], in: site, environment: TestSupport.fixedClock)
            return (result, requests, google.secrets, offline)
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("5 orders, 0 rejected, 1 warning, 25 blank rows skipped · "), "\(result.stdout)")
        // One token, one batchGet for both tabs, one rates request.
        #expect(requests.filter(\.isToken).count == 1)
        #expect(requests.filter(\.isSheets).map(\.rawPath) == ["/v4/spreadsheets/\(G.spreadsheetID)/values:batchGet"])
        #expect(Self.tabs["表單回應 1"]!.contains(#"[46347.72986111111, "Ben", "週五下午茶", "芒果冰沙", 1, 65, "V"]"#))

        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        #expect(summary["data_as_of"] as? String == "2026-11-21T09:31:00Z")
        let group = try #require((summary["groups"] as? [[String: Any]])?.first)
        #expect(group["total"] as? String == "265")
        #expect(group["outstanding"] as? String == "110")
        let markdown = try Form.text(site, "output/markdown/groups/週五下午茶.md")
        // Ben's ticked checkbox (true) is paid; serials are times, the deadline a date and time.
        #expect(markdown.contains("| Ben | 芒果冰沙 | 65 | ✓ | 1 | 65 | 2026-11-21 17:31 |"))
        #expect(markdown.contains("截止時間：2026-11-21 18:00"))
        #expect(!markdown.contains("46347"))

        // The same site as SheetDB's raw mode publishes from the same tab.
        let (sheetDB, built) = try await Form.build(mode: "UNFORMATTED_VALUE")
        #expect(built.status == 0, "\(built.stderr)")
        let one = try TestSupport.contents(of: site.appendingPathComponent("output/site"))
        let other = try TestSupport.contents(of: sheetDB.appendingPathComponent("output/site"))
        #expect(one.keys.sorted() == other.keys.sorted())
        for (path, bytes) in one where path != "feed.xml" {
            #expect(other[path] == bytes, "\(path)")
        }

        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout.hasPrefix("5 orders, 0 rejected, 1 warning, 25 blank rows skipped · "), "\(offline.stdout)")

        // No key, token or spreadsheet id in what either run printed or wrote (output, state, cache).
        for secret in secrets + [G.spreadsheetID] {
            for text in [result.stdout, result.stderr, offline.stdout, offline.stderr] { #expect(!text.contains(secret)) }
        }
        for path in TestSupport.files(in: site) {
            let bytes = try Data(contentsOf: site.appendingPathComponent(path))
            for secret in secrets + [G.spreadsheetID] where path != "orderpress.toml" {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(path)")
            }
        }
    }

    @Test func aSheetNotSharedWithTheAccountSaysWhomToShareItWith() async throws {
        let site = TestSupport.temporaryFolder()
        let keys = TestSupport.temporaryFolder()
        let result = try await G.with(sheets: [G.spreadsheetID: Self.tabs], sharing: .nobody, documents: ["/capi.php": Form.rter]) { google in
            try Data(Self.toml(google).utf8).write(to: site.appendingPathComponent("orderpress.toml"))
            let environment = TestSupport.fixedClock.merging([Self.variable: try google.keyFile(in: keys).path]) { $1 }
            return try await TestSupport.runDetached(["build"], in: site, environment: environment)
        }
        #expect(result.status == 69)
        #expect(result.stderr.contains("share the sheet with \(G.clientEmail)"), "\(result.stderr)")
        #expect(!result.stderr.contains(G.accessToken) && !result.stderr.contains(G.spreadsheetID), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("output/site/index.html").path))
    }

    @Test func anUnsetCredentialsVariableExits64NamingIt() async throws {
        let site = TestSupport.temporaryFolder()
        let result = try await G.with(sheets: [:]) { google in
            try Data(Self.toml(google).utf8).write(to: site.appendingPathComponent("orderpress.toml"))
            return try await TestSupport.runDetached(["build"], in: site, environment: TestSupport.fixedClock)
        }
        #expect(result.status == 64)
        #expect(result.stderr.contains("'orders.credentials_env' names \(Self.variable), which is unset or empty"), "\(result.stderr)")
    }
}
