import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressOutput
@testable import OrderPressPublish
import OrderPressTestSupport

@Suite struct PublisherTests {
    static func publisher(_ root: URL) -> Publisher {
        Publisher(
            output: .init(
                markdown: root.appendingPathComponent("md"), site: root.appendingPathComponent("site"),
                state: root.appendingPathComponent("state")))
    }

    static func files(_ pages: [String: String]) -> [OutputFile] {
        pages.map { OutputFile(path: $0.key, contents: Data($0.value.utf8)) }.sorted { $0.path < $1.path }
    }

    /// Publishes `pages` into the Markdown folder in one session.
    @discardableResult
    static func publish(_ publisher: Publisher, _ pages: [String: String], dryRun: Bool = false) throws -> PublishReport {
        let session = try publisher.begin(dryRun: dryRun)
        try session.publish(files(pages), in: .markdown)
        return try session.finish()
    }

    static func modificationDate(_ url: URL) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }

    /// The thrown error of `body`, which must throw one.
    static func failure<E: Error>(_ body: () throws(E) -> Void) -> E? {
        do {
            try body()
            Issue.record("expected an error")
            return nil
        } catch {
            return error
        }
    }

    @Test func writesOnlyWhatChangedAndRemovesOnlyItsOwnOldPages() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        let first = try Self.publish(publisher, ["index.md": "a", "groups/x.md": "x", "groups/y.md": "y"])
        #expect(first.written.count == 3)
        TestSupport.write(["groups/mine.md": "the organiser's own file"], in: root.appendingPathComponent("md"))
        let before = try Self.modificationDate(root.appendingPathComponent("md/index.md"))
        Thread.sleep(forTimeInterval: 0.05)

        let second = try Self.publish(publisher, ["index.md": "a", "groups/x.md": "x2"])
        #expect(second.written.map(\.lastPathComponent) == ["x.md"])
        #expect(second.unchanged == 1)
        #expect(second.removed.map(\.lastPathComponent) == ["y.md"])
        #expect(try Self.modificationDate(root.appendingPathComponent("md/index.md")) == before)
        #expect(TestSupport.files(in: root.appendingPathComponent("md")) == ["groups/mine.md", "groups/x.md", "index.md"])
        #expect(try Self.publish(publisher, ["index.md": "a", "groups/x.md": "x2"]).isEmpty)
    }

    @Test func filesAreWorldReadableAndLeaveNoTemporaryFiles() throws {
        let root = TestSupport.temporaryFolder()
        let url = root.appendingPathComponent("a/b/page.html")
        let previous = umask(0o077)
        defer { umask(previous) }
        try AtomicFile.write(Data("x".utf8), to: url, below: root)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o644)
        let folder = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("a/b").path)
        #expect((folder[.posixPermissions] as? Int) == 0o755)
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["page.html"])
    }

    @Test(arguments: [
        // (what is already there, the file to write, the path named, why)
        ("blocker", "blocker/page.md", "blocker", "a file of that name is in the way"),
        ("index.html/inner.txt", "index.html", "index.html", "a folder is in the way"),
    ])
    func somethingInTheWayIsAnOutputError(existing: String, page: String, named: String, reason: String) throws {
        let root = TestSupport.temporaryFolder()
        TestSupport.write([existing: "someone's"], in: root)
        let error = Self.failure { () throws(OutputError) in
            try AtomicFile.write(Data("x".utf8), to: root.appendingPathComponent(page), below: root)
        }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(error?.description == "cannot write \(root.path)/\(named) (\(reason)); move it away")
        #expect(try TestSupport.contents(of: root) == [existing: Data("someone's".utf8)])
    }

    /// Whatever a page's path says (a slug gone wrong), a write never leaves its folder.
    @Test(arguments: ["../escape.md", "groups/../../escape.md", "/", ""])
    func aPathOutsideTheFolderIsRefused(path: String) throws {
        let parent = TestSupport.temporaryFolder()
        let root = parent.appendingPathComponent("md")
        let error = Self.failure { () throws(OutputError) in
            try AtomicFile.write(Data("x".utf8), to: root.appendingPathComponent(path), below: root)
        }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(error?.description.hasSuffix("(outside \(root.path)); every file OrderPress writes stays inside its folder; please report this as a bug") == true)
        #expect(TestSupport.files(in: parent) == [])
    }

    static let linkAdvice = "OrderPress never writes through a link inside its folders; replace it with"

    @Test func aLinkedSubfolderIsNeverWrittenThrough() throws {
        let victim = Victim()
        let root = TestSupport.temporaryFolder()
        let md = root.appendingPathComponent("md")
        try FileManager.default.createDirectory(at: md, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: md.appendingPathComponent("groups"), withDestinationURL: victim.folder)
        let publisher = Self.publisher(root)
        let session = try publisher.begin(dryRun: false)
        let error = Self.failure { () throws(OutputError) in
            try session.publish(Self.files(["groups/x.md": "x", "groups/victim.html": "y"]), in: .markdown)
        }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(error?.description == "cannot write \(md.path)/groups (a symbolic link); \(Self.linkAdvice) a real folder")
        try victim.expectUntouched()
    }

    @Test func aLinkedFileIsNeitherReadNorWritten() throws {
        let victim = Victim()
        let root = TestSupport.temporaryFolder()
        let md = root.appendingPathComponent("md")
        try FileManager.default.createDirectory(at: md, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: md.appendingPathComponent("index.md"), withDestinationURL: victim.file)
        let publisher = Self.publisher(root)
        // Even with the very bytes the page would have, the link is refused rather than taken as "unchanged".
        #expect(try Self.publish(publisher, ["index.md": "not OrderPress's"], dryRun: true).written.count == 1)
        let session = try publisher.begin(dryRun: false)
        let error = Self.failure { () throws(OutputError) in try session.publish(Self.files(["index.md": "not OrderPress's"]), in: .markdown) }
        #expect(error?.description == "cannot write \(md.path)/index.md (a symbolic link); \(Self.linkAdvice) a real file")
        try victim.expectUntouched()
    }

    @Test func aStalePageBehindALinkIsNotRemoved() throws {
        let victim = Victim()
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        try Self.publish(publisher, ["index.md": "a", "groups/x.md": "x"])
        let groups = root.appendingPathComponent("md/groups")
        try FileManager.default.removeItem(at: groups)
        try FileManager.default.createSymbolicLink(at: groups, withDestinationURL: victim.folder.appendingPathComponent("groups"))
        #expect(try Self.publish(publisher, ["index.md": "a"], dryRun: true).removed.map(\.path) == [groups.appendingPathComponent("x.md").path])
        let session = try publisher.begin(dryRun: false)
        try session.publish(Self.files(["index.md": "a"]), in: .markdown)
        let error = Self.failure { () throws(OutputError) in _ = try session.finish() }
        #expect(error?.description == "cannot write \(groups.path) (a symbolic link); \(Self.linkAdvice) a real folder")
        try victim.expectUntouched()
    }

    @Test func theLeftoverSweepNeverDescendsIntoALinkedFolder() throws {
        let victim = Victim()
        let leftover = ".groups\(AtomicFile.temporaryMarker)123"
        TestSupport.write([leftover: "someone else's file that happens to carry the marker"], in: victim.folder)
        let root = TestSupport.temporaryFolder()
        TestSupport.write(["md/groups/.x.md\(AtomicFile.temporaryMarker)99": "left by a killed build"], in: root)
        // The sweep runs after a publish that died, which left its marker.
        TestSupport.write(["state/\(PublishSession.unfinishedMarker)": ""], in: root)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("md/people"), withDestinationURL: victim.folder)
        let publisher = Self.publisher(root)
        try Self.publish(publisher, ["index.md": "a"])
        #expect(TestSupport.files(in: root.appendingPathComponent("md/groups")) == [])
        #expect(FileManager.default.fileExists(atPath: victim.folder.appendingPathComponent(leftover).path))
    }

    @Test func aLinkedConfiguredFolderIsAllowed() throws {
        let real = TestSupport.temporaryFolder()
        let root = TestSupport.temporaryFolder()
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("md"), withDestinationURL: real)
        let publisher = Self.publisher(root)
        try Self.publish(publisher, ["index.md": "a", "groups/x.md": "x"])
        #expect(TestSupport.files(in: real) == ["groups/x.md", "index.md"])
        try Self.publish(publisher, ["index.md": "a"])
        #expect(TestSupport.files(in: real) == ["index.md"])
    }

    @Test func aCorruptListOfPublishedFilesIsAnError() throws {
        let root = TestSupport.temporaryFolder()
        TestSupport.write(["state/published.json": "{\"markdown\": ["], in: root)
        let error = Self.failure { () throws(PublishFailure) in _ = try Self.publisher(root).begin(dryRun: false) }
        let path = root.appendingPathComponent("state/published.json").path
        #expect(error?.exitStatus == .dataError)
        #expect(error?.description == "\(path) cannot be read (it is not a list of published files this version understands); delete it and remove pages that no longer exist by hand, or empty the markdown and site folders, then build again")
    }

    /// A list of published files edited by hand (or by an attacker) never makes a removal leave its folder.
    @Test func removalsStayInsideTheirFolder() throws {
        let victim = Victim()
        let root = TestSupport.temporaryFolder()
        TestSupport.write(["md/keep.md": "k"], in: root)
        let escape = String(repeating: "../", count: 12) + victim.file.path.dropFirst()
        // Written as versions before 2 did: two lists of paths.
        let paths = [escape, victim.file.path, "./keep.md", "groups//../keep.md", "keep.md\u{0}x", ""]
        TestSupport.write(["state/published.json": String(decoding: JSONOutput.encode(["markdown": paths, "site": []]), as: UTF8.self)], in: root)
        let publisher = Self.publisher(root)
        #expect(try Self.publish(publisher, ["index.md": "a"], dryRun: true).removed.isEmpty)
        #expect(try Self.publish(publisher, ["index.md": "a"]).removed.isEmpty)
        try victim.expectUntouched()
        #expect(TestSupport.files(in: root.appendingPathComponent("md")) == ["index.md", "keep.md"])
    }

    @Test(arguments: ["index.md", "groups/x.md", "a/b/c.md"])
    func aSafeManifestPathIsAccepted(path: String) {
        #expect(Publisher.isSafe(path))
    }

    /// `published.json` is never held whole however large it is (issue 36, item 13): a manifest larger
    /// than any build writes (here a sparse file of 4 GiB, which takes no disk) is refused with the advice
    /// for an unreadable one, without reading it; and a bounded read takes at most the bound and a byte.
    @Test func aManifestLargerThanAnyBuildWritesIsRefusedUnread() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        try Self.publish(publisher, ["index.md": "# Hi\n"])
        let manifest = root.appendingPathComponent("state/\(Manifest.fileName)")
        let handle = try FileHandle(forWritingTo: manifest)
        try handle.truncate(atOffset: UInt64(Manifest.maxBytes) * 4)
        try handle.close()
        var before = rusage()
        getrusage(RUSAGE_SELF.rawValue, &before)
        let error = Self.failure { () throws(PublishFailure) in _ = try publisher.open(dryRun: true) }
        #expect(error?.exitStatus == .dataError)
        #expect("\(error.map { "\($0)" } ?? "")".contains("cannot be read"))
        var after = rusage()
        getrusage(RUSAGE_SELF.rawValue, &after)
        // ru_maxrss is in KiB: reading the file would have taken 1 GiB at the least.
        #expect(after.ru_maxrss - before.ru_maxrss < 256 * 1024)

        let page = root.appendingPathComponent("md/index.md")
        try Data(repeating: 0x41, count: 100_000).write(to: page)
        #expect(try AtomicFile.contents(of: page, below: root, maxBytes: 10_000)?.count == 0)
        try Data(repeating: 0x41, count: 100).write(to: page)
        #expect(try AtomicFile.contents(of: page, below: root, maxBytes: 10_000)?.count == 100)
    }
}
