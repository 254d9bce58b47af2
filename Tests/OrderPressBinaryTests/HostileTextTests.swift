import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
import OrderPressTestSupport
#endif


/// The built binary on data, paths and templates made to attack the terminal, spreadsheets, XML
/// readers and the template engine.
@Suite struct HostileTextTests {
    /// Cells that retitle the terminal, clear it, move the cursor, reverse the line (C0, C1, bidi),
    /// run a formula in a spreadsheet or break XML.
    static let hostileRows: [[String: String]] = [
        ["id": "101", "group": "週五下午茶", "orderer": "Amy\u{1B}]0;pwned\u{7}", "drink": "熟成紅茶\u{1B}[2J", "quantity": "1", "price": "35",
         "note": "=HYPERLINK(\"http://evil.example\",\"x\")\r\u{9B}31m\u{202E}abc"],
        ["id": "102", "group": "週五下午茶", "orderer": "Ben]]><script>alert(1)</script>\u{1}", "drink": "奶茶\u{FFFE}\u{8}", "quantity": "1",
         "price": "40", "note": "-ice"],
        ["id": "103", "group": "週五下午茶", "orderer": "Cat", "drink": "紅茶", "quantity": "1", "price": "\u{1B}[2J\u{9B}5n"],
        ["id": "104", "group": "\u{1B}]0;ghost\u{7}", "orderer": "Dan\r", "drink": "紅茶", "quantity": "1", "price": "30"],
    ]

    /// The sample with the hostile rows added to its orders.
    static func hostileSite() throws -> URL {
        let site = try TestSupport.sampleSite()
        let url = site.appendingPathComponent("data/orders.json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: String]])
        try JSONSerialization.data(withJSONObject: rows + hostileRows).write(to: url)
        // A header name with control characters (normalisation removes them, as from every cell).
        let groups = site.appendingPathComponent("data/groups.csv")
        let lines = try String(contentsOf: groups, encoding: .utf8).split(separator: "\r\n")
        let withColumn = ["\(lines[0]),\u{1B}]0;pwned\u{7}hdr"] + lines.dropFirst().map { "\($0),x" }
        try Data((withColumn.joined(separator: "\r\n") + "\r\n").utf8).write(to: groups)
        return site
    }

    /// Text a terminal shows as is: no C0 control but the line feed, no DEL, no C1 control, no bidi control.
    static func expectTerminalSafe(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let unsafe = text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
                || ("\u{202A}"..."\u{202E}").contains($0) || ("\u{2066}"..."\u{2069}").contains($0)
        }
        #expect(unsafe.isEmpty, "\(what) holds \(unsafe.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
    }

    static func lines(_ text: String) -> Int { text.split(separator: "\n", omittingEmptySubsequences: false).count - 1 }

    @Test func checkDiffAndBuildPrintNoControlCharacter() throws {
        let site = try Self.hostileSite()
        let check = try TestSupport.run(["check"], in: site)
        #expect(check.status == 65)
        Self.expectTerminalSafe(check.stdout, "check's stdout")
        Self.expectTerminalSafe(check.stderr, "check's stderr")
        #expect(Self.lines(check.stderr) == 1)
        // Control characters are gone from data and header names before anything is printed (Text.normalize).
        #expect(check.stdout.contains("price '[2J5n' is not a number"))
        #expect(check.stdout.contains("groups: column ']0;pwnedhdr' is not mapped"))

        let build = try TestSupport.run(["build", "--verbose"], in: site, environment: TestSupport.fixedClock)
        #expect(build.status == 0, "\(build.stderr)")
        Self.expectTerminalSafe(build.stdout, "build's stdout")
        Self.expectTerminalSafe(build.stderr, "build's log")

        // Row 101 changes, 102 goes: the diff prints both people's names.
        let url = site.appendingPathComponent("data/orders.json")
        var rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: String]])
        rows.removeAll { $0["id"] == "102" }
        for index in rows.indices where rows[index]["id"] == "101" { rows[index]["drink"] = "綠茶\u{1B}[1A\u{85}" }
        try JSONSerialization.data(withJSONObject: rows).write(to: url)
        let diff = try TestSupport.run(["diff"], in: site, environment: TestSupport.fixedClock)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("deleted  ") && diff.stdout.contains("changed  "))
        Self.expectTerminalSafe(diff.stdout, "diff's stdout")
        #expect(diff.stderr.isEmpty)

        let dryRun = try TestSupport.run(["build", "--dry-run", "--verbose"], in: site, environment: TestSupport.fixedClock)
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        Self.expectTerminalSafe(dryRun.stdout, "--dry-run's stdout")
        Self.expectTerminalSafe(dryRun.stderr, "--dry-run's log")
    }

    /// Paths come from the configuration and reach error lines and `--dry-run` without normalisation.
    @Test func pathsWithControlCharactersAreEscaped() throws {
        let site = try TestSupport.sampleSite()
        let config = site.appendingPathComponent("orderpress.toml")
        let toml = try String(contentsOf: config, encoding: .utf8)
        try Data(toml.replacingOccurrences(of: "output/site", with: #"output/\u001B]0;pwned\u0007site"#).utf8).write(to: config)
        let dryRun = try TestSupport.run(["build", "--dry-run"], in: site)
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.contains(#"/output/\u{1B}]0;pwned\u{7}site/index.html"#))
        Self.expectTerminalSafe(dryRun.stdout, "--dry-run's stdout")

        try Data(toml.replacingOccurrences(of: "data/orders.json", with: #"data/\u001B[2J\u009B2J\u202Eorders.json"#).utf8).write(to: config)
        let failure = try TestSupport.run(["build"], in: site)
        #expect(failure.status == 69)
        #expect(Self.lines(failure.stderr) == 1)
        #expect(failure.stderr.hasPrefix("orderpress: fetch: orders: cannot read "))
        #expect(failure.stderr.contains(#"'\u{1B}[2J\u{9B}2J\u{202E}orders.json'"#))
        Self.expectTerminalSafe(failure.stderr, "the error line")
    }

    /// Each of these crashed or rendered nothing before: now exit 64 with one line naming the file.
    @Test(arguments: [
        (["index.md.mustache": "# {{title}}\n{{> index}}\n"], "index.md.mustache: includes itself through partials (index → index)"),
        (["group.md.mustache": "{{> person}}\n", "person.md.mustache": "{{> group}}\n"], "group.md.mustache: includes itself through partials (group → person → group)"),
        (["rates.md.mustache": "# Rates\n{{#rates}}\n"], "rates.md.mustache: line "),
        (["attention.md.mustache": "{{> nothing}}\n"], "attention.md.mustache: {{> nothing}} names no template"),
    ])
    func aBrokenTemplateFolderExits64WithOneLine(files: [String: String], message: String) throws {
        let site = try TestSupport.sampleSite()
        TestSupport.write(files, in: site.appendingPathComponent("templates"))
        let config = site.appendingPathComponent("orderpress.toml")
        let toml = try String(contentsOf: config, encoding: .utf8)
        try Data(toml.replacingOccurrences(of: "# templates = \"templates\"", with: "templates = \"templates\"").utf8).write(to: config)
        for command in [["build"], ["build", "--dry-run"]] {
            let result = try TestSupport.run(command, in: site)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("orderpress: configure: \(site.appendingPathComponent("templates").path)/\(message)"), "\(result.stderr)")
            #expect(Self.lines(result.stderr) == 1)
        }
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("output/site").path))
    }

    /// orders.csv, feed.xml, the charts and summary.json stay what their readers expect, whatever the cells hold.
    @Test func publishedFilesStayWellFormed() throws {
        let site = try Self.hostileSite()
        let first = try TestSupport.run(["build"], in: site, environment: ChangesTests.firstRun)
        #expect(first.status == 0, "\(first.stderr)")
        try ChangesTests.editOrders(in: site)
        let url = site.appendingPathComponent("data/orders.json")
        var rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: String]])
        rows.removeAll { $0["id"] == "101" }
        try JSONSerialization.data(withJSONObject: rows + [Self.hostileRows[0].merging(["id": "105"]) { $1 }]).write(to: url)
        let second = try TestSupport.run(["build"], in: site, environment: ChangesTests.secondRun)
        #expect(second.status == 0, "\(second.stderr)")
        let output = site.appendingPathComponent("output/site")

        let csv = try Data(contentsOf: output.appendingPathComponent("orders.csv"))
        #expect(csv.starts(with: [0xEF, 0xBB, 0xBF]))
        let text = String(decoding: csv.dropFirst(3), as: UTF8.self)
        #expect(text.hasPrefix("row,id,group,person,item,options,quantity,unit_price,currency,amount,time,note,paid,owed\r\n"))
        #expect(text.contains(#","'=HYPERLINK(""http://evil.example"",""x"")"#))
        #expect(text.contains(",'-ice,"))  // the note, then paid and owed
        #expect(!text.contains(",=") && !text.contains(",\"=") && !text.contains(",-"))

        let feed = try Data(contentsOf: output.appendingPathComponent("feed.xml"))
        #expect(String(decoding: feed, as: UTF8.self).contains("<entry>"))
        let charts = TestSupport.files(in: output).filter { $0.hasSuffix(".svg") }
        #expect(!charts.isEmpty)
        for file in ["feed.xml"] + charts {
            let parser = XMLParser(data: try Data(contentsOf: output.appendingPathComponent(file)))
            #expect(parser.parse(), "\(file): \(String(describing: parser.parserError))")
        }
        let tea = try String(contentsOf: output.appendingPathComponent("groups/週五下午茶.svg"), encoding: .utf8)
        #expect(tea.contains("Ben]]&gt;&lt;script&gt;"))
        #expect(String(decoding: feed, as: UTF8.self).contains("Amy]0;pwned"))

        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("summary.json"))) is [String: Any])
        // Pages show control characters as visible escapes: no page and no committed Markdown holds one.
        let markdown = site.appendingPathComponent("output/markdown")
        for file in TestSupport.files(in: output).filter({ $0.hasSuffix(".html") }).map(output.appendingPathComponent)
            + TestSupport.files(in: markdown).filter({ $0.hasSuffix(".md") }).map(markdown.appendingPathComponent)
        {
            let page = try String(contentsOf: file, encoding: .utf8)
            #expect(file.pathExtension == "md" || !page.contains("<script"), "\(file.lastPathComponent)")
            Self.expectTerminalSafe(page, file.lastPathComponent)
        }
        let attention = try String(contentsOf: output.appendingPathComponent("attention.html"), encoding: .utf8)
        #expect(attention.contains("price: [2J5n"))
    }
}
