import Foundation
import Testing
import OrderPressTestSupport


/// Local files the build reads, larger than it reads or not files at all: refused by their size or
/// type before any byte is read. The large files are sparse (`ftruncate`): gigabytes on paper, nothing
/// on disk.
@Suite struct OversizedSourceTests {
    static let clock = TestSupport.fixedClock


    /// 5 GiB of rates aborted with a fatal error (exit 134); 5 GiB of orders took 39 s to say "no header row".
    @Test(arguments: [
        ("data/rates.json", "rates", Int64(5) << 30, "{\"base\": \"USD\", \"rates\": {", "256 MiB"),
        ("data/rates.json", "rates", Int64(256 << 20) + 1, "", "256 MiB"),
        ("data/orders.json", "orders", Int64(5) << 30, "[{\"id\": \"1\"}, ", "1024 MiB"),
        ("data/orders.json", "orders", Int64(1 << 30) + 1, "", "1024 MiB"),
        ("data/groups.csv", "groups", Int64(1) << 30, "group,organizer\n", "256 MiB"),
    ])
    func aSourceFileOverTheBoundStopsTheBuildNamingIt(file: String, source: String, size: Int64, head: String, bound: String) throws {
        let site = try TestSupport.sampleSite()
        let url = site.appendingPathComponent(file)
        try TestSupport.sparse(url, size: size, head: head)
        for command in [["build"], ["check"], ["diff"]] {
            let result = try TestSupport.run(command, in: site, environment: Self.clock)
            #expect(result.status == 69)
            #expect(result.stdout == "")
            #expect(result.stderr == "orderpress: fetch: \(source): '\(url.lastPathComponent)' is larger than \(bound), the most OrderPress reads from one source; check [\(source)] path in the configuration\n")
        }
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("output/site").path))
    }

    /// A named pipe or a device as a source: refused at once, not waited on or read forever.
    @Test func aPipeOrADeviceAsASourceIsRefusedAtOnce() throws {
        let site = try TestSupport.sampleSite()
        let rates = site.appendingPathComponent("data/rates.json")
        try FileManager.default.removeItem(at: rates)
        try #require(mkfifo(rates.path, 0o644) == 0)
        let piped = try TestSupport.run(["build"], in: site, environment: Self.clock)
        #expect(piped.status == 69)
        #expect(piped.stderr == "orderpress: fetch: rates: cannot read '\(rates.lastPathComponent)' (not a regular file); check [rates] path in the configuration\n")
        try FileManager.default.removeItem(at: rates)
        try FileManager.default.createSymbolicLink(atPath: rates.path, withDestinationPath: "/dev/zero")
        let zero = try TestSupport.run(["build"], in: site, environment: Self.clock)
        #expect(zero.status == 69)
        #expect(zero.stderr == "orderpress: fetch: rates: cannot read '\(rates.lastPathComponent)' (not a regular file); check [rates] path in the configuration\n")
    }

    /// The configuration and the templates have a bound of their own (16 MiB): exit 64 naming the file.
    @Test func anOversizedConfigurationOrTemplateIsAConfigurationError() throws {
        let site = try TestSupport.sampleSite()
        let config = site.appendingPathComponent("orderpress.toml")
        let original = try Data(contentsOf: config)
        try TestSupport.sparse(config, size: 1 << 30, head: "title = \"x\"\n")
        let big = try TestSupport.run(["build"], in: site, environment: Self.clock)
        #expect(big.status == 64)
        #expect(big.stderr == "orderpress: \(config.path): cannot be read (larger than 16 MiB); pass --config FILE or run in the site's folder\n")

        try ("templates = \"templates\"\n" + String(decoding: original, as: UTF8.self)).write(to: config, atomically: true, encoding: .utf8)
        let templates = site.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try TestSupport.sparse(templates.appendingPathComponent("group.md.mustache"), size: 1 << 30)
        let template = try TestSupport.run(["build"], in: site, environment: Self.clock)
        #expect(template.status == 64)
        #expect(template.stderr.hasPrefix("orderpress: "))
        #expect(template.stderr.hasSuffix("group.md.mustache: cannot be read (larger than 16 MiB)\n"), "\(template.stderr)")
    }
}
