import Foundation
import Testing

@testable import OrderPressConfig
import OrderPressTestSupport

/// The built binary never writes, removes or publishes outside its folders: real symbolic links inside
/// them, state folders placed where they would be published, and the configuration checks that say so.
@Suite struct OutsideFoldersTests {
    static let clock = ["SOURCE_DATE_EPOCH": "1795255200"]
    static let later = ["SOURCE_DATE_EPOCH": "1795258800"]
    static let linkAdvice = "OrderPress never writes through a link inside its folders; replace it with"

    /// A built copy of the sample and its output folder.
    static func builtSample() throws -> (site: URL, output: URL) {
        let site = try TestSupport.sampleSite()
        let first = try TestSupport.run(["build"], in: site, environment: Self.clock)
        try #require(first.status == 0, "\(first.stderr)")
        return (site, site.appendingPathComponent("output").standardizedFileURL)
    }

    /// Replaces `path` (a file or folder) by a symbolic link to `target`.
    static func link(_ path: URL, to target: URL) throws {
        if FileManager.default.fileExists(atPath: path.path) { try FileManager.default.removeItem(at: path) }
        try FileManager.default.createSymbolicLink(at: path, withDestinationURL: target)
    }

    @Test func aLinkedPagesFolderIsNeitherRewrittenNorCleanedOut() throws {
        let (site, output) = try Self.builtSample()
        let people = output.appendingPathComponent("site/people")
        // Someone else's folder, holding files with the very names of person pages, stale ones included.
        let victim = Victim(["amy.html": "someone's Amy", "ben.html": "someone's Ben", "zoe.html": "someone's Zoe"])
        try Self.link(people, to: victim.folder)
        try ChangesTests.editOrders(in: site)
        let result = try TestSupport.run(["build"], in: site, environment: Self.later)
        #expect(result.status == 73)
        #expect(result.stderr == "orderpress: publish: cannot write \(people.path) (a symbolic link); \(Self.linkAdvice) a real folder\n")
        try victim.expectUntouched()
    }

    @Test func aLinkedPageIsNotWrittenThrough() throws {
        let (site, output) = try Self.builtSample()
        let index = output.appendingPathComponent("site/index.html")
        let victim = Victim()
        try Self.link(index, to: victim.file)
        let result = try TestSupport.run(["build"], in: site, environment: Self.clock)
        #expect(result.status == 73)
        #expect(result.stderr == "orderpress: publish: cannot write \(index.path) (a symbolic link); \(Self.linkAdvice) a real file\n")
        try victim.expectUntouched()
    }

    @Test(arguments: ["state.sqlite", "state.sqlite-journal", "snapshot.json", "published.json", "cache"])
    func aLinkedStateFileStopsTheBuildBeforeAnything(name: String) throws {
        let (site, output) = try Self.builtSample()
        let state = output.appendingPathComponent("state")
        let victim = Victim()
        try Self.link(state.appendingPathComponent(name), to: name == "cache" ? victim.folder : victim.file)
        let pages = try TestSupport.contents(of: output.appendingPathComponent("site"))
        try ChangesTests.editOrders(in: site)
        let result = try TestSupport.run(["build"], in: site, environment: Self.later)
        #expect(result.status == 73)
        #expect(result.stderr == "orderpress: lock: cannot write \(state.path)/\(name) (a symbolic link); \(Self.linkAdvice) a real file or folder\n")
        try victim.expectUntouched()
        #expect(try TestSupport.contents(of: output.appendingPathComponent("site")) == pages)
    }

    /// A named pipe would block a read forever, holding the lock: refused, never opened.
    @Test(arguments: ["state/state.sqlite", "site/index.html"])
    func aPipeWhereAFileGoesIsRefusedNotOpened(path: String) throws {
        let (site, output) = try Self.builtSample()
        let pipe = output.appendingPathComponent(path)
        try FileManager.default.removeItem(at: pipe)
        try #require(mkfifo(pipe.path, 0o644) == 0)
        let result = try TestSupport.run(["build"], in: site, environment: Self.clock)
        #expect(result.status == 73)
        let step = path.hasPrefix("state") ? "lock" : "publish"
        #expect(result.stderr == "orderpress: \(step): cannot write \(pipe.path) (not a regular file); move it away\n")
    }

    @Test func aLinkedLockCreatesNothingElsewhere() throws {
        let (site, output) = try Self.builtSample()
        let lock = output.appendingPathComponent("state/lock")
        let elsewhere = TestSupport.temporaryFolder()
        try Self.link(lock, to: elsewhere.appendingPathComponent("created-by-orderpress"))
        let result = try TestSupport.run(["build"], in: site, environment: Self.clock)
        #expect(result.status == 73)
        #expect(result.stderr == "orderpress: lock: cannot write \(lock.path) (a symbolic link); OrderPress never writes through a link inside its folders; remove the link (a build creates the lock itself)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == [])
    }

    /// The configured folders themselves may be links: that is where the organiser chose to publish.
    @Test func linkedConfiguredFoldersWork() throws {
        let site = try TestSupport.sampleSite()
        let real = TestSupport.temporaryFolder()
        for name in ["markdown", "site", "state"] {
            try FileManager.default.createDirectory(at: real.appendingPathComponent(name), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: site.appendingPathComponent("linked"), withIntermediateDirectories: true)
            try Self.link(site.appendingPathComponent("linked/\(name)"), to: real.appendingPathComponent(name))
        }
        let config = site.appendingPathComponent("orderpress.toml")
        try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: "\"output/", with: "\"linked/")
            .write(to: config, atomically: true, encoding: .utf8)
        let first = try TestSupport.run(["build"], in: site, environment: Self.clock)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("\(TestSupport.sampleFileCount) files written"))
        #expect(TestSupport.files(in: real.appendingPathComponent("site")).contains("index.html"))
        #expect(TestSupport.files(in: real.appendingPathComponent("state")).contains("state.sqlite"))
        try ChangesTests.editOrders(in: site)
        let second = try TestSupport.run(["build"], in: site, environment: Self.later)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains(" removed · 3 deleted, 2 added, 1 changed"))
    }

    @Test(arguments: [
        ("output/site", "'output.state' (%@/output/site) is the same folder as 'output.site'"),
        ("output/site/state", "'output.state' (%@/output/site/state) is inside 'output.site'"),
        ("output", "'output.state' (%@/output) contains 'output.markdown'"),
    ])
    func aStateFolderThatWouldBePublishedIsRefused(state: String, message: String) throws {
        let site = try TestSupport.sampleSite()
        let config = site.appendingPathComponent("orderpress.toml")
        try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: "\"output/state\"", with: "\"\(state)\"")
            .write(to: config, atomically: true, encoding: .utf8)
        let result = try TestSupport.run(["build"], in: site, environment: Self.clock)
        #expect(result.status == 64)
        let real = FolderLayout.realPath(site)
        #expect(result.stderr == "orderpress: orderpress.toml: \(message.replacingOccurrences(of: "%@", with: real)); the snapshot and cached sources would be published or committed: give each a folder of its own\n")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("output").path))
    }

    @Test func aConfigFolderOrAMissingFileSaysWhatToDo() throws {
        let site = try TestSupport.sampleSite()
        let folder = try TestSupport.run(["build", "--config", site.path], environment: Self.clock)
        #expect(folder.status == 64)
        #expect(folder.stderr == "orderpress: \(site.path): is a folder; pass the orderpress.toml file inside it (--config \(site.path)/orderpress.toml)\n")
        let missing = try TestSupport.run(["check"], in: TestSupport.temporaryFolder(), environment: Self.clock)
        #expect(missing.status == 64)
        #expect(missing.stderr.hasSuffix("/orderpress.toml: does not exist; create a site with 'orderpress init DIR', or pass --config FILE or run in the site's folder\n"))
    }

    @Test func aCorruptHistoryOrListOfPublishedFilesIsNamedAndStopsTheBuild() throws {
        let (site, output) = try Self.builtSample()
        let before = try TestSupport.contents(of: output.appendingPathComponent("site"))
        // A state folder from before the state database, its history corrupt.
        try FileManager.default.removeItem(at: output.appendingPathComponent("state/state.sqlite"))
        let history = output.appendingPathComponent("state/history.json")
        try Data("{\"version\": 1, \"entries\": [".utf8).write(to: history)
        let broken = try TestSupport.run(["build"], in: site, environment: Self.later)
        #expect(broken.status == 65)
        #expect(broken.stderr == "orderpress: diff: \(history.path) cannot be read (it is not a history this version understands); move it away to start afresh (the next build is then a first run)\n")
        try FileManager.default.removeItem(at: history)

        let published = output.appendingPathComponent("state/published.json")
        try Data("null".utf8).write(to: published)
        try ChangesTests.editOrders(in: site)
        let result = try TestSupport.run(["build"], in: site, environment: Self.later)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("orderpress: publish: \(published.path) cannot be read ("))
        #expect(result.stderr.hasSuffix("then build again\n"))
        #expect(try TestSupport.contents(of: output.appendingPathComponent("site")) == before)
    }
}
