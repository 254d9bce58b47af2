import Foundation
import GRDB
import Testing

@testable import OrderPressDiff
import OrderPressTestSupport

/// What the built binary does with broken, hostile or emptied sheets: refuse loudly, or reject the row
/// without showing it; never publish a secret, never crash, never wipe the totals quietly.
@Suite struct DataTrustTests {
    static let firstRun = ["SOURCE_DATE_EPOCH": "1795255200"]
    static let secondRun = ["SOURCE_DATE_EPOCH": "1795258800"]
    static let columns = ["id", "group", "orderer", "drink", "size", "sugar", "ice", "quantity", "price", "currency", "time", "note", "editCode", "phone"]

    static func sampleRows(_ site: URL) throws -> [[String: String]] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: site.appendingPathComponent("data/orders.json"))) as? [[String: String]])
    }

    static func editJSON(_ site: URL, _ edit: (inout [String: String]) -> Void) throws {
        try editJSON(site) { row, _ in edit(&row) }
    }

    /// Edits every row of the sample's orders; the closure also gets the row's sheet number.
    static func editJSON(_ site: URL, _ edit: (inout [String: String], Int) -> Void) throws {
        var rows = try sampleRows(site)
        for index in rows.indices { edit(&rows[index], index + 2) }
        try JSONSerialization.data(withJSONObject: rows).write(to: site.appendingPathComponent("data/orders.json"))
    }

    /// The sample with its orders as CSV (every field quoted), `extra` lines appended as they are.
    static func csvSite(extra: [String] = []) throws -> URL {
        let site = try TestSupport.sampleSite()
        let quoted = { (text: String) in "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        let lines = [columns.joined(separator: ",")] + (try sampleRows(site)).map { row in columns.map { quoted(row[$0] ?? "") }.joined(separator: ",") }
        try Data(((lines + extra).joined(separator: "\r\n") + "\r\n").utf8).write(to: site.appendingPathComponent("data/orders.csv"))
        let toml = site.appendingPathComponent("orderpress.toml")
        let config = try String(contentsOf: toml, encoding: .utf8).replacingOccurrences(of: "data/orders.json", with: "data/orders.csv")
        try Data(config.utf8).write(to: toml)
        return site
    }

    /// Each of `commands` exits with `status`, saying exactly `stderr`.
    static func expectRefused(_ commands: [String], in site: URL, status: Int32, stderr: String) throws {
        for command in commands {
            let result = try TestSupport.run([command], in: site, environment: secondRun)
            #expect(result.status == status, "\(command)")
            #expect(result.stderr == stderr, "\(command)")
        }
    }

    /// Every text value in every table of the SQLite database at `url`, one per line. Not the BLOBs: they
    /// hold numbers and digests (the sheet order's integers hold any byte, 27 an escape), never text.
    static func text(ofDatabase url: URL) throws -> String {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'").flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").flatMap { row in
                    row.databaseValues.compactMap { value in
                        if case .string(let text) = value.storage { text } else { nil }
                    }
                }
            }.joined(separator: "\n")
        }
    }

    /// Every file below `folder` and every output, searched byte for byte.
    static func expectNowhere(_ secrets: [String], in folder: URL, outputs: [String]) throws {
        // The secret hashes' key is 32 random bytes, which hold any short text by chance.
        for (path, bytes) in try TestSupport.contents(of: folder) where !path.hasSuffix("/" + SecretKey.fileName) {
            // orders.csv starts with a byte order mark, for spreadsheets.
            let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
            // The state database's own structure and its salted hashes hold any few bytes (a 100 KB
            // database holds a given 2-byte sequence about once): there, short text is looked for in what
            // the database holds, text of 6 bytes or more in its raw bytes as well.
            let database = path.hasSuffix(".sqlite") ? try text(ofDatabase: folder.appendingPathComponent(path)) : nil
            for secret in secrets {
                if database == nil || secret.utf8.count >= 6 { #expect(body.range(of: Data(secret.utf8)) == nil, "\(path) holds \(secret)") }
                if let database { #expect(!database.contains(secret), "\(path) holds \(secret)") }
            }
        }
        for output in outputs {
            for secret in secrets { #expect(!output.contains(secret), "an output line holds \(secret)") }
        }
    }

    // MARK: - Broken CSV (item 2)

    @Test func aRowThatDoesNotFitTheHeaderIsRejectedWithoutAnyOfItsValues() throws {
        // One field short: the edit code would land in `note` and the phone in `editCode`; one field too many:
        // the edit code would land in `group`, which the Attention page shows for an unknown group.
        let short = #""97","週五下午茶","Mallory","紅茶","L","半糖","少冰","1","35","","2026-11-21 10:00","SeCr3tZq","0900-111-222""#
        let long = #""98","SeCr3tGp","週五下午茶","Mallory","紅茶","L","半糖","少冰","1","35","","2026-11-21 10:00","","k3yK3yX","0900-333-444""#
        let site = try Self.csvSite(extra: [short, "", long])
        let secrets = ["SeCr3tZq", "0900-111-222", "SeCr3tGp", "k3yK3yX", "0900-333-444"]

        let build = try TestSupport.run(["build"], in: site, environment: Self.firstRun)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.hasPrefix("37 orders, 7 rejected, "))
        let check = try TestSupport.run(["check"], in: site, environment: Self.firstRun)
        #expect(check.status == 65)
        #expect(check.stdout.contains("\nrow 44: rejected: has 13 fields but the header has 14; its cells cannot be matched to columns\n"))
        #expect(check.stdout.contains("\nrow 46: rejected: has 15 fields but the header has 14; its cells cannot be matched to columns\n"))
        #expect(check.stdout.contains("44 rows: 37 valid, 7 rejected, "))

        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        #expect(summary["rows_read"] as? Int == 44)
        let rejected = try #require(summary["rejected"] as? [[String: Any]])
        #expect(rejected.suffix(2).map { $0["row"] as? Int } == [44, 46])
        #expect(rejected.suffix(2).map { ($0["values"] as? [String: String]) ?? ["?": "?"] } == [[:], [:]])
        let attention = try String(contentsOf: site.appendingPathComponent("output/markdown/attention.md"), encoding: .utf8)
        // In the site's language (zh-Hant); summary.json keeps the English and adds the code.
        #expect(attention.contains("有 15 個欄位，但標題列有 14 個；無法對應到欄位"))
        #expect(rejected.suffix(2).map { $0["reasons"] as? [String] }.last == ["has 15 fields but the header has 14; its cells cannot be matched to columns"])
        #expect(rejected.suffix(2).map { $0["codes"] as? [String] } == [["row_fields"], ["row_fields"]])

        // The next run compares against the state: a diff and a build with the same rows.
        let diff = try TestSupport.run(["diff"], in: site, environment: Self.secondRun)
        #expect(diff.status == 0)
        let again = try TestSupport.run(["build", "-v"], in: site, environment: Self.secondRun)
        #expect(again.status == 0)
        try Self.expectNowhere(secrets, in: site.appendingPathComponent("output"), outputs: [build.stdout, build.stderr, check.stdout, check.stderr, diff.stdout, diff.stderr, again.stdout, again.stderr])
    }

    /// A quote that never closes swallowed the rest of the file; in a file whose fields are all quoted,
    /// a missing closing quote makes the next quote look like a closing one followed by text.
    @Test(arguments: [
        (4, "\"L\",", "\"L,", "row 5 has a quoted field followed by text after its closing quote, or missing its closing quote; quote the whole field and double the quotes inside it (\"\")"),
        (43, "\"\",\"PZAYjz8s\",\"0921-556-102\"", "\"unfinished note,PZAYjz8s,0921-556-102", "row 44 opens a quoted field that never closes, so the rest of the file cannot be read; close the quote or double it (\"\") inside the field"),
    ])
    func brokenQuotingStopsTheBuildNamingItsRow(line: Int, field: String, broken: String, message: String) throws {
        let site = try Self.csvSite(extra: [#""43","週五下午茶","王小明","珍珠奶茶","L","微糖","去冰","1","55","","2026-11-21 11:00","","PZAYjz8s","0921-556-102""#])
        #expect(try TestSupport.run(["build"], in: site, environment: Self.firstRun).status == 0)
        let output = site.appendingPathComponent("output")
        let before = try TestSupport.contents(of: output).filter { !["site/status.json", "state/failing.json"].contains($0.key) }
        let csv = site.appendingPathComponent("data/orders.csv")
        var lines = try String(contentsOf: csv, encoding: .utf8).components(separatedBy: "\r\n")
        #expect(lines[line].contains(field))
        lines[line] = lines[line].replacingOccurrences(of: field, with: broken)
        try Data(lines.joined(separator: "\r\n").utf8).write(to: csv)

        try Self.expectRefused(["build", "check", "diff"], in: site, status: 69, stderr: "orderpress: fetch: orders: \(message)\n")
        // Only the failure's record and status.json (see CronNewsTests) change.
        #expect(try TestSupport.contents(of: output).filter { !["site/status.json", "state/failing.json"].contains($0.key) } == before)
        #expect(try String(contentsOf: output.appendingPathComponent("site/status.json"), encoding: .utf8).contains(#""state" : "failing""#))
    }

    @Test func invalidUTF8IsNamedAtItsRow() throws {
        let site = try Self.csvSite()
        let csv = site.appendingPathComponent("data/orders.csv")
        var bytes = try Data(contentsOf: csv)
        let row7 = try #require(bytes.range(of: Data("\"7\",".utf8)))
        bytes.insert(0xFF, at: row7.upperBound + 1)
        try bytes.write(to: csv)
        let result = try TestSupport.run(["build"], in: site, environment: Self.firstRun)
        #expect(result.status == 69)
        #expect(result.stderr == "orderpress: fetch: orders: row 8 is not valid UTF-8; save the file as UTF-8\n")
    }

    // MARK: - Missing required columns (item 6)

    @Test(arguments: [
        ("price", "價格", "orders: column 'price' (price) is not in the sheet (headers found: 'currency', 'drink', 'editCode', 'group', 'ice', 'id', 'note', 'orderer', 'paid', 'phone', 'quantity', 'size', 'sugar', 'time', '價格'); rename the header or fix [orders.columns] in the configuration"),
        ("orderer", "", "orders: column 'orderer' (person) is not in the sheet (headers found: 'currency', 'drink', 'editCode', 'group', 'ice', 'id', 'note', 'paid', 'phone', 'price', 'quantity', 'size', 'sugar', 'time'); rename the header or fix [orders.columns] in the configuration"),
    ])
    func aMissingRequiredColumnStopsBeforeAnythingIsPublished(column: String, renamed: String, message: String) throws {
        let site = try TestSupport.sampleSite()
        #expect(try TestSupport.run(["build"], in: site, environment: Self.firstRun).status == 0)
        let output = site.appendingPathComponent("output")
        let before = try TestSupport.contents(of: output)
        try Self.editJSON(site) { row in
            let value = row.removeValue(forKey: column)
            if !renamed.isEmpty { row[renamed] = value }
        }
        try Self.expectRefused(["build", "check"], in: site, status: 65, stderr: "orderpress: validate: \(message)\n")
        #expect(try TestSupport.contents(of: output) == before)
    }

    @Test func aMissingColumnInACSVHeaderStopsTheBuildToo() throws {
        let site = try Self.csvSite()
        let csv = site.appendingPathComponent("data/orders.csv")
        let text = try String(contentsOf: csv, encoding: .utf8).replacingOccurrences(of: "group,orderer", with: "team,orderer")
        try Data(text.utf8).write(to: csv)
        let result = try TestSupport.run(["build"], in: site, environment: Self.firstRun)
        #expect(result.status == 65)
        #expect(result.stderr == "orderpress: validate: orders: column 'group' (group) is not in the sheet (headers found: 'id', 'team', 'orderer', 'drink', 'size', 'sugar', 'ice', 'quantity', 'price', 'currency', 'time', 'note', 'editCode', 'phone'); rename the header or fix [orders.columns] in the configuration\n")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("output/site").path))
    }

    // MARK: - The deletion guard counts orders now rejected (item 5)

    @Test(arguments: [
        ("every price turned into text", "price", "free", "37 of the last run's 37 orders are no longer valid orders (37 now rejected)"),
        ("every group unknown", "group", "nowhere", "37 of the last run's 37 orders are no longer valid orders (37 now rejected)"),
    ])
    func ordersThatAreNowRejectedCountAsLost(_ name: String, column: String, value: String, lost: String) throws {
        let site = try TestSupport.sampleSite()
        #expect(try TestSupport.run(["build"], in: site, environment: Self.firstRun).status == 0)
        let output = site.appendingPathComponent("output")
        let before = try TestSupport.contents(of: output)
        try Self.editJSON(site) { $0[column] = value }
        let refused = try TestSupport.run(["build"], in: site, environment: Self.secondRun)
        #expect(refused.status == 65)
        #expect(refused.stderr == "orderpress: diff: \(lost), more than 50%; nothing was published; if that is right, run again with --accept-deletions\n")
        #expect(try TestSupport.besidesHealth(TestSupport.contents(of: output)) == TestSupport.besidesHealth(before))

        let accepted = try TestSupport.run(["build", "--accept-deletions"], in: site, environment: Self.secondRun)
        #expect(accepted.status == 0)
        #expect(accepted.stdout.hasPrefix("0 orders, 42 rejected, "))
    }

    @Test func withoutIdsTheGuardStillSeesOrdersTurnedRejected() throws {
        let site = try TestSupport.sampleSite()
        try Self.editJSON(site) { $0["id"] = "" }
        #expect(try TestSupport.run(["build"], in: site, environment: Self.firstRun).status == 0)
        // Rows 7 to 43 hold 32 valid orders (rows 10, 18, 24, 28 and 34 are rejected already); one more is deleted.
        try Self.editJSON(site) { row, number in if number >= 7 { row["price"] = "TBD" } }
        let url = site.appendingPathComponent("data/orders.json")
        try JSONSerialization.data(withJSONObject: Array(try Self.sampleRows(site).dropFirst())).write(to: url)
        let refused = try TestSupport.run(["build"], in: site, environment: Self.secondRun)
        #expect(refused.status == 65)
        #expect(refused.stderr == "orderpress: diff: 33 of the last run's 37 orders are no longer valid orders (1 gone, 32 now rejected), more than 50%; nothing was published; if that is right, run again with --accept-deletions\n")
    }

    // MARK: - Numbers (item 11) and invisible characters (item 9)

    @Test func aQuantityBeyondAnyIntegerIsARejectedRowNotACrash() throws {
        let site = try TestSupport.sampleSite()
        try Self.editJSON(site) { row in
            if row["id"] == "1" { row["quantity"] = "9223372036854775807" }
            if row["id"] == "2" { row["price"] = "99999999999999999999999999999999999999999" }
            if row["id"] == "3" { row["quantity"] = "1e5" }
        }
        let result = try TestSupport.run(["build"], in: site, environment: Self.firstRun)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("34 orders, 8 rejected, "))
        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        let rejected = try #require(summary["rejected"] as? [[String: Any]])
        #expect(rejected.prefix(3).map { ($0["reasons"] as? [String]) ?? [] } == [
            ["quantity must be a whole number from 1 to 10,000 (found '9223372036854775807')"],
            ["price '99999999999999999999999999999999999999999' has more than 12 digits before the point or 6 after"],
            ["quantity must be a whole number from 1 to 10,000 (found '1e5')"],
        ])
    }

    @Test func invisibleCharactersNeitherSplitAPersonNorReachAPage() throws {
        let site = try TestSupport.sampleSite()
        try Self.editJSON(site) { row in
            if row["orderer"] == "Amy" { row["orderer"] = "A\u{200B}m\u{00AD}y\u{FEFF}" }
            if row["id"] == "2" { row["orderer"] = "\u{202E}王小明\u{2066}" }
            if row["id"] == "4" { row["note"] = "\u{202E}reversed\u{202C} \u{1B}]0;title\u{7}" }
        }
        let result = try TestSupport.run(["build"], in: site, environment: Self.firstRun)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        let people = try #require(summary["people"] as? [[String: Any]])
        #expect(people.filter { ($0["name"] as? String)?.lowercased() == "amy" }.count == 1)
        try Self.expectNowhere(["\u{200B}", "\u{00AD}", "\u{FEFF}", "\u{202E}", "\u{2066}", "\u{202C}", "\u{1B}"], in: site.appendingPathComponent("output"), outputs: [])
    }
}
