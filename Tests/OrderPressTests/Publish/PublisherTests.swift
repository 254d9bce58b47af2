import Foundation
import Testing

@testable import OrderPress

@Suite struct PublisherTests {
    static func publisher(_ root: URL) -> Publisher {
        Publisher(
            output: .init(
                markdown: root.appendingPathComponent("md"), site: root.appendingPathComponent("site"),
                state: root.appendingPathComponent("state")))
    }

    static func site(_ pages: [String: String]) -> RenderedSite {
        let files = pages.map { OutputFile(path: $0.key, contents: Data($0.value.utf8)) }.sorted { $0.path < $1.path }
        return RenderedSite(markdown: files, site: [])
    }

    static func modificationDate(_ url: URL) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }

    @Test func writesOnlyWhatChangedAndRemovesOnlyItsOwnOldPages() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        let first = publisher.plan(Self.site(["index.md": "a", "groups/x.md": "x", "groups/y.md": "y"]))
        #expect(first.writes.count == 3)
        try publisher.apply(first)
        TestSupport.write(["groups/mine.md": "the organiser's own file"], in: root.appendingPathComponent("md"))
        let before = try Self.modificationDate(root.appendingPathComponent("md/index.md"))
        Thread.sleep(forTimeInterval: 0.05)

        let second = publisher.plan(Self.site(["index.md": "a", "groups/x.md": "x2"]))
        #expect(second.writes.map(\.url.lastPathComponent) == ["x.md"])
        #expect(second.unchanged == 1)
        #expect(second.removals.map(\.lastPathComponent) == ["y.md"])
        try publisher.apply(second)
        #expect(try Self.modificationDate(root.appendingPathComponent("md/index.md")) == before)
        #expect(TestSupport.files(in: root.appendingPathComponent("md")) == ["groups/mine.md", "groups/x.md", "index.md"])
        #expect(publisher.plan(Self.site(["index.md": "a", "groups/x.md": "x2"])).isEmpty)
    }

    @Test func filesAreWorldReadableAndLeaveNoTemporaryFiles() throws {
        let root = TestSupport.temporaryFolder()
        let url = root.appendingPathComponent("a/b/page.html")
        let previous = umask(0o077)
        defer { umask(previous) }
        try AtomicFile.write(Data("x".utf8), to: url)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o644)
        let folder = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("a/b").path)
        #expect((folder[.posixPermissions] as? Int) == 0o755)
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["page.html"])
    }

    @Test func anUnwritableFolderIsAnOutputError() throws {
        let root = TestSupport.temporaryFolder()
        TestSupport.write(["blocker": "a file where a folder should be"], in: root)
        do {
            try AtomicFile.write(Data("x".utf8), to: root.appendingPathComponent("blocker/page.md"))
            Issue.record("expected an error")
        } catch {
            #expect(error.exitStatus == .cannotCreate)
            #expect(error.description.hasPrefix("cannot write \(root.appendingPathComponent("blocker").path) ("))
        }
    }
}
