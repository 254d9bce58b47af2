import Foundation
import Testing

@testable import OrderPressOutput
@testable import OrderPressPublish
@testable import OrderPressSupport
import OrderPressTestSupport

/// A file made in keyed pieces (`summary.json`, `orders.csv`) is recorded by its pieces' keys and the
/// bytes of the rest (`FilePieces.contentDigest`), not by hashing every byte: whether it must be written
/// again is decided by that digest and, where keys differ, by comparing those parts of the bytes.
@Suite struct FilePiecesDigestTests {
    static func key(_ text: String) -> PieceKey { Data(text.utf8).withUnsafeBytes { PieceKey(Digest128(sha256Of: $0)) } }

    /// `[` then each piece (key, bytes) then `]`, streamed as the exports are, copying from the published file what it has.
    static func stream(_ session: PublishSession, _ pieces: [(key: String, text: String)], published: PublishedPieces? = nil) throws {
        try session.publishStreamed("summary.json", in: .site) { stream in
            var out = PieceAssembler(into: stream, published: published)
            out.write(Array("[".utf8))
            for piece in pieces { out.piece(Self.key(piece.key)) { $0 += Array(piece.text.utf8) } }
            out.write(Array("]".utf8))
            return out.finish()
        }
    }

    static let pieces: [(key: String, text: String)] = [("a", String(repeating: "熟成紅茶 ", count: 50_000)), ("b", "{\"x\": 1}"), ("c", "tail")]

    static func bytes(_ pieces: [(key: String, text: String)]) -> Data { Data(("[" + pieces.map(\.text).joined() + "]").utf8) }

    /// The manifest's time put after the file's, so that the record is not in doubt.
    static func settle(_ root: URL) {
        let file = root.appendingPathComponent("site/summary.json")
        PublishSessionTests.setModified(root.appendingPathComponent("state/published.json"), PublishSessionTests.modified(file) + 10_000_000_000)
    }

    /// A site whose `summary.json` one session streamed from `pieces`: its folder, its publisher, the file.
    static func publishedOnce() throws -> (root: URL, publisher: Publisher, file: URL) {
        let root = TestSupport.temporaryFolder()
        let publisher = PublishSessionTests.publisher(root)
        let first = try publisher.begin(dryRun: false)
        try stream(first, pieces)
        _ = try first.finish()
        return (root, publisher, root.appendingPathComponent("site/summary.json"))
    }

    @Test func aStreamedFileIsRecordedByItsKeysAndTheRestOfItsBytes() throws {
        let (root, publisher, file) = try Self.publishedOnce()
        #expect(try Data(contentsOf: file) == Self.bytes(Self.pieces))
        let entry = try #require(try PublishSessionTests.manifest(root).site.first { $0.path == "summary.json" })
        let pieces = try #require(entry.pieces)
        #expect(pieces.hasKeys)
        #expect(entry.sha256 == pieces.contentDigest(of: Self.bytes(Self.pieces)))
        #expect(entry.sha256 != ContentDigest(of: Self.bytes(Self.pieces)))
        // Another key, or other bytes outside the keyed pieces, is another digest.
        var other = FilePieces()
        pieces.forEach { key, _, length in other.append(key == Self.key("b") ? Self.key("B") : key, length: length) }
        #expect(other.contentDigest(of: Self.bytes(Self.pieces)) != entry.sha256)
        var edited = Self.bytes(Self.pieces)
        edited[edited.count - 1] = UInt8(ascii: "}")
        #expect(pieces.contentDigest(of: edited) != entry.sha256)

        // Made again the same: not written; nor in a dry run, which digests the bytes in memory the same way.
        Self.settle(root)
        let stamp = PublishSessionTests.modified(file)
        let second = try publisher.begin(dryRun: false)
        try Self.stream(second, Self.pieces)
        #expect(try second.finish().written == [])
        #expect(PublishSessionTests.modified(file) == stamp)
        let dry = try publisher.begin(dryRun: true)
        try Self.stream(dry, Self.pieces)
        #expect(try dry.finish().written == [])
    }

    /// Keys that changed where the bytes did not (a note changed: the person's entry has a new key, the
    /// same text) leave the file alone; a piece that changed is written, whether its length did or not.
    @Test func newKeysAreComparedByTheBytesTheyCover() throws {
        let (root, publisher, file) = try Self.publishedOnce()
        Self.settle(root)
        let stamp = PublishSessionTests.modified(file)

        var rekeyed = Self.pieces
        rekeyed[1].key = "b2"
        let second = try publisher.begin(dryRun: false)
        try Self.stream(second, rekeyed)
        #expect(try second.finish().written == [])
        #expect(PublishSessionTests.modified(file) == stamp)

        Self.settle(root)
        var changed = rekeyed
        (changed[1].key, changed[1].text) = ("b3", "{\"x\": 2}")
        let third = try publisher.begin(dryRun: false)
        try Self.stream(third, changed)
        #expect(PublishSessionTests.relative(try third.finish().written, to: root) == ["site/summary.json"])
        #expect(try Data(contentsOf: file) == Self.bytes(changed))
    }

    /// A record in doubt (the file written in the manifest's clock tick) is checked by reading the bytes.
    @Test func aFileInDoubtIsComparedByItsBytes() throws {
        let (root, publisher, file) = try Self.publishedOnce()
        PublishSessionTests.setModified(root.appendingPathComponent("state/published.json"), PublishSessionTests.modified(file))
        let second = try publisher.begin(dryRun: false)
        try Self.stream(second, Self.pieces)
        #expect(try second.finish().written == [])

        // Edited by hand to other bytes of the same length, its record in doubt: written again.
        var edited = Self.bytes(Self.pieces)
        edited[1] = UInt8(ascii: "x")
        try edited.write(to: file)
        PublishSessionTests.setModified(root.appendingPathComponent("state/published.json"), PublishSessionTests.modified(file))
        let third = try publisher.begin(dryRun: false)
        try Self.stream(third, Self.pieces)
        #expect(PublishSessionTests.relative(try third.finish().written, to: root) == ["site/summary.json"])
        #expect(try Data(contentsOf: file) == Self.bytes(Self.pieces))
    }

    /// A manifest of an earlier version recorded the file's SHA-256 of every byte: the same bytes made
    /// again are compared, found equal and left alone; other bytes are written.
    @Test func aManifestWithTheWholeFilesDigestStillKeepsAnUnchangedFile() throws {
        let (root, publisher, file) = try Self.publishedOnce()
        func recordWholeDigest() throws {
            var manifest = try PublishSessionTests.manifest(root)
            let index = try #require(manifest.site.firstIndex { $0.path == "summary.json" })
            manifest.site[index].sha256 = ContentDigest(of: try Data(contentsOf: file))
            try manifest.encoded().write(to: root.appendingPathComponent("state/published.json"))
            Self.settle(root)
        }
        try recordWholeDigest()
        let stamp = PublishSessionTests.modified(file)
        let second = try publisher.begin(dryRun: false)
        try Self.stream(second, Self.pieces)
        #expect(try second.finish().written == [])
        #expect(PublishSessionTests.modified(file) == stamp)
        let entry = try #require(try PublishSessionTests.manifest(root).site.first { $0.path == "summary.json" })
        #expect(entry.sha256 == entry.pieces?.contentDigest(of: Self.bytes(Self.pieces)))

        try recordWholeDigest()
        var changed = Self.pieces
        changed[2] = ("c2", "tall")
        let third = try publisher.begin(dryRun: false)
        try Self.stream(third, changed)
        #expect(PublishSessionTests.relative(try third.finish().written, to: root) == ["site/summary.json"])
        #expect(try Data(contentsOf: file) == Self.bytes(changed))
    }

    /// Published bytes the kernel could send only in part (`PublishedPieces.send`) are read for the rest;
    /// those it could not send at all likewise, and the file's digest is the same either way.
    @Test(arguments: [0, 1, 7, 20])
    func bytesNotSentAreRead(sending sent: Int) throws {
        let published = Array("0123456789abcdefghij".utf8)
        let folder = TestSupport.temporaryFolder()
        let descriptor = open(folder.appendingPathComponent("made").path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        var pieces = FilePieces()
        pieces.append(Self.key("all"), length: published.count)
        let source = PublishedPieces(
            pieces: pieces,
            read: { offset, buffer in
                guard offset + buffer.count <= published.count else { return false }
                published.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + buffer.count])) }
                return true
            },
            send: { offset, length, target in
                let count = min(sent, length)
                return published.withUnsafeBytes { write(target, $0.baseAddress! + offset, count) }
            })
        let stream = FileStream(descriptor: descriptor)
        stream.append(Array("[".utf8))
        #expect(stream.append(keyed: published.count, of: source, at: 0))
        stream.append(Array("]".utf8))
        #expect(stream.finish())
        let made = try Data(contentsOf: folder.appendingPathComponent("made"))
        #expect(made == Data("[".utf8 + published + "]".utf8))
        var whole = FilePieces()
        whole.append(nil, length: 1)
        whole.append(Self.key("all"), length: published.count)
        whole.append(nil, length: 1)
        #expect(stream.digest(of: whole) == whole.contentDigest(of: made))
    }
}
