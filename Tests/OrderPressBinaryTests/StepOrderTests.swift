import Foundation
import Testing
import OrderPressTestSupport


/// The steps of a build as the binary shows them: the progress display numbers them in the order they
/// run, `-v` times them in that order, and a failed run names the step the display last showed.
@Suite struct StepOrderTests {
    /// Written out rather than taken from `Step.allCases`, so that a case listed out of run order fails here.
    static let runOrder = ["lock", "configure", "fetch", "validate", "diff", "aggregate", "render", "publish", "snapshot"]

    /// The progress display's steps, in the order it showed them: "[5/9] diff…" as (5, 9, "diff").
    static func shown(_ stderr: String) -> [(position: Int, of: Int, step: String)] {
        stderr.matches(of: #/\[(\d+)\/(\d+)\] (\w+)…/#).map { (Int($0.1) ?? 0, Int($0.2) ?? 0, String($0.3)) }
    }

    /// The steps `-v` timed ("debug … fetch: 0.010 s"), in the order it printed them.
    static func timed(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in
            guard let match = line.firstMatch(of: #/\] (\w+): \d+\.\d{3} s$/#) else { return nil }
            return String(match.1)
        }
    }

    static func build(_ site: URL, _ extra: [String] = [], clock: [String: String] = TestSupport.fixedClock) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.run(["build", "--progress", "always", "-v"] + extra, in: site, environment: clock)
    }

    /// A full build runs every step; a dry run saves no snapshot; a rerun on unchanged input stops after fetching.
    @Test(arguments: [
        ([], runOrder),
        (["--dry-run"], Array(runOrder.dropLast())),
    ])
    func theProgressDisplayNumbersTheStepsInTheOrderTheyRun(options: [String], steps: [String]) throws {
        let site = try TestSupport.sampleSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let result = try Self.build(site, options)
        #expect(result.status == 0, "\(result.stderr)")
        let shown = Self.shown(result.stderr)
        #expect(shown.map(\.step) == steps)
        #expect(shown.map(\.position) == Array(1...steps.count))
        #expect(shown.allSatisfy { $0.of == Self.runOrder.count })
        #expect(Self.timed(result.stderr) == steps)
    }

    /// With `ORDERPRESS_MEMORY_TRACE` set, the allocator's counts as each step begins and once they
    /// end (how docs/benchmarks.md finds a large build's peak); without it, none.
    @Test func theMemoryTraceMarksEachStep() throws {
        let site = try TestSupport.sampleSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let traced = try TestSupport.run(["build", "--progress", "never"], in: site, environment: TestSupport.fixedClock.merging(["ORDERPRESS_MEMORY_TRACE": "1"]) { $1 })
        #expect(traced.status == 0, "\(traced.stderr)")
        let marks = traced.stderr.matches(of: #/\[memory\] (\w+) begins: allocated \d+ MiB, active \d+, resident \d+, process \d+; highest since the last mark: allocated \d+, resident \d+, process \d+/#)
        #expect(marks.map { String($0.1) } == Self.runOrder)
        #expect(traced.stderr.contains("[memory] the steps end: allocated "))
        let other = try TestSupport.sampleSite()
        defer { try? FileManager.default.removeItem(at: other) }
        let plain = try TestSupport.run(["build", "--progress", "never"], in: other, environment: TestSupport.fixedClock)
        #expect(plain.status == 0)
        #expect(!plain.stderr.contains("[memory]"))
    }

    @Test func anUnchangedRerunShowsTheStepsUpToFetching() throws {
        let site = try TestSupport.sampleSite()
        defer { try? FileManager.default.removeItem(at: site) }
        #expect(try Self.build(site).status == 0)
        let rerun = try Self.build(site)
        #expect(rerun.stdout.contains("0 files written"), "\(rerun.stdout)")
        #expect(Self.shown(rerun.stderr).map(\.step) == ["lock", "configure", "fetch"])
        #expect(Self.timed(rerun.stderr) == ["lock", "configure", "fetch"])
    }

    /// Each failure names the step that failed, the one the progress display showed last, and exits
    /// with that failure's status.
    @Test(arguments: [
        ("broken template", "configure", 64),
        ("orders file missing", "fetch", 69),
        ("strict with rejected rows", "validate", 65),
        ("sheet emptied", "diff", 65),
    ])
    func aFailedRunNamesTheStepTheDisplayShowedLast(failure: String, step: String, status: Int32) throws {
        let site = try TestSupport.sampleSite()
        defer { try? FileManager.default.removeItem(at: site) }
        #expect(try Self.build(site).status == 0)
        var extra: [String] = []
        switch failure {
        case "broken template":
            TestSupport.write(["attention.md.mustache": "{{> nothing}}\n"], in: site.appendingPathComponent("templates"))
            let config = site.appendingPathComponent("orderpress.toml")
            let toml = try String(contentsOf: config, encoding: .utf8)
            try Data(toml.replacingOccurrences(of: "# templates = \"templates\"", with: "templates = \"templates\"").utf8).write(to: config)
        case "orders file missing":
            try FileManager.default.removeItem(at: site.appendingPathComponent("data/orders.json"))
        case "strict with rejected rows":
            extra = ["--strict"]
        default:
            try Data("[]".utf8).write(to: site.appendingPathComponent("data/orders.json"))
        }
        let result = try Self.build(site, extra, clock: CronTests.after)
        #expect(result.status == status, "\(result.stderr)")
        #expect(Self.shown(result.stderr).last?.step == step, "\(result.stderr)")
        // The error line, "orderpress: diff: …" (log lines go on "orderpress: [orderpress] …").
        #expect(result.stderr.matches(of: #/orderpress: (\w+): /#).map { String($0.1) } == [step], "\(result.stderr)")
    }
}
