import Foundation
import Testing

@testable import OrderPressRender
import OrderPressTestSupport

/// A rerun whose inputs are those of the last build stops after fetching: it validates, renders
/// and writes nothing (`BuildInputs`). Anything the files depend on sends it down the whole way.
@Suite struct UnchangedRerunTests {
    /// Every file under the site folder (output and state) with its bytes and modification time.
    static func stamps(_ folder: URL) throws -> [String: String] {
        var stamps: [String: String] = [:]
        let output = folder.appendingPathComponent("output")
        for path in TestSupport.files(in: output) {
            let url = output.appendingPathComponent(path)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            stamps[path] = "\(try Data(contentsOf: url).hashValue) \(modified)"
        }
        return stamps.filter { !$0.key.hasSuffix("/lock") }
    }

    static func build(_ site: URL, _ extra: [String] = [], clock: [String: String] = TestSupport.fixedClock) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.run(["build", "-v", "--progress", "never"] + extra, in: site, environment: clock)
    }

    @Test func anUnchangedRerunStopsAfterFetchingAndTouchesNothing() throws {
        let site = try TestSupport.sampleSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let first = try Self.build(site)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Self.stamps(site)
        let rerun = try Self.build(site)
        #expect(rerun.status == 0)
        #expect(rerun.stdout.contains("0 files written, \(TestSupport.sampleFileCount) unchanged, 0 removed · no changes"), "\(rerun.stdout)")
        // The same counts as the full build reported, without validating again.
        #expect(first.stdout.components(separatedBy: " · ")[0] == rerun.stdout.components(separatedBy: " · ")[0])
        #expect(rerun.stderr.contains("fetch:") && !rerun.stderr.contains("validate:") && !rerun.stderr.contains("render:"), "\(rerun.stderr)")
        #expect(try Self.stamps(site) == before)
    }

    @Test func aPublishedFileRemovedByHandIsPutBack() throws {
        let site = try TestSupport.sampleSite()
        defer { try? FileManager.default.removeItem(at: site) }
        #expect(try Self.build(site).status == 0)
        let page = site.appendingPathComponent("output/site/rates.html")
        let bytes = try Data(contentsOf: page)
        try FileManager.default.removeItem(at: page)
        let rerun = try Self.build(site)
        #expect(rerun.stdout.contains("1 file written"), "\(rerun.stdout)")
        #expect(try Data(contentsOf: page) == bytes)
    }

    /// The configuration, a template, the clock passing the rates' age limit: each changes pages.
    @Test(arguments: ["configuration", "template", "clock"])
    func whatThePagesDependOnBesidesTheDataBuildsAgain(change: String) throws {
        let site = try TestSupport.sampleSite()
        defer { try? FileManager.default.removeItem(at: site) }
        #expect(try Self.build(site).status == 0)
        var clock = TestSupport.fixedClock
        switch change {
        case "configuration":
            let config = site.appendingPathComponent("orderpress.toml")
            let text = try String(contentsOf: config, encoding: .utf8)
            try text.replacingOccurrences(of: #"title = "Friday tea run""#, with: #"title = "Saturday tea run""#)
                .write(to: config, atomically: true, encoding: .utf8)
        case "template":
            let folder = site.appendingPathComponent("templates")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try ("# Rates, ours\n" + DefaultTemplates.files["rates.md.mustache"]!).write(
                to: folder.appendingPathComponent("rates.md.mustache"), atomically: true, encoding: .utf8)
            let config = site.appendingPathComponent("orderpress.toml")
            let text = try String(contentsOf: config, encoding: .utf8)
            try text.replacingOccurrences(of: "# templates = \"templates\"", with: "templates = \"templates\"")
                .write(to: config, atomically: true, encoding: .utf8)
        default:
            clock = ["SOURCE_DATE_EPOCH": "1795514400"]  // three days on: the sample's rates are stale
        }
        let rerun = try Self.build(site, clock: clock)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stderr.contains("validate:"), "\(rerun.stderr)")
        #expect(!rerun.stdout.contains(" 0 files written"), "\(rerun.stdout)")
    }

    /// `--strict` refuses a sheet with rejected rows on every run, also when nothing changed.
    @Test func strictStillRefusesRejectedRowsWhenNothingChanged() throws {
        let site = try TestSupport.sampleSite()
        defer { try? FileManager.default.removeItem(at: site) }
        #expect(try Self.build(site).status == 0)
        let strict = try Self.build(site, ["--strict"])
        #expect(strict.status == 65, "\(strict.stdout) \(strict.stderr)")
        #expect(strict.stderr.contains("rows were rejected and --strict publishes nothing"))
    }
}
