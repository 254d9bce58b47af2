import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressOutput
@testable import OrderPressPublish
import OrderPressTestSupport

@Suite struct PublishSessionTests {
    static func publisher(_ root: URL, parallel: Bool = true) -> Publisher {
        var publisher = PublisherTests.publisher(root)
        publisher.parallel = parallel
        return publisher
    }

    static func files(_ pages: [String: String], key: String? = nil) -> [OutputFile] {
        pages.map { OutputFile(path: $0.key, contents: Data($0.value.utf8), reuseKey: key) }.sorted { $0.path < $1.path }
    }

    /// One session: `markdown` and `site` published, each as one batch.
    @discardableResult
    static func build(_ publisher: Publisher, markdown: [String: String], site: [String: String] = [:], dryRun: Bool = false) throws
        -> PublishReport
    {
        let session = try publisher.begin(dryRun: dryRun)
        try session.publish(files(markdown), in: .markdown)
        try session.publish(files(site), in: .site)
        return try session.finish()
    }

    /// The paths of a report's URLs, relative to `root`.
    static func relative(_ urls: [URL], to root: URL) -> [String] {
        urls.map { String($0.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)) }
    }

    static func manifest(_ root: URL) throws -> Manifest {
        try #require(Manifest.decode(try Data(contentsOf: root.appendingPathComponent("state/published.json"))))
    }

    static func modified(_ url: URL) -> Int64 {
        var status = stat()
        lstat(url.path, &status)
        return Manifest.Entry.nanoseconds(status.st_mtim)
    }

    /// Sets the modification time of `url` to `nanoseconds`, as `touch -d` or `cp -p` can.
    static func setModified(_ url: URL, _ nanoseconds: Int64) {
        let time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var times = [time, time]
        #expect(utimensat(AT_FDCWD, url.path, &times, AT_SYMLINK_NOFOLLOW) == 0)
    }

    @Test func writesOnlyWhatChangedInBothTrees() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        let first = try Self.build(
            publisher, markdown: ["index.md": "a", "groups/x.md": "x", "groups/y.md": "y"], site: ["index.html": "A", "style.css": "s"])
        #expect(Self.relative(first.written, to: root) == ["md/groups/x.md", "md/groups/y.md", "md/index.md", "site/index.html", "site/style.css"])
        #expect(first.unchanged == 0)
        #expect(first.removed == [])
        let stamp = Self.modified(root.appendingPathComponent("md/index.md"))

        let second = try Self.build(publisher, markdown: ["index.md": "a", "groups/x.md": "x2", "people/p.md": "p"], site: ["index.html": "A", "style.css": "t"])
        #expect(Self.relative(second.written, to: root) == ["md/groups/x.md", "md/people/p.md", "site/style.css"])
        #expect(second.unchanged == 2)
        #expect(Self.relative(second.removed, to: root) == ["md/groups/y.md"])
        #expect(Self.modified(root.appendingPathComponent("md/index.md")) == stamp)
        #expect(try TestSupport.contents(of: root.appendingPathComponent("md")) == [
            "groups/x.md": Data("x2".utf8), "index.md": Data("a".utf8), "people/p.md": Data("p".utf8),
        ])
        #expect(try Self.manifest(root).markdown.map(\.path).sorted() == ["groups/x.md", "index.md", "people/p.md"])

        let third = try Self.build(publisher, markdown: ["index.md": "a", "groups/x.md": "x2", "people/p.md": "p"], site: ["index.html": "A", "style.css": "t"])
        #expect(third.isEmpty)
        #expect(third.unchanged == 5)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("state/\(PublishSession.unfinishedMarker)").path))
    }

    /// The manifest is trusted while a file's size and time are those it recorded: the file is not read.
    /// (Here its bytes are changed behind the manifest's back, size and time put back as they were, so
    /// that only a read would notice; the manifest's own time is moved on, so that no entry is as new.)
    @Test func anIntactFileIsNotReadBack() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        try Self.build(publisher, markdown: ["index.md": "aaaa"])
        let page = root.appendingPathComponent("md/index.md")
        let manifest = root.appendingPathComponent("state/published.json")
        let stamp = Self.modified(page)
        Self.setModified(manifest, stamp + 10_000_000_000)
        try Data("bbbb".utf8).write(to: page)
        Self.setModified(page, stamp)

        let session = try publisher.begin(dryRun: false)
        #expect(session.previous(.markdown, "index.md")?.sha256 == ContentDigest(of: Data("aaaa".utf8)))
        try session.publish(Self.files(["index.md": "aaaa"]), in: .markdown)
        let report = try session.finish()
        #expect(report.written == [])
        #expect(report.unchanged == 1)
    }

    @Test func aFileEditedByHandIsDetectedAndRewritten() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        try Self.build(publisher, markdown: ["index.md": "aaaa", "other.md": "o"])
        let page = root.appendingPathComponent("md/index.md")
        try Data("bbbb".utf8).write(to: page)

        let session = try publisher.begin(dryRun: false)
        #expect(session.previous(.markdown, "index.md") == nil)
        try session.publish(Self.files(["index.md": "aaaa", "other.md": "o"]), in: .markdown)
        let report = try session.finish()
        #expect(Self.relative(report.written, to: root) == ["md/index.md"])
        #expect(report.unchanged == 1)
        #expect(try Data(contentsOf: page) == Data("aaaa".utf8))
    }

    /// An entry as new as the manifest itself is in doubt (the file could have been edited in the same
    /// clock tick, keeping size and time): it is read back, not trusted.
    @Test func anEntryAsNewAsTheManifestIsReadBack() throws {
        let root = TestSupport.temporaryFolder()
        TestSupport.write(["md/index.md": "bbbb"], in: root)
        let page = root.appendingPathComponent("md/index.md")
        let stamp = Self.modified(page)
        let entry = Manifest.Entry(path: "index.md", size: 4, modified: stamp, sha256: ContentDigest(of: Data("aaaa".utf8)), reuseKey: "k")
        let manifest = root.appendingPathComponent("state/published.json")
        TestSupport.write(["state/published.json": String(decoding: Manifest(markdown: [entry], site: []).encoded(), as: UTF8.self)], in: root)
        Self.setModified(manifest, stamp)

        let session = try Self.publisher(root).begin(dryRun: false)
        #expect(session.previous(.markdown, "index.md") == nil)
        try session.publish(Self.files(["index.md": "aaaa"]), in: .markdown)
        #expect(Self.relative(try session.finish().written, to: root) == ["md/index.md"])
        #expect(try Data(contentsOf: page) == Data("aaaa".utf8))
    }

    @Test func keptFilesStayAndStayInTheManifest() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        let first = try publisher.begin(dryRun: false)
        try first.publish(Self.files(["index.md": "a", "groups/x.md": "x"], key: "k1"), in: .markdown)
        _ = try first.finish()
        Self.setModified(root.appendingPathComponent("state/published.json"), Self.modified(root.appendingPathComponent("md/index.md")) + 10_000_000_000)

        let second = try publisher.begin(dryRun: false)
        #expect(second.previous(.markdown, "groups/x.md")?.reuseKey == "k1")
        #expect(second.previous(.markdown, "missing.md") == nil)
        second.keep([KeptFile(path: "groups/x.md", index: -1)], in: .markdown)
        try second.publish(Self.files(["index.md": "a2"], key: "k2"), in: .markdown)
        let report = try second.finish()
        #expect(Self.relative(report.written, to: root) == ["md/index.md"])
        #expect(report.unchanged == 1)
        #expect(report.removed == [])
        #expect(try Self.manifest(root).markdown.sorted { $0.path < $1.path }.map { [$0.path, $0.reuseKey] } == [["groups/x.md", "k1"], ["index.md", "k2"]])
    }

    /// A file kept by where the last manifest lists it (`published`, then `keep` of a batch) stays as a file
    /// kept by its path does; a place that names another path is not trusted: the path decides.
    @Test func filesKeptByTheirPlaceStayAndStayInTheManifest() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        let first = try publisher.begin(dryRun: false)
        try first.publish(Self.files(["a.md": "a", "b.md": "b", "c.md": "c", "index.md": "i"], key: "k1"), in: .markdown)
        _ = try first.finish()
        Self.setModified(root.appendingPathComponent("state/published.json"), Self.modified(root.appendingPathComponent("md/a.md")) + 10_000_000_000)

        let second = try publisher.begin(dryRun: false)
        let a = try #require(second.published("a.md", in: .markdown))
        let c = try #require(second.published("c.md", in: .markdown))
        #expect(a.reuseKey == "k1" && a.index != c.index)
        #expect(second.published("missing.md", in: .markdown) == nil)
        // b.md named by c.md's place: kept by its path, and c.md not kept by it.
        second.keep([KeptFile(path: "a.md", index: a.index), KeptFile(path: "b.md", index: c.index), KeptFile(path: "d.md", index: -1)], in: .markdown)
        try second.publish(Self.files(["index.md": "i2"], key: "k2"), in: .markdown)
        let report = try second.finish()
        #expect(Self.relative(report.written, to: root) == ["md/index.md"])
        #expect(Self.relative(report.removed, to: root) == ["md/c.md"])
        #expect(report.unchanged == 2)
        #expect(try Self.manifest(root).markdown.map { [$0.path, $0.reuseKey] } == [["a.md", "k1"], ["b.md", "k1"], ["index.md", "k2"]])
    }

    /// A manifest that lists a path twice (not one this version writes): the file kept stays, listed once,
    /// and nothing kept or published again is removed.
    @Test func aPathListedTwiceIsKeptOnceAndNotRemoved() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        let first = try publisher.begin(dryRun: false)
        try first.publish(Self.files(["a.md": "a", "b.md": "b", "c.md": "c"], key: "k1"), in: .markdown)
        _ = try first.finish()
        let manifestURL = root.appendingPathComponent("state/published.json")
        var manifest = try Self.manifest(root)
        manifest.markdown = [manifest.markdown[0], manifest.markdown[1], manifest.markdown[0], manifest.markdown[2], manifest.markdown[1]]
        try manifest.encoded().write(to: manifestURL)
        Self.setModified(manifestURL, Self.modified(root.appendingPathComponent("md/a.md")) + 10_000_000_000)

        let second = try publisher.begin(dryRun: false)
        #expect(second.intactCount() == 3)
        let a = try #require(second.published("a.md", in: .markdown))
        second.keep([KeptFile(path: "a.md", index: a.index)], in: .markdown)
        try second.publish(Self.files(["b.md": "b"], key: "k1"), in: .markdown)
        let report = try second.finish()
        #expect(report.written == [])
        #expect(Self.relative(report.removed, to: root) == ["md/c.md"])
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("md/a.md").path))
        #expect(try Self.manifest(root).markdown.map(\.path) == ["a.md", "b.md"])
    }

    /// A file published with pieces offers them, and its bytes, to the next build while it is the file
    /// the manifest recorded; edited on disk, or listed with pieces that do not add up to it, it offers none.
    @Test func piecesAreOfferedOnlyFromTheFileAsPublished() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        var pieces = FilePieces()
        pieces.append(nil, length: 2)
        pieces.append(PieceKey(Array(repeating: 7, count: 16)), length: 5)
        let first = try publisher.begin(dryRun: false)
        try first.publish([OutputFile(path: "summary.json", contents: Data("[ hello]".utf8).prefix(7), pieces: pieces)], in: .site)
        _ = try first.finish()
        let manifestURL = root.appendingPathComponent("state/published.json")
        let file = root.appendingPathComponent("site/summary.json")
        Self.setModified(manifestURL, Self.modified(file) + 10_000_000_000)
        #expect(try Self.manifest(root).site.first?.pieces == pieces)

        let offered = try #require(try publisher.begin(dryRun: true).pieces(of: "summary.json", in: .site))
        #expect(offered.pieces == pieces)
        var bytes = [UInt8](repeating: 0, count: 5)
        #expect(bytes.withUnsafeMutableBytes { offered.read(2, $0) })
        #expect(String(decoding: bytes, as: UTF8.self) == "hello")
        // Past the end of the file: no bytes, and the caller makes the file whole.
        #expect(!bytes.withUnsafeMutableBytes { offered.read(4, $0) })

        try Data("[ HELLO".utf8).write(to: file)
        #expect(try publisher.begin(dryRun: true).pieces(of: "summary.json", in: .site) == nil)

        var short = FilePieces()
        short.append(nil, length: 3)
        let entry = Manifest.Entry(
            path: "summary.json", size: 7, modified: Self.modified(file), sha256: ContentDigest(of: Data("[ HELLO".utf8)), reuseKey: nil,
            pieces: short)
        try Manifest(markdown: [], site: [entry]).encoded().write(to: manifestURL)
        Self.setModified(manifestURL, Self.modified(file) + 10_000_000_000)
        #expect(try publisher.begin(dryRun: true).previous(.site, "summary.json") != nil)
        #expect(try publisher.begin(dryRun: true).pieces(of: "summary.json", in: .site) == nil)
    }

    /// Streams `text` as one file, starting over once after writing `discarded` (as a failed copy does).
    static func stream(_ session: PublishSession, _ path: String, _ text: String, discarded: String = "") throws {
        var pieces = FilePieces()
        pieces.append(nil, length: text.utf8.count)
        try session.publishStreamed(path, in: .site) { stream in
            stream.append(Array(discarded.utf8))
            stream.reset()
            // In parts larger and smaller than the stream's buffer.
            let bytes = Array(text.utf8)
            for start in stride(from: 0, to: bytes.count, by: 700_000) { stream.append(Array(bytes[start..<min(start + 700_000, bytes.count)])) }
            return pieces
        }
    }

    /// A streamed file is written through a temporary file and recorded like any other; made again
    /// the same, it is left alone; a dry run writes nothing; no temporary file is ever left behind.
    @Test func aStreamedFileIsPublishedLikeAnyOther() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        let big = String(repeating: "熟成紅茶 ", count: 300_000)
        let first = try publisher.begin(dryRun: false)
        try Self.stream(first, "summary.json", big, discarded: "stale start")
        try first.publish(Self.files(["feed.xml": "f"]), in: .site)
        let report = try first.finish()
        #expect(Self.relative(report.written, to: root).sorted() == ["site/feed.xml", "site/summary.json"])
        let file = root.appendingPathComponent("site/summary.json")
        #expect(try Data(contentsOf: file) == Data(big.utf8))
        let entry = try #require(try Self.manifest(root).site.first { $0.path == "summary.json" })
        #expect(entry.sha256 == ContentDigest(of: Data(big.utf8)))
        #expect(entry.size == Int64(big.utf8.count))
        #expect(entry.pieces?.count == 1)
        #expect(TestSupport.files(in: root.appendingPathComponent("site")) == ["feed.xml", "summary.json"])

        Self.setModified(root.appendingPathComponent("state/published.json"), Self.modified(file) + 10_000_000_000)
        let stamp = Self.modified(file)
        let second = try publisher.begin(dryRun: false)
        try Self.stream(second, "summary.json", big)
        #expect(try second.finish().written == [])
        #expect(Self.modified(file) == stamp)

        let dry = try publisher.begin(dryRun: true)
        try Self.stream(dry, "summary.json", "changed")
        #expect(Self.relative(try dry.finish().written, to: root) == ["site/summary.json"])
        #expect(try Data(contentsOf: file) == Data(big.utf8))

        // Edited by hand to the same bytes under a new time: read back, found equal, left alone.
        try Data(big.utf8).write(to: file)
        let third = try publisher.begin(dryRun: false)
        try Self.stream(third, "summary.json", big)
        #expect(try third.finish().written == [])
        // The feed, not published this time, went as stale; no temporary file stayed.
        #expect(TestSupport.files(in: root.appendingPathComponent("site")) == ["summary.json"])
    }

    /// A link where a streamed file goes is refused (exit 73) and replaced by nothing.
    @Test func aLinkWhereAStreamedFileGoesIsRefused() throws {
        let root = TestSupport.temporaryFolder()
        TestSupport.write(["site/elsewhere.txt": "keep"], in: root)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("site/summary.json").path, withDestinationPath: "elsewhere.txt")
        let session = try Self.publisher(root).begin(dryRun: false)
        #expect(throws: OutputError.self) { try Self.stream(session, "summary.json", "{}") }
        #expect(try Data(contentsOf: root.appendingPathComponent("site/elsewhere.txt")) == Data("keep".utf8))
        // No temporary file stayed (the listing has regular files only: the link is not in it).
        #expect(TestSupport.files(in: root.appendingPathComponent("site")) == ["elsewhere.txt"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root.appendingPathComponent("site/summary.json").path) == "elsewhere.txt")
    }

    /// `published.json` as versions before 2 wrote it: every listed file is compared by reading, stale
    /// ones are removed, and the manifest is rewritten in the new format.
    @Test func anOldListOfPublishedFilesIsMigrated() throws {
        let root = TestSupport.temporaryFolder()
        TestSupport.write(
            [
                "md/index.md": "a", "md/old.md": "gone", "md/changed.md": "before", "site/index.html": "A",
                "state/published.json": #"{"markdown": ["index.md", "old.md", "changed.md"], "site": ["index.html"]}"#,
            ], in: root)
        let report = try Self.build(Self.publisher(root), markdown: ["index.md": "a", "changed.md": "after"], site: ["index.html": "A"])
        #expect(Self.relative(report.written, to: root) == ["md/changed.md"])
        #expect(report.unchanged == 2)
        #expect(Self.relative(report.removed, to: root) == ["md/old.md"])
        let manifest = try Self.manifest(root)
        #expect(manifest.markdown.sorted { $0.path < $1.path }.map(\.sha256) == [ContentDigest(of: Data("after".utf8)), ContentDigest(of: Data("a".utf8))])
        #expect(manifest.site.map(\.size) == [1])
        #expect(try String(contentsOf: root.appendingPathComponent("state/published.json"), encoding: .utf8).hasPrefix("{\"version\": 2,\n"))
    }

    @Test func aLinkWhereAPageGoesIsRefused() throws {
        let victim = Victim()
        let root = TestSupport.temporaryFolder()
        let site = root.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("groups"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: site.appendingPathComponent("groups/x.html"), withDestinationURL: victim.file)
        let session = try Self.publisher(root).begin(dryRun: false)
        let error = PublisherTests.failure { () throws(OutputError) in
            try session.publish(Self.files(["groups/a.html": "a", "groups/x.html": "x", "index.html": "i"]), in: .site)
        }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(error?.description == "cannot write \(site.path)/groups/x.html (a symbolic link); \(PublisherTests.linkAdvice) a real file")
        try victim.expectUntouched()
        // Nothing of the batch was written.
        #expect(TestSupport.files(in: site) == [])
    }

    /// Publishing the same files again leaves `published.json` as it was; a file gone, or an entry that
    /// changed, has it written again, in the order of its paths' bytes whatever order the last one had.
    @Test func theManifestIsWrittenOnlyWhenItsEntriesChange() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        let manifestURL = root.appendingPathComponent("state/published.json")
        let pages = ["b.md": "b", "a.md": "a", "é.md": "e", "z/c.md": "c"]
        try Self.build(publisher, markdown: pages)
        let first = try Data(contentsOf: manifestURL)
        #expect(try Self.manifest(root).markdown.map(\.path) == ["a.md", "b.md", "z/c.md", "é.md"])
        Self.setModified(manifestURL, 1_000_000_000_000_000_000)
        try Self.build(publisher, markdown: pages)
        #expect(Self.modified(manifestURL) == 1_000_000_000_000_000_000)
        #expect(try Data(contentsOf: manifestURL) == first)
        // The same entries listed in another order (as an older version may have) are the same manifest.
        var shuffled = try Self.manifest(root)
        shuffled.markdown.reverse()
        try Data(String(decoding: try JSONEncoder().encode(Stored(version: Manifest.version, markdown: shuffled.markdown, site: [])), as: UTF8.self).utf8).write(to: manifestURL)
        Self.setModified(manifestURL, 1_000_000_000_000_000_000)
        try Self.build(publisher, markdown: pages)
        #expect(Self.modified(manifestURL) == 1_000_000_000_000_000_000)
        let report = try Self.build(publisher, markdown: pages.filter { $0.key != "b.md" })
        #expect(Self.relative(report.removed, to: root) == ["md/b.md"])
        #expect(Self.modified(manifestURL) != 1_000_000_000_000_000_000)
        #expect(try Self.manifest(root).markdown.map(\.path) == ["a.md", "z/c.md", "é.md"])
        #expect(try String(decoding: Data(contentsOf: manifestURL), as: UTF8.self) == String(decoding: Manifest(markdown: try Self.manifest(root).markdown.reversed(), site: []).encoded(), as: UTF8.self))
    }

    /// Two paths that differ only in Unicode normalisation (`é` composed, and `e` with a combining accent)
    /// are two files, as the file system names them: both are recorded, and a rerun that publishes the same
    /// writes nothing. Keyed by `String`, which compares them as equal, the manifest kept one of them and
    /// every rerun wrote the other again.
    @Test func pathsAreToldApartByTheirBytes() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        let composed = "people/caf\u{E9}.md"
        let decomposed = "people/cafe\u{301}.md"
        #expect(composed == decomposed)
        let files = [
            OutputFile(path: composed, contents: Data("one".utf8)), OutputFile(path: decomposed, contents: Data("two".utf8)),
            OutputFile(path: "index.md", contents: Data("i".utf8)),
        ]
        func build() throws -> PublishReport {
            let session = try publisher.begin(dryRun: false)
            try session.publish(files, in: .markdown)
            return try session.finish()
        }
        let first = try build()
        #expect(first.written.count == 3)
        #expect(Set(try Self.manifest(root).markdown.map { Array($0.path.utf8) }) == Set(files.map { Array($0.path.utf8) }))
        let second = try build()
        #expect(second.isEmpty)
        #expect(second.unchanged == 3)
        #expect(try Data(contentsOf: root.appendingPathComponent("md").appendingPathComponent(decomposed)) == Data("two".utf8))
    }

    /// `published.json` as JSONEncoder writes it: read by JSONDecoder, not `ManifestReader`.
    private struct Stored: Encodable {
        var version: Int
        var markdown: [Manifest.Entry]
        var site: [Manifest.Entry]
    }

    /// In a folder the session made, a new file is created without being looked for first; what appears
    /// at its name meanwhile is still found: a link is refused (its target untouched), a file with the
    /// same bytes is kept as it is, one with other bytes is replaced. The same in the site folder itself
    /// (where new files are looked for) as in a new folder inside it (filled under a hidden name).
    @Test(arguments: ["", "groups/"])
    func whatAppearsWhereANewFileGoesIsFoundAtCreation(folder: String) throws {
        let victim = Victim()
        let root = TestSupport.temporaryFolder()
        let session = try Self.publisher(root).begin(dryRun: false)
        try session.publish(Self.files(["\(folder)a.html": "a"]), in: .site)
        let site = root.appendingPathComponent("site")
        let made = folder.isEmpty ? site : site.appendingPathComponent(try #require(NewFolderTests.hidden(in: site).first))
        try FileManager.default.createSymbolicLink(at: made.appendingPathComponent("link.html"), withDestinationURL: victim.file)
        TestSupport.write(["same.html": "same", "other.html": "before"], in: made)
        Self.setModified(made.appendingPathComponent("same.html"), 1_000_000_000_000_000_000)
        try session.publish(Self.files(["\(folder)same.html": "same", "\(folder)other.html": "after", "\(folder)b.html": "b"]), in: .site)
        let error = PublisherTests.failure { () throws(OutputError) in
            try session.publish(Self.files(["\(folder)link.html": "x"]), in: .site)
        }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(error?.description == "cannot write \(site.path)/\(folder)link.html (a symbolic link); \(PublisherTests.linkAdvice) a real file")
        try victim.expectUntouched()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: made.appendingPathComponent("link.html").path) == victim.file.path)
        #expect(Self.modified(made.appendingPathComponent("same.html")) == 1_000_000_000_000_000_000)
        // In a new folder the files are in place at once, since no reader sees it yet; in the site folder
        // itself they wait under temporary names until `finish` puts them all in place.
        let inSight = try TestSupport.contents(of: made).filter { !$0.key.contains(AtomicFile.temporaryMarker) }
        let expected = folder.isEmpty ? ["same.html": "same", "other.html": "before"] : ["a.html": "a", "b.html": "b", "same.html": "same", "other.html": "after"]
        #expect(inSight == expected.mapValues { Data($0.utf8) })
    }

    /// Temporary files left in the published folders are swept only after a publish that died (its
    /// marker is there); the state folder is always swept.
    @Test func leftoversAreSweptOnlyAfterAnUnfinishedPublish() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        try Self.build(publisher, markdown: ["index.md": "a"])
        let leftovers = ["md/.x.md\(AtomicFile.temporaryMarker)1-7", "site/.x.html\(AtomicFile.temporaryMarker)1-8"]
        TestSupport.write(Dictionary(uniqueKeysWithValues: (leftovers + ["state/.snapshot.json\(AtomicFile.temporaryMarker)9"]).map { ($0, "x") }), in: root)
        try Self.build(publisher, markdown: ["index.md": "a"])
        #expect(TestSupport.files(in: root).filter { $0.contains(AtomicFile.temporaryMarker) } == leftovers)

        // A publish that writes and never finishes (the build was killed) leaves its marker.
        let killed = try publisher.begin(dryRun: false)
        try killed.publish(Self.files(["index.md": "b"]), in: .markdown)
        let marker = root.appendingPathComponent("state/\(PublishSession.unfinishedMarker)")
        #expect(FileManager.default.fileExists(atPath: marker.path))
        let next = try publisher.begin(dryRun: false)
        #expect(TestSupport.files(in: root).filter { $0.contains(AtomicFile.temporaryMarker) } == [])
        try next.publish(Self.files(["index.md": "b"]), in: .markdown)
        // The killed publish put nothing in place: the next one writes it.
        #expect(Self.relative(try next.finish().written, to: root) == ["md/index.md"])
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }

    /// Nothing is in sight before `place`; after it, a rollback (the state could not be committed) puts every
    /// file back as it was: replaced files get their old bytes, new files and folders go, stale files come
    /// back, the list of published files is the old one, and no temporary file or marker is left.
    @Test func aRollBackAfterPlacingPutsEveryFileBack() throws {
        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        try Self.build(publisher, markdown: ["index.md": "a", "old.md": "o"], site: ["index.html": "A"])
        let before = try TestSupport.contents(of: root)
        let session = try publisher.begin(dryRun: false)
        try session.publish(Self.files(["index.md": "b", "new.md": "n", "groups/x.md": "x"]), in: .markdown)
        try session.publish(Self.files(["index.html": "A"]), in: .site)
        try session.prepare(inputs: "fingerprint")
        #expect(try TestSupport.contents(of: root).filter { !$0.key.contains(AtomicFile.temporaryMarker) && !$0.key.hasPrefix("state/") }
            == before.filter { !$0.key.hasPrefix("state/") })
        try session.place()
        let placed = try TestSupport.contents(of: root.appendingPathComponent("md"))
        #expect(placed.filter { !$0.key.contains(AtomicFile.temporaryMarker) } == ["index.md": "b", "new.md": "n", "groups/x.md": "x"].mapValues { Data($0.utf8) })
        #expect(try Self.manifest(root).inputs == "fingerprint")
        session.rollBack()
        session.abandon()
        #expect(try TestSupport.contents(of: root) == before)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("md/groups").path))
    }

    @Test func aDryRunCountsButWritesNothing() throws {
        let empty = TestSupport.temporaryFolder()
        let fresh = try Self.build(Self.publisher(empty), markdown: ["index.md": "a", "groups/x.md": "x"], site: ["index.html": "A"], dryRun: true)
        #expect(Self.relative(fresh.written, to: empty) == ["md/groups/x.md", "md/index.md", "site/index.html"])
        #expect(TestSupport.files(in: empty) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path) == [])

        let root = TestSupport.temporaryFolder()
        let publisher = Self.publisher(root)
        try Self.build(publisher, markdown: ["index.md": "a", "groups/x.md": "x"], site: ["index.html": "A"])
        TestSupport.write(["md/.i.md\(AtomicFile.temporaryMarker)1-1": "left", "state/\(PublishSession.unfinishedMarker)": ""], in: root)
        let before = try TestSupport.contents(of: root)
        let report = try Self.build(publisher, markdown: ["index.md": "b", "new/y.md": "y"], site: ["index.html": "A"], dryRun: true)
        #expect(Self.relative(report.written, to: root) == ["md/index.md", "md/new/y.md"])
        #expect(report.unchanged == 1)
        #expect(Self.relative(report.removed, to: root) == ["md/groups/x.md"])
        #expect(try TestSupport.contents(of: root) == before)
    }

    @Test func filesAndFoldersAreWorldReadableWhateverTheUmask() throws {
        let root = TestSupport.temporaryFolder()
        let previous = umask(0o077)
        defer { umask(previous) }
        try Self.build(Self.publisher(root), markdown: ["a/b/page.md": "x"])
        let page = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("md/a/b/page.md").path)
        #expect((page[.posixPermissions] as? Int) == 0o644)
        let folder = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("md/a/b").path)
        #expect((folder[.posixPermissions] as? Int) == 0o755)
    }

    /// Every file below `root` but the manifest, whose times differ from one folder to another.
    static func published(_ root: URL) throws -> [String: Data] {
        try TestSupport.contents(of: root).filter { $0.key != "state/published.json" }
    }

    /// A manifest without the files' modification times, in path order.
    static func comparable(_ manifest: Manifest) -> [String] {
        OutputTree.allCases.flatMap { tree in
            manifest[tree].map { "\(tree) \($0.path) \($0.size) \($0.sha256) \($0.reuseKey ?? "-")" }.sorted()
        }
    }

    /// Batches published from several threads at once give what one thread publishing them in turn gives.
    @Test func concurrentBatchesGiveWhatSerialBatchesGive() throws {
        func pages(_ round: Int) -> [[OutputFile]] {
            (0..<8).map { batch in
                (0..<40).compactMap { index -> OutputFile? in
                    // Round 2 changes every third page and drops every seventh.
                    if round == 2, index % 7 == 0 { return nil }
                    let text = "page \(batch)-\(index)" + (round == 2 && index % 3 == 0 ? " changed" : "")
                    return OutputFile(path: "folder\(batch % 3)/sub\(index % 4)/p\(batch)-\(index).md", contents: Data(text.utf8), reuseKey: "\(round)")
                }
            }
        }
        func run(_ root: URL, concurrently: Bool, round: Int) throws -> PublishReport {
            let session = try Self.publisher(root, parallel: concurrently).begin(dryRun: false)
            let batches = pages(round)
            if concurrently {
                let failures = NSLock()
                nonisolated(unsafe) var errors: [OutputError] = []
                DispatchQueue.concurrentPerform(iterations: batches.count) { index in
                    do throws(OutputError) {
                        try session.publish(batches[index], in: index % 2 == 0 ? .markdown : .site)
                    } catch {
                        failures.withLock { errors.append(error) }
                    }
                }
                #expect(errors == [])
            } else {
                for (index, batch) in batches.enumerated() { try session.publish(batch, in: index % 2 == 0 ? .markdown : .site) }
            }
            return try session.finish()
        }
        let serial = TestSupport.temporaryFolder()
        let concurrent = TestSupport.temporaryFolder()
        for round in [1, 2] {
            let one = try run(serial, concurrently: false, round: round)
            let many = try run(concurrent, concurrently: true, round: round)
            #expect(Self.relative(many.written, to: concurrent) == Self.relative(one.written, to: serial))
            #expect(Self.relative(many.removed, to: concurrent) == Self.relative(one.removed, to: serial))
            #expect(many.unchanged == one.unchanged)
            // The same files with the same bytes; the manifests differ only in the files' times.
            #expect(try Self.published(concurrent) == (try Self.published(serial)))
            #expect(try Self.comparable(Self.manifest(concurrent)) == (try Self.comparable(Self.manifest(serial))))
        }
        // Exactly round 2's pages are left in the markdown and site folders.
        #expect(TestSupport.files(in: serial).filter { !$0.hasPrefix("state/") }.count == pages(2).joined().count)
    }
}
