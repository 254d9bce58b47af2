import Foundation
import Testing
import OrderPressTestSupport


/// Runs the built `orderpress` binary on a copy of the sample, as a user would.
@Suite struct BinaryTests {
    @Test func buildsTheSampleWithHandComputedTotals() throws {
        let site = try TestSupport.sampleSite()
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("37 orders, 5 rejected, 2 warnings · \(TestSupport.sampleFileCount) files written, 0 unchanged, 0 removed · first run: nothing to compare · "))

        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        #expect(summary["rows_read"] as? Int == 42)
        #expect(summary["data_as_of"] as? String == "2026-11-21T08:00:00Z")
        let groups = try #require(summary["groups"] as? [[String: Any]])
        // Totals worked out by hand from data/orders.json; conversions at USD→TWD 32.125, USD→JPY 154.32,
        // each exact total converted once and rounded half-up (TWD has 0 minor units by configuration).
        let expected: [(String, String, Int, String, String, String)] = [
            ("週五下午茶", "TWD", 21, "2210", "68.79", "10616"),
            ("東京出張ランチ", "JPY", 8, "7380", "47.82", "7380"),
            ("SF office boba", "USD", 8, "55.5", "55.50", "8565"),
            ("週一早餐", "TWD", 0, "0", "0.00", "0"),
        ]
        #expect(groups.count == expected.count)
        for (group, (name, currency, orders, total, usd, jpy)) in zip(groups, expected) {
            #expect(group["name"] as? String == name)
            #expect(group["currency"] as? String == currency)
            #expect(group["orders"] as? Int == orders)
            #expect(group["total"] as? String == total)
            #expect((group["converted"] as? [String: String]) == ["USD": usd, "JPY": jpy])
        }
        let tea = try #require(groups.first?["people"] as? [[String: Any]])
        let amy = try #require(tea.first { $0["name"] as? String == "Amy" })
        #expect(amy["orders"] as? Int == 3)  // "Amy" and " amy " are one person
        #expect(amy["total"] as? String == "125")
        let people = try #require(summary["people"] as? [[String: Any]])
        let amyEverywhere = try #require(people.first { $0["name"] as? String == "Amy" })
        #expect((amyEverywhere["totals"] as? [String: String]) == ["TWD": "125", "USD": "10.25"])
        #expect((amyEverywhere["converted"] as? [String: String]) == ["USD": "14.14", "JPY": "2182"])
        let lee = try #require(people.first { $0["name"] as? String == "李美玲" })
        #expect((lee["converted"] as? [String: String]) == ["USD": "2.80", "JPY": "432"])

        let rejected = try #require(summary["rejected"] as? [[String: Any]])
        #expect(rejected.map { $0["row"] as? Int } == [10, 18, 24, 28, 34])
        #expect(rejected.map { ($0["reasons"] as? [String])?.first ?? "" } == [
            "price must not be negative", "person is missing (column 'orderer')",
            "price 'US$35' is marked US$, which is not TWD, the order's currency",
            "quantity must be a whole number from 1 to 10,000 (found '0')", "unknown group '不存在的團'",
        ])
        #expect((rejected.first?["values"] as? [String: String])?["editCode"] == "•••")

        let sheet = try String(contentsOf: site.appendingPathComponent("output/markdown/groups/週五下午茶.md"), encoding: .utf8)
        #expect(sheet.contains("| 3 × 熟成紅茶 L 半糖 少冰 | 35 | 105 |\n"))
        #expect(sheet.contains("| 4 × 冬瓜檸檬 L 全糖 正常冰 | 45 | 180 |\n"))
        #expect(sheet.contains("| 1 × 鮮果茶桶 微糖 少冰 | 1,200 | 1,200 |\n"))  // grouped by the catalogue's thousands separator
    }

    /// Worked out by hand from the `paid` cells of data/orders.json: a person owes the sum of their
    /// unpaid orders in a group (LINE Pay is not a paid value: Kevin's 60 stays unpaid).
    @Test func summaryCarriesPaymentsComputedByHand() throws {
        let site = try TestSupport.sampleSite()
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        let groups = try #require(summary["groups"] as? [[String: Any]])
        #expect(groups.map { $0["outstanding"] as? String } == ["310", "3390", "28", "0"])
        let expected: [[String: (paid: String, outstanding: String)]] = [
            ["Amy": ("35", "90"), "Ben": ("125", "45"), "Kevin Lin": ("0", "110"), "張志豪": ("90", "65"),
             "李美玲": ("90", "0"), "林佳慧": ("160", "0"), "王小明": ("1315", "0"), "陳怡君": ("85", "0")],
            ["陳怡君": ("2890", "0"), "張志豪": ("0", "1930"), "黃俊傑": ("1100", "1460")],
            ["Kevin Lin": ("21", "0"), "Sarah Chen": ("6.5", "17.75"), "Amy": ("0", "10.25")],
            [:],
        ]
        for (group, people) in zip(groups, expected) {
            let rows = try #require(group["people"] as? [[String: Any]])
            #expect(rows.count == people.count)
            for row in rows {
                let name = try #require(row["name"] as? String)
                #expect(row["paid"] as? String == people[name]?.paid, "\(name) in \(group["name"]!)")
                #expect(row["outstanding"] as? String == people[name]?.outstanding, "\(name) in \(group["name"]!)")
            }
        }
        let people = try #require(summary["people"] as? [[String: Any]])
        let owed = Dictionary(uniqueKeysWithValues: people.map { ($0["name"] as! String, $0["outstanding"] as? [String: String]) })
        #expect(owed == [
            "Amy": ["TWD": "90", "USD": "10.25"], "Ben": ["TWD": "45"], "Kevin Lin": ["TWD": "110", "USD": "0"],
            "Sarah Chen": ["USD": "17.75"], "張志豪": ["JPY": "1930", "TWD": "65"], "李美玲": ["TWD": "0"],
            "林佳慧": ["TWD": "0"], "王小明": ["TWD": "0"], "陳怡君": ["JPY": "0", "TWD": "0"], "黃俊傑": ["JPY": "1460"],
        ])
        let warnings = try #require(summary["warnings"] as? [[String: Any]])
        #expect(warnings.contains { $0["row"] as? Int == 7 && ($0["message"] as? String)?.hasPrefix("paid 'LINE Pay' ") == true })

        let zhang = try String(contentsOf: site.appendingPathComponent("output/markdown/people/張志豪.md"), encoding: .utf8)
        #expect(zhang.contains("65 TWD"))
        #expect(zhang.contains("1,930 JPY"))
        #expect(zhang.contains("王小明"))
        let lee = try String(contentsOf: site.appendingPathComponent("output/markdown/people/李美玲.md"), encoding: .utf8)
        #expect(!lee.contains("TWD to") && !lee.contains("TWD 給"))
    }

    @Test func withoutAPaidColumnNothingAboutPaymentsIsShown() throws {
        let site = try TestSupport.sampleSite()
        let config = site.appendingPathComponent("orderpress.toml")
        let text = try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: "paid = \"paid\"", with: "paid = \"bezahlt\"")
        try Data(text.utf8).write(to: config)
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try String(contentsOf: site.appendingPathComponent("output/site/summary.json"), encoding: .utf8)
        #expect(!summary.contains("\"outstanding\""))
        #expect(!summary.contains("\"paid\""))
    }

    @Test func noSecretOrUnmappedValueReachesAnyOutput() throws {
        let site = try TestSupport.sampleSite()
        try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        let orders = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: site.appendingPathComponent("data/orders.json"))) as? [[String: String]])
        let secrets = orders.compactMap { $0["editCode"] } + orders.compactMap { $0["phone"] }
        #expect(!orders.isEmpty && secrets.count == 2 * orders.count)
        let output = site.appendingPathComponent("output")
        for path in TestSupport.files(in: output) {
            let text = String(decoding: try Data(contentsOf: output.appendingPathComponent(path)), as: UTF8.self)
            for secret in secrets where !secret.isEmpty {
                #expect(!text.contains(secret), "\(path) contains a secret")
            }
        }
    }

    @Test func everyLinkOfTheSiteResolves() throws {
        let site = try TestSupport.sampleSite()
        try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        let root = site.appendingPathComponent("output/site")
        let pattern = try NSRegularExpression(pattern: #"(?:href|src)="([^"]*)""#)
        var checked = 0
        for path in TestSupport.files(in: root) where path.hasSuffix(".html") {
            let page = root.appendingPathComponent(path)
            let html = try String(contentsOf: page, encoding: .utf8)
            #expect(html.hasPrefix("<!doctype html>\n<html lang=\"zh-Hant\">"))
            #expect(!html.contains("<script"))
            for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
                let target = String(html[Range(match.range(at: 1), in: html)!])
                #expect(!target.contains(":"), "\(path) links outside the site: \(target)")
                let file = target.split(separator: "#").first.map(String.init) ?? ""
                let resolved = URL(fileURLWithPath: file.removingPercentEncoding!, relativeTo: page.deletingLastPathComponent())
                #expect(FileManager.default.fileExists(atPath: resolved.path), "\(path) → \(target) is broken")
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    @Test func quietPrintsNothingAndFilesAreWorldReadableUnderAStrictUmask() throws {
        let site = try TestSupport.sampleSite()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "umask 077 && exec \"$0\" build --quiet", TestSupport.binary.path]
        process.currentDirectoryURL = site
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // Only news: the first run's rejected rows, one line each.
        let lines = String(decoding: printed, as: UTF8.self).split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("被退回：") }, "\(String(decoding: printed, as: UTF8.self))")
        let root = site.appendingPathComponent("output/site")
        for path in ["index.html", "groups/週五下午茶.html", "summary.json"] {
            let mode = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)[.posixPermissions] as? Int
            #expect(mode == 0o644, "\(path)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("groups").path)[.posixPermissions] as? Int == 0o755)
    }

    @Test func strictRefusesToPublishRejectedRows() throws {
        let site = try TestSupport.sampleSite()
        let result = try TestSupport.run(["build", "--strict"], in: site)
        #expect(result.status == 65)
        #expect(result.stderr == "orderpress: validate: 5 of 42 rows were rejected and --strict publishes nothing; run 'orderpress check' to list them\n")
        #expect(TestSupport.files(in: site.appendingPathComponent("output")) == ["state/lock"])
    }

    @Test func checkListsEveryProblemWithItsRow() throws {
        let site = try TestSupport.sampleSite()
        let result = try TestSupport.run(["check"], in: site)
        #expect(result.status == 65)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains(": rejected: ") }.map { String($0.prefix(while: { $0 != ":" })) } == ["row 10", "row 18", "row 24", "row 28", "row 34"])
        #expect(lines.contains("warning: orders: column 'phone' is not mapped in the configuration and is not published"))
        #expect(lines.last == "42 rows: 37 valid, 5 rejected, 2 warnings")
        #expect(!result.stdout.contains("0912"))
        #expect(result.stderr == "orderpress: check: 5 rows rejected; fix them in the sheet\n")
    }

    @Test func aMissingOrdersFileExits69AndLeavesTheSiteAsItWas() throws {
        let site = try TestSupport.sampleSite()
        try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        let output = site.appendingPathComponent("output")
        let before = try TestSupport.files(in: output).filter { !["site/status.json", "state/failing.json"].contains($0) }
            .map { try Data(contentsOf: output.appendingPathComponent($0)) }
        try FileManager.default.removeItem(at: site.appendingPathComponent("data/orders.json"))
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 69)
        #expect(result.stderr == "orderpress: fetch: orders: cannot read 'orders.json' (No such file or directory); check [orders] path in the configuration\n")
        // Only the failure's record and status.json (see CronNewsTests) change.
        let after = try TestSupport.files(in: output).filter { !["site/status.json", "state/failing.json"].contains($0) }
        #expect(try after.map { try Data(contentsOf: output.appendingPathComponent($0)) } == before)
        #expect(try String(contentsOf: output.appendingPathComponent("site/status.json"), encoding: .utf8).contains(#""state" : "failing""#))
    }

    @Test(arguments: [
        ("[orders]\npath = \"o.json\"\nlimit = 3\n", "orderpress: orderpress.toml: unknown key 'orders.limit'; remove it or check its spelling\n"),
        ("title = [\n", nil),
    ])
    func aBadConfigurationExits64(toml: String, message: String?) throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["orderpress.toml": toml], in: folder)
        let result = try TestSupport.run(["build"], in: folder)
        #expect(result.status == 64)
        if let message { #expect(result.stderr == message) }
        #expect(result.stderr.hasPrefix("orderpress: orderpress.toml: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func quietAndVerboseTogetherIsAUsageError() throws {
        let result = try TestSupport.run(["build", "--quiet", "--verbose"], in: TestSupport.temporaryFolder())
        #expect(result.status == 64)
        #expect(result.stderr.contains("--quiet and --verbose cannot be used together."))
    }

    @Test func dryRunListsButWritesNothing() throws {
        let site = try TestSupport.sampleSite()
        let result = try TestSupport.run(["build", "--dry-run"], in: site)
        #expect(result.status == 0)
        #expect(result.stdout.contains("write  \(site.appendingPathComponent("output/site/index.html").standardizedFileURL.path)\n"))
        #expect(result.stdout.contains("\(TestSupport.sampleFileCount) files would be written"))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("output").path))
    }

    @Test func markdownCommandMatchesCmarkGFM() throws {
        let spec = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/doc/cmark-gfm/spec.txt.gz"))
        let unzip = Process()
        unzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        unzip.arguments = ["-dc"]
        let input = Pipe()
        let output = Pipe()
        unzip.standardInput = input
        unzip.standardOutput = output
        try unzip.run()
        input.fileHandleForWriting.write(spec)
        try input.fileHandleForWriting.close()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        unzip.waitUntilExit()

        let expected = try ReferenceCMark.commandLineOutput([String(decoding: text, as: UTF8.self)])[0]
        let fromStdin = try TestSupport.run(["markdown"], input: text)
        #expect(fromStdin.status == 0)
        #expect(Data(fromStdin.stdout.utf8) == expected)

        let folder = TestSupport.temporaryFolder()
        try text.write(to: folder.appendingPathComponent("spec.md"))
        let fromFile = try TestSupport.run(["markdown", folder.appendingPathComponent("spec.md").path])
        #expect(Data(fromFile.stdout.utf8) == expected)
    }

    /// A standard input larger than the memory the process may have: one line and 74, never a crash
    /// (Foundation's `readDataToEndOfFile` is a `try!`): 160 MB of input under a 200 MB address-space limit.
    @Test func markdownFromAStandardInputLargerThanMemoryFailsInOneLine() throws {
        let folder = TestSupport.temporaryFolder()
        let big = folder.appendingPathComponent("big.md")
        try Data(repeating: UInt8(ascii: "a"), count: 160_000_000).write(to: big)
        let result = try TestSupport.run(
            ["-c", "ulimit -v 200000; exec \"$0\" markdown < \"$1\"", TestSupport.binary.path, big.path],
            executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.status == 74)
        #expect(result.stdout == "")
        #expect(result.stderr == "orderpress: markdown: cannot read standard input (Cannot allocate memory); pass a smaller document, or its path as FILE\n")
        try FileManager.default.removeItem(at: big)
    }
}
