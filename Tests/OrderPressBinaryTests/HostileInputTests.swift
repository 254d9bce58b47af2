import Foundation
import PropertyBased
import Testing
import OrderPressTestSupport

/// Generated sheets — JSON and CSV, hostile cells, damaged bytes — run through the built binary.
/// Whatever the input, a build ends with a sysexits code and at most one line on stderr, no secret
/// byte reaches any output or state file, nothing outside the configured folders changes, every row
/// read is either valid or rejected, and a rerun on the same input writes nothing.
@Suite(.shrinking(false)) struct HostileInputTests {
    @Test func everyGeneratedSheetKeepsTheGuarantees() async throws {
        let exits = Tally()
        await propertyCheck(count: 80, input: HostileSheet.generator) { sheet in
            exits.add(try Self.check(sheet))
        }
        // Not vacuous: the inputs reach published sites as well as every kind of refusal.
        #expect(exits.count(of: 0) > 0 && exits.count(of: 69) > 0, "exit codes seen: \(exits.counts)")
        print("HostileInputTests: exit codes seen \(exits.counts.sorted { $0.key < $1.key })")
    }

    private final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var counts: [Int32: Int] = [:]
        func add(_ status: Int32) { lock.withLock { counts[status, default: 0] += 1 } }
        func count(of status: Int32) -> Int { lock.withLock { counts[status, default: 0] } }
    }

    static let allowedExits: Set<Int32> = [0, 64, 65, 69, 73, 74, 75]

    /// Builds and checks one generated site; returns the build's exit status.
    @discardableResult
    static func check(_ sheet: HostileSheet) throws -> Int32 {
        let folder = TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try sheet.write(in: folder)
        let inputs = try fingerprints(of: folder)

        let build = try BoundedRun.run(["build", "-q"], in: folder)
        #expect(allowedExits.contains(build.status), "exit \(build.status): \(build.stderr)")
        // --quiet prints only news (a first run's rejected rows, a source that fails), terminal-safe and secret-free.
        #expect(isTerminalSafe(build.stdout), "--quiet printed \(build.stdout.debugDescription)")
        for secret in sheet.secrets where build.stdout.contains(secret) { Issue.record("--quiet printed the secret \(secret)") }
        let lines = build.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(build.status == 0 ? lines.isEmpty : lines.count == 1, "stderr: \(build.stderr.debugDescription)")
        #expect(isTerminalSafe(build.stderr), "stderr: \(build.stderr.debugDescription)")

        let check = try BoundedRun.run(["check"], in: folder)
        #expect([0, 64, 65, 69].contains(check.status), "check exit \(check.status): \(check.stderr)")
        #expect(isTerminalSafe(check.stdout) && isTerminalSafe(check.stderr), "check: \(check.stdout.debugDescription)")

        // Nothing but the configured folders (all under output/) may change.
        var after = try fingerprints(of: folder)
        let outputs = after.keys.filter { $0.hasPrefix("output/") }
        for path in outputs { after[path] = nil }
        #expect(after == inputs, "files outside output/ changed")

        let secrets = sheet.secrets.map { Data($0.utf8) }
        for path in outputs.sorted() {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(path))
            for secret in secrets where bytes.range(of: secret) != nil {
                Issue.record("\(path) holds the secret \(String(decoding: secret, as: UTF8.self))")
            }
            if path.hasSuffix(".html") || path.hasSuffix(".svg") {
                for tag in tags(in: String(decoding: bytes, as: UTF8.self)) where isHostile(tag) {
                    Issue.record("\(path) carries markup from the data: \(tag)")
                }
            }
        }
        for output in [build.stderr, check.stdout, check.stderr] {
            for secret in sheet.secrets where output.contains(secret) {
                Issue.record("the terminal saw the secret \(secret)")
            }
        }

        guard build.status == 0 else { return build.status }
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("output/site/summary.json")))
                as? [String: Any])
        let valid = (summary["groups"] as? [[String: Any]] ?? []).reduce(0) { $0 + ($1["orders"] as? Int ?? 0) }
        let rejected = (summary["rejected"] as? [Any])?.count ?? -1
        #expect(summary["rows_read"] as? Int == valid + rejected, "rows read \(summary["rows_read"] ?? "?") ≠ \(valid) + \(rejected)")

        let published = try fingerprints(of: folder.appendingPathComponent("output"))
        let rerun = try BoundedRun.run(["build", "-q"], in: folder)
        #expect(rerun.status == 0, "rerun exit \(rerun.status): \(rerun.stderr)")
        #expect(try fingerprints(of: folder.appendingPathComponent("output")) == published, "a rerun on the same input wrote files")
        return build.status
    }

    /// The raw tags of a page: data reaches a page only as text, so hostile markup shows as a tag.
    static func tags(in page: String) -> [String] {
        page.split(separator: "<").dropFirst().map { "<" + ($0.split(separator: ">", maxSplits: 1).first ?? "") + ">" }
    }

    /// A tag the data could only have made: a script, an event handler, a `javascript:` address.
    /// Attribute values are looked at apart, since a slug such as `img-src-x-onerror` is only text.
    static func isHostile(_ tag: String) -> Bool {
        let parts = tag.lowercased().split(separator: "\"", omittingEmptySubsequences: false)
        let values = parts.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let markup = parts.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: "\"\"")
        return ["<script", "<img src=x", "<iframe", "<b>", "onerror", "javascript:"].contains { markup.contains($0) }
            || values.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("javascript:") }
    }

    /// No control character but a line break: a cell cannot move the cursor or retitle a terminal.
    static func isTerminalSafe(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
        }
    }

    /// Every file below `folder` with its bytes and modification time, by relative path.
    static func fingerprints(of folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for path in TestSupport.files(in: folder) {
            let url = folder.appendingPathComponent(path)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            result[path] = "\(try Data(contentsOf: url).hashValue) \(modified)"
        }
        return result
    }
}

/// One generated site: an orders sheet (JSON or CSV) of hostile cells, perhaps damaged, perhaps a groups file.
struct HostileSheet: Sendable, CustomStringConvertible {
    enum Format: String, CaseIterable, Sendable { case json, csv }

    /// One change of the serialised bytes, as a broken export or a careless edit would make.
    enum Damage: String, CaseIterable, Sendable {
        case none, insertComma, insertQuote, insertNewline, deleteByte, truncate, invalidUTF8, insertNUL
    }

    var format: Format
    var rows: [[String]]
    var damage: Damage
    var damageAt: Int
    var withGroups: Bool
    var nonce: UInt64

    static let columns = [
        "id", "group", "orderer", "drink", "size", "sugar", "quantity", "price", "currency", "time", "editCode", "note", "phone",
    ]

    static let text = [
        "Amy", " amy ", "A\u{200B}my", "王小明", "\u{202E}evil", "<script>alert(1)</script>", "[x](javascript:alert(1))",
        "|x|y|", "=HYPERLINK(\"http://e.vil\")", "+1", "-2", "@SUM(A1)", "\u{1B}]0;pwned\u{07}", "\u{1B}[2J", "a\rb",
        "line\nbreak", "tab\there", "\u{0}nul", "**bold**", "~~x~~", "`code`", "&amp;", "\"quoted\"", "comma, inside",
        "👩‍💻", "e\u{301}", "\u{FEFF}bom", "soft\u{AD}hyphen", "", "   ", "..", "../../etc/passwd", "con", "index",
        String(repeating: "長", count: 600), "\\", "<!-- x -->", "{{title}}", "%2e%2e", "\u{85}nel", "\u{9B}31m",
        "<img src=x onerror=alert(1)>", "user@example.org", "https://e.vil/",
    ]
    static let groups = ["週五下午茶", "Lunch", "", "<script>", "\u{202E}g", "Lunch\u{200B}", "../x", "index", "unknown"]
    static let prices = [
        "35", "35.50", "1,200", "-5", "0", "", "NT$35", "1e5", "9999999999999", "0.0000001", "abc", "999999999999.999999",
        "99999999999999999999", " 12 ", "12.", ".5",
    ]
    static let quantities = ["", "1", "2", "0", "-1", "10000", "10001", "9223372036854775807", "1.5", "x"]
    static let currencies = ["", "TWD", "USD", "JPY", "twd", "XXX", "EUR", "<b>", "TW"]
    static let times = ["", "2026-11-21 09:15", "garbage", "2026-13-45 99:99"]
    static let ids = ["", "1", "2", "=1", "<id>", "3"]

    /// The pool each column draws from; `editCode` and `phone` are made unique per row instead.
    static func pool(_ column: String) -> [String] {
        switch column {
        case "id": ids
        case "group": groups
        case "price": prices
        case "quantity": quantities
        case "currency": currencies
        case "time": times
        default: text
        }
    }

    static let generator = zip(
        zip(Gen<Format>.case, Gen<Damage>.case, Gen.int(in: 0...1_000_000)),
        Gen.int(in: 0...1_000_000).array(of: columns.count).array(of: 1...12),
        Gen.bool, Gen<UInt64>.uint64(in: 1...UInt64.max)
    ).map { setup, choices, withGroups, nonce in
        HostileSheet(
            format: setup.0,
            rows: choices.enumerated().map { row, picks in
                zip(columns, picks).map { column, pick in
                    switch column {
                    case "editCode": "EC\(String(nonce &+ UInt64(row), radix: 36))Z"
                    case "phone": "PH\(String(nonce &* 3 &+ UInt64(row), radix: 36))Z"
                    default: pool(column)[pick % pool(column).count]
                    }
                }
            },
            damage: setup.1, damageAt: setup.2, withGroups: withGroups, nonce: nonce)
    }

    /// The values that must never be published: edit codes (secret) and phone numbers (unmapped).
    var secrets: [String] {
        let secretColumns = [Self.columns.firstIndex(of: "editCode")!, Self.columns.firstIndex(of: "phone")!]
        return rows.flatMap { row in secretColumns.map { row[$0] } }
    }

    var description: String {
        "\(format) sheet of \(rows.count) rows, damage \(damage)@\(damageAt), groups: \(withGroups), rows: \(rows)"
    }

    func write(in folder: URL) throws {
        let ordersFile = "orders.\(format.rawValue)"
        var bytes = [UInt8](format == .json ? json() : csv())
        apply(to: &bytes)
        try Data(bytes).write(to: folder.appendingPathComponent(ordersFile))
        try Data(
            #"{"base": "USD", "date": "2026-11-20", "rates": {"TWD": 32.125, "JPY": 154.32, "EUR": 0.8612}}"#.utf8
        ).write(to: folder.appendingPathComponent("rates.json"))
        var toml = """
            title = "Generated"
            base_currency = "TWD"
            display_currencies = ["USD", "JPY"]
            [output]
            markdown = "output/markdown"
            site = "output/site"
            state = "output/state"
            [orders]
            path = "\(ordersFile)"
            [orders.columns]
            secret = ["editCode"]
            [rates]
            path = "rates.json"
            format = "json"

            """
        if withGroups {
            toml += "[groups]\npath = \"groups.json\"\n"
            let groups: [[String: String]] = [
                ["group": "週五下午茶", "organizer": "王小明", "shop": "<b>茶</b>", "currency": "TWD", "deadline": "\u{1B}[31m"],
                ["group": "Lunch", "organizer": "|x|", "shop": "[a](b)", "currency": "JPY", "deadline": ""],
            ]
            try JSONSerialization.data(withJSONObject: groups, options: [.sortedKeys])
                .write(to: folder.appendingPathComponent("groups.json"))
        }
        try Data(toml.utf8).write(to: folder.appendingPathComponent("orderpress.toml"))
    }

    private func json() -> Data {
        let objects = rows.map { Dictionary(uniqueKeysWithValues: zip(Self.columns, $0)) }
        return try! JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
    }

    private func csv() -> Data {
        func field(_ value: String) -> String {
            // By scalar: "\r\n" is one Character, so a Character test would miss a lone "\n".
            value.unicodeScalars.contains(where: { ",\"\r\n".unicodeScalars.contains($0) })
                ? "\"\(value.replacingOccurrences(of: "\"", with: "\"\""))\"" : value
        }
        let lines = [Self.columns] + rows
        return Data(lines.map { $0.map(field).joined(separator: ",") }.joined(separator: "\r\n").utf8 + [0x0D, 0x0A])
    }

    private func apply(to bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        let at = damageAt % bytes.count
        switch damage {
        case .none: break
        case .insertComma: bytes.insert(UInt8(ascii: ","), at: at)
        case .insertQuote: bytes.insert(UInt8(ascii: "\""), at: at)
        case .insertNewline: bytes.insert(0x0A, at: at)
        case .deleteByte: bytes.remove(at: at)
        case .truncate: bytes.removeSubrange(at...)
        case .invalidUTF8: bytes.insert(0xFF, at: at)
        case .insertNUL: bytes.insert(0x00, at: at)
        }
    }
}

/// Runs the built binary with a deadline: a build that hangs is a failure, not a stuck test run.
enum BoundedRun {
    static let deadline: TimeInterval = 60

    static func run(_ arguments: [String], in folder: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = TestSupport.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(["SOURCE_DATE_EPOCH": "1795255200"]) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let collected = Collected()
        let readers = DispatchGroup()
        for (pipe, isError) in [(out, false), (err, true)] {
            readers.enter()
            Thread.detachNewThread {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, isError: isError)
                readers.leave()
            }
        }
        try process.run()
        let started = Date()
        while process.isRunning {
            if Date().timeIntervalSince(started) > deadline {
                process.terminate()
                process.waitUntilExit()
                Issue.record("orderpress \(arguments.joined(separator: " ")) ran longer than \(Int(deadline)) s")
                break
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        readers.wait()
        return (process.terminationStatus, collected.text(isError: false), collected.text(isError: true))
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var out = Data()
        private var err = Data()

        func set(_ data: Data, isError: Bool) {
            lock.withLock { if isError { err = data } else { out = data } }
        }

        func text(isError: Bool) -> String {
            lock.withLock { String(decoding: isError ? err : out, as: UTF8.self) }
        }
    }
}
