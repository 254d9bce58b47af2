import Foundation
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

@Suite struct BoundedFileTests {
    @Test func aFileUpToTheLimitIsReadWhole() throws {
        let folder = TestSupport.temporaryFolder()
        let url = folder.appendingPathComponent("f")
        let bytes = Data((0..<100_000).map { UInt8($0 % 251) })
        try bytes.write(to: url)
        #expect(try BoundedFile.read(url.path, limit: 100_000) == bytes)
        #expect(throws: BoundedFile.Failure.tooLarge(limit: 99_999)) { try BoundedFile.read(url.path, limit: 99_999) }
        try Data().write(to: url)
        #expect(try BoundedFile.read(url.path, limit: 10) == Data())
    }

    @Test func aSparseGiantIsRefusedByItsSizeWithoutBeingRead() throws {
        let url = TestSupport.temporaryFolder().appendingPathComponent("big.csv")
        try TestSupport.sparse(url, size: Int64(64) << 30)
        #expect(throws: BoundedFile.Failure.tooLarge(limit: BoundedFile.maxBytes)) { try BoundedFile.read(url.path) }
    }

    @Test func pipesDevicesFoldersAndLinksAreRefusedWhereTheyMustBe() throws {
        let folder = TestSupport.temporaryFolder()
        let pipe = folder.appendingPathComponent("pipe")
        try #require(mkfifo(pipe.path, 0o644) == 0)
        #expect(throws: BoundedFile.Failure.notRegular) { try BoundedFile.read(pipe.path) }
        #expect(throws: BoundedFile.Failure.notRegular) { try BoundedFile.read("/dev/zero") }
        #expect(throws: BoundedFile.Failure.notRegular) { try BoundedFile.read(folder.path) }
        #expect(throws: BoundedFile.Failure.missing) { try BoundedFile.read(folder.appendingPathComponent("none").path) }
        let file = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        #expect(try BoundedFile.read(link.path) == Data("x".utf8))
        #expect(throws: BoundedFile.Failure.link) { try BoundedFile.read(link.path, followLinks: false) }
        // As a stream, a device is read up to the limit and no further.
        #expect(throws: BoundedFile.Failure.tooLarge(limit: 1000)) { try BoundedFile.read("/dev/zero", limit: 1000, streams: true) }
    }
}
