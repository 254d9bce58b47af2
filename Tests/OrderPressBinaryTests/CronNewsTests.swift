import Foundation
import Testing

@testable import OrderPressNotify
import OrderPressTestSupport

/// What `build --quiet` tells cron (and so the organiser): the news of each run, a failing source said
/// once when it starts and once when it ends, and `status.json`. Runs the built binary, clock pinned.
@Suite struct CronNewsTests {
    static let header = "id,group,orderer,drink,size,sugar,ice,quantity,price,editCode"
    static let rows = [
        "1,Tea,Amy,熟成紅茶,L,半糖,少冰,1,45,amy-secret",
        "2,Tea,Ben,珍珠奶茶,M,無糖,正常冰,2,50,ben-secret",
        "3,Tea,Cat,四季春青茶,L,半糖,去冰,1,35,cat-secret",
        "4,Tea,Dan,冬瓜檸檬,M,微糖,少冰,1,40,dan-secret",
    ]

    static func site(_ rows: [String] = rows, notify: String = "") -> URL {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(
            [
                "orderpress.toml": """
                    title = "Tea"
                    base_currency = "TWD"
                    [orders]
                    path = "orders.csv"
                    \(notify)
                    """,
                "orders.csv": ([header] + rows).joined(separator: "\n") + "\n",
            ], in: folder)
        return folder
    }

    static func setRows(_ rows: [String], in site: URL) throws {
        try Data((([header] + rows).joined(separator: "\n") + "\n").utf8).write(to: site.appendingPathComponent("orders.csv"))
    }

    static func quiet(_ site: URL, at epoch: Int = 1_795_255_200) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.run(["build", "--quiet"], in: site, environment: ["SOURCE_DATE_EPOCH": String(epoch)])
    }

    @Test func aDeletionUnderQuietPrintsExactlyItsLineAndAnUnchangedRerunNothing() throws {
        let site = Self.site()
        let first = try Self.quiet(site)
        #expect(first.status == 0 && first.stdout == "" && first.stderr == "", "\(first)")
        try Self.setRows([Self.rows[0], Self.rows[2], Self.rows[3]], in: site)
        let deleted = try Self.quiet(site, at: 1_795_258_800)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "deleted: row 3 (id 2) Ben: 2 × 珍珠奶茶 M 無糖 正常冰 · Tea · 100.00 TWD\n")
        #expect(deleted.stderr == "")
        #expect(!deleted.stdout.contains("secret"))
        let rerun = try Self.quiet(site, at: 1_795_262_400)
        #expect(rerun.status == 0 && rerun.stdout == "" && rerun.stderr == "", "\(rerun)")
    }

    /// The cron line writes a deleted amount as the pages do, thousands grouped: "1,200.00 TWD", not "1200.00 TWD".
    @Test func aDeletedAmountIsGroupedAsOnThePages() throws {
        let site = Self.site([Self.rows[0], "2,Tea,Ben,蛋糕禮盒,L,無糖,正常冰,1,1200,ben-secret"])
        try Self.quiet(site)
        try Self.setRows([Self.rows[0]], in: site)
        let deleted = try Self.quiet(site, at: 1_795_258_800)
        #expect(deleted.stdout == "deleted: row 3 (id 2) Ben: 1 × 蛋糕禮盒 L 無糖 正常冰 · Tea · 1,200.00 TWD\n", "\(deleted)")
    }

    @Test func additionsAloneSayNothing() throws {
        let site = Self.site(Array(Self.rows.prefix(2)))
        try Self.quiet(site)
        try Self.setRows(Self.rows, in: site)
        let added = try Self.quiet(site, at: 1_795_258_800)
        #expect(added.status == 0 && added.stdout == "" && added.stderr == "", "\(added)")
    }

    @Test func aNewlyRejectedRowIsSaidOnceWithItsReason() throws {
        let site = Self.site()
        try Self.quiet(site)
        let bad = "5,Tea,Eve,芒果綠茶,L,半糖,少冰,two,45,eve-secret"
        try Self.setRows(Self.rows + [bad], in: site)
        let rejected = try Self.quiet(site, at: 1_795_258_800)
        #expect(rejected.status == 0, "\(rejected.stderr)")
        #expect(rejected.stdout == "rejected: row 6 (id 5) Eve: two × 芒果綠茶 L 半糖 少冰 · Tea · quantity must be a whole number from 1 to 10,000 (found 'two')\n")
        // Still rejected, and an unrelated order added: nothing new to say.
        try Self.setRows(Self.rows + [bad, "6,Tea,Fay,熟成紅茶,L,半糖,少冰,1,45,"], in: site)
        let again = try Self.quiet(site, at: 1_795_262_400)
        #expect(again.status == 0 && again.stdout == "", "\(again)")
    }

    /// "No longer counted" (a valid order now rejected) is said once, as a rejected row, not as a deletion.
    @Test func anOrderThatTurnsRejectedIsOneRejectedLine() throws {
        let site = Self.site()
        try Self.quiet(site)
        try Self.setRows([Self.rows[0], "2,Tea,Ben,珍珠奶茶,M,無糖,正常冰,two,50,ben-secret", Self.rows[2], Self.rows[3]], in: site)
        let result = try Self.quiet(site, at: 1_795_258_800)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "rejected: row 3 (id 2) Ben: two × 珍珠奶茶 M 無糖 正常冰 · Tea · quantity must be a whole number from 1 to 10,000 (found 'two')\n")
    }

    @Test(arguments: [
        ("print = []", ""),
        ("print = [\"rejected\"]", "rejected: row 5 (id 5) Eve: two × 芒果綠茶 L 半糖 少冰 · Tea · quantity must be a whole number from 1 to 10,000 (found 'two')\n"),
        ("print = [\"deleted\"]", "deleted: row 2 (id 1) Amy: 1 × 熟成紅茶 L 半糖 少冰 · Tea · 45.00 TWD\n"),
    ])
    func notifyPrintChoosesWhatIsSaid(setting: String, expected: String) throws {
        let site = Self.site(notify: "[notify]\n\(setting)\n")
        try Self.quiet(site)
        try Self.setRows(Array(Self.rows.dropFirst()) + ["5,Tea,Eve,芒果綠茶,L,半糖,少冰,two,45,eve-secret"], in: site)
        let result = try Self.quiet(site, at: 1_795_258_800)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == expected)
    }

    @Test func anUnknownKindOfNewsIsAConfigurationError() throws {
        let site = Self.site(notify: "[notify]\nprint = [\"added\"]\n")
        let result = try Self.quiet(site)
        #expect(result.status == 64)
        #expect(result.stderr == "orderpress: orderpress.toml: 'notify.print' lists 'added'; use any of \"deleted\", \"rejected\", \"failing\", \"blocked\", or [] for nothing\n")
    }

    static func fileNumber(_ url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
    }

    @Test func aSourceDownForThreeRunsIsSaidOnceThenOnceOnRecovery() throws {
        let site = Self.site()
        #expect(try Self.quiet(site).status == 0)
        let status = site.appendingPathComponent("output/site/status.json")
        // The first successful build says ok.
        #expect(try String(contentsOf: status, encoding: .utf8) == "{\n  \"state\" : \"ok\"\n}\n")
        let orders = site.appendingPathComponent("orders.csv")
        try FileManager.default.moveItem(at: orders, to: site.appendingPathComponent("away.csv"))
        let path = "'orders.csv'"
        let failing = """
            {
              "reason" : "fetch: orders: cannot read \(path) (No such file or directory); check [orders] path in the configuration",
              "since" : "2026-11-21T11:00:00Z",
              "state" : "failing"
            }

            """
        var statusFile: Int?
        for (run, epoch) in [1_795_258_800, 1_795_259_100, 1_795_259_400].enumerated() {
            let result = try Self.quiet(site, at: epoch)
            #expect(result.status == 69)
            // The failure is news once, when it starts (no path: news leaves the machine), and said on stderr with its reason.
            #expect(result.stdout == (run == 0 ? "failing: the orders source cannot be read since 2026-11-21 11:00 (GMT); the pages keep what was last published\n" : ""))
            #expect(result.stderr == (run == 0 ? "orderpress: fetch: orders: cannot read \(path) (No such file or directory); check [orders] path in the configuration\n" : ""))
            #expect(try String(contentsOf: status, encoding: .utf8) == failing)
            // Written when the failure started, not rewritten while it lasts.
            if run == 0 { statusFile = try Self.fileNumber(status) } else { #expect(try Self.fileNumber(status) == statusFile) }
        }
        try FileManager.default.moveItem(at: site.appendingPathComponent("away.csv"), to: orders)
        let recovered = try Self.quiet(site, at: 1_795_259_700)
        #expect(recovered.status == 0)
        #expect(recovered.stdout == "recovered: the orders source works again (failing since 2026-11-21 11:00 (GMT))\n")
        #expect(recovered.stderr == "")
        #expect(try String(contentsOf: status, encoding: .utf8) == "{\n  \"state\" : \"ok\"\n}\n")
        let ok = try Self.fileNumber(status)
        let rerun = try Self.quiet(site, at: 1_795_260_000)
        #expect(rerun.status == 0 && rerun.stdout == "" && rerun.stderr == "", "\(rerun)")
        #expect(try Self.fileNumber(status) == ok)
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("output/state/failing.json").path))
    }

    @Test func withoutQuietAFailingSourceIsSaidEveryRun() throws {
        let site = Self.site()
        try Self.quiet(site)
        try FileManager.default.removeItem(at: site.appendingPathComponent("orders.csv"))
        for _ in 0..<2 {
            let result = try TestSupport.run(["build"], in: site, environment: ["SOURCE_DATE_EPOCH": "1795258800"])
            #expect(result.status == 69)
            #expect(result.stderr.hasPrefix("orderpress: fetch: orders: cannot read "))
        }
    }

    @Test func theStatusReasonKeepsNoQuerySecret() {
        #expect(
            SourceHealth.redacted("fetch: orders: https://user:pw@sheetdb.io/api/v1/x?key=abc123 answered 500")
                == "fetch: orders: https://sheetdb.io answered 500")
    }
}
