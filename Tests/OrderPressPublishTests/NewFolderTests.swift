import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressPublish
import OrderPressTestSupport

/// A folder a session makes inside one already in place is filled under a hidden name and renamed into
/// place by `finish` (see `OpenFolders.Hiding`): what a reader, the manifest, the report and the next
/// build see of it.
@Suite struct NewFolderTests {
    static let pages = ["index.html": "i", "groups/a.html": "a", "groups/sub/b.html": "b", "people/p.html": "p"]

    /// The names below `folder` (files and folders, links not followed) that carry the temporary marker.
    static func hidden(in folder: URL) -> [String] {
        var found: [String] = []
        AtomicFile.walk(below: folder) { _, name, _, path in
            if name.contains(AtomicFile.temporaryMarker) { found.append(String(path.dropFirst(folder.standardizedFileURL.path.count + 1))) }
        }
        return found
    }

    static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    /// Until `finish`, the new folders are hidden, under names the sweep knows; then they are in place, with
    /// files whose size and time are those the manifest records and paths the report names.
    @Test func aNewFolderAppearsWholeAtFinish() throws {
        let root = TestSupport.temporaryFolder()
        let site = root.appendingPathComponent("site")
        let publisher = PublishSessionTests.publisher(root)
        let session = try publisher.begin(dryRun: false)
        try session.publish(PublishSessionTests.files(Self.pages), in: .site)
        #expect(!Self.exists(site.appendingPathComponent("groups")))
        #expect(!Self.exists(site.appendingPathComponent("people")))
        // Nor is a file in the site folder itself in sight: it waits under a temporary name.
        #expect(!Self.exists(site.appendingPathComponent("index.html")))
        let pid = getpid()
        let temporaries = [".groups\(AtomicFile.temporaryMarker)\(pid)-d0", ".people\(AtomicFile.temporaryMarker)\(pid)-d1"]
        #expect(Self.hidden(in: site).filter { !$0.hasPrefix(".index.html") } == temporaries)
        #expect(Self.hidden(in: site).filter { $0.hasPrefix(".index.html\(AtomicFile.temporaryMarker)\(pid)-") }.count == 1)
        #expect(Self.exists(root.appendingPathComponent("state/\(PublishSession.unfinishedMarker)")))

        let report = try session.finish()
        #expect(PublishSessionTests.relative(report.written, to: root) == Self.pages.keys.map { "site/\($0)" }.sorted())
        #expect(Self.hidden(in: root) == [])
        #expect(try TestSupport.contents(of: site) == Self.pages.mapValues { Data($0.utf8) })
        let manifest = try PublishSessionTests.manifest(root)
        #expect(manifest.site.map(\.path).sorted() == Self.pages.keys.sorted())
        // Newer than every file it records, though they were all written within the clock's last tick or so:
        // else the next build would take them all as in doubt.
        let recorded = PublishSessionTests.modified(root.appendingPathComponent("state/published.json"))
        for entry in manifest.site {
            var status = stat()
            #expect(lstat(site.appendingPathComponent(entry.path).path, &status) == 0)
            #expect(entry.matches(status), "\(entry.path) is not as recorded")
            #expect(entry.modified < recorded, "\(entry.path) is as new as the list of published files")
        }
        #expect(try publisher.begin(dryRun: false).intactCount() == Self.pages.count)
    }

    /// A publish killed before `finish` leaves its hidden folders, which the next session removes whole,
    /// removing a link inside them without following it; without the marker of an unfinished publish,
    /// nothing is swept.
    @Test func aKilledPublishLeavesHiddenFoldersTheNextSessionRemoves() throws {
        let victim = Victim()
        let root = TestSupport.temporaryFolder()
        let site = root.appendingPathComponent("site")
        let publisher = PublishSessionTests.publisher(root)
        let killed = try publisher.begin(dryRun: false)
        try killed.publish(PublishSessionTests.files(Self.pages), in: .site)
        let folders = Self.hidden(in: site).filter { !$0.hasPrefix(".index.html") }
        #expect(folders.count == 2)
        try FileManager.default.createSymbolicLink(
            at: site.appendingPathComponent("\(folders[0])/sub/link"), withDestinationURL: victim.folder)

        let next = try publisher.begin(dryRun: false)
        #expect(Self.hidden(in: root) == [])
        try victim.expectUntouched()
        try next.publish(PublishSessionTests.files(Self.pages), in: .site)
        // The killed publish put nothing in place, not even index.html.
        let report = try next.finish()
        #expect(PublishSessionTests.relative(report.written, to: root) == Self.pages.keys.map { "site/\($0)" }.sorted())
        #expect(report.unchanged == 0)
        #expect(try TestSupport.contents(of: site) == Self.pages.mapValues { Data($0.utf8) })

        // A folder of that kind the organiser keeps, with no publish left unfinished, stays.
        let kept = ".x\(AtomicFile.temporaryMarker)1-d0/page.html"
        TestSupport.write([kept: "mine"], in: site)
        try PublishSessionTests.build(publisher, markdown: [:], site: Self.pages)
        #expect(Self.hidden(in: site) == [".x\(AtomicFile.temporaryMarker)1-d0"])
    }

    enum Planted: String, CaseIterable {
        case link, file, linkInFolder
    }

    /// What appears where a hidden folder goes before it is renamed there is never replaced or followed: a
    /// link or a file is an error (exit 73) naming it, that leaves it and the link's target as they were.
    @Test(arguments: Planted.allCases)
    func whatAppearsWhereANewFolderGoesIsNeitherReplacedNorFollowed(_ planted: Planted) throws {
        let victim = Victim()
        let root = TestSupport.temporaryFolder()
        let groups = root.appendingPathComponent("site/groups")
        let session = try PublishSessionTests.publisher(root).begin(dryRun: false)
        try session.publish(PublishSessionTests.files(Self.pages), in: .site)
        let expected: String
        switch planted {
        case .link:
            try FileManager.default.createSymbolicLink(at: groups, withDestinationURL: victim.folder)
            expected = "cannot write \(groups.path) (a symbolic link); \(PublisherTests.linkAdvice) a real folder"
        case .file:
            TestSupport.write(["site/groups": "mine"], in: root)
            expected = "cannot write \(groups.path) (a file of that name is in the way); move it away"
        case .linkInFolder:
            try FileManager.default.createDirectory(at: groups, withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(at: groups.appendingPathComponent("a.html"), withDestinationURL: victim.file)
            expected = "cannot write \(groups.path)/a.html (a symbolic link); \(PublisherTests.linkAdvice) a real file"
        }
        let error = PublisherTests.failure { () throws(OutputError) in _ = try session.finish() }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(error?.description == expected)
        try victim.expectUntouched()
        switch planted {
        case .link: #expect(try FileManager.default.destinationOfSymbolicLink(atPath: groups.path) == victim.folder.path)
        case .file: #expect(try String(contentsOf: groups, encoding: .utf8) == "mine")
        case .linkInFolder:
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: groups.appendingPathComponent("a.html").path) == victim.file.path)
        }
    }

    /// A real folder that appears where a hidden folder goes receives its files one by one, as any folder in
    /// place: a file of ours replaces a file there, others stay, the manifest records what is on disk, and the
    /// session's open folder is then that folder (a stale file in it is removed through it).
    @Test func aFolderThatAppearsWhereANewFolderGoesReceivesItsFiles() throws {
        let root = TestSupport.temporaryFolder()
        let site = root.appendingPathComponent("site")
        let publisher = PublishSessionTests.publisher(root)
        try PublishSessionTests.build(publisher, markdown: [:], site: ["groups/old.html": "old", "groups/a.html": "a"])
        try FileManager.default.removeItem(at: site.appendingPathComponent("groups"))

        let session = try publisher.begin(dryRun: false)
        try session.publish(PublishSessionTests.files(Self.pages), in: .site)
        TestSupport.write(["groups/old.html": "old", "groups/a.html": "theirs", "groups/mine.html": "mine"], in: site)
        let report = try session.finish()
        #expect(PublishSessionTests.relative(report.removed, to: root) == ["site/groups/old.html"])
        #expect(Self.hidden(in: root) == [])
        #expect(try TestSupport.contents(of: site) == Self.pages.merging(["groups/mine.html": "mine"]) { $1 }.mapValues { Data($0.utf8) })
        for entry in try PublishSessionTests.manifest(root).site {
            var status = stat()
            #expect(lstat(site.appendingPathComponent(entry.path).path, &status) == 0)
            #expect(entry.matches(status), "\(entry.path) is not as recorded")
        }
    }

    /// A dry run makes no folder, hidden or not.
    @Test func aDryRunMakesNoFolder() throws {
        let root = TestSupport.temporaryFolder()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("site"), withIntermediateDirectories: false)
        let report = try PublishSessionTests.build(PublishSessionTests.publisher(root), markdown: [:], site: Self.pages, dryRun: true)
        #expect(report.written.count == Self.pages.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("site").path) == [])
    }
}
