import Foundation
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// `AtomicFile.createFolder`, which makes the configured folders (the state folder first, before the
/// build lock inside it can be taken), called by several at the same instant.
@Suite struct CreateFolderRaceTests {
    final class Errors: @unchecked Sendable {
        private var found: [OutputError] = []
        private let lock = NSLock()
        func add(_ error: OutputError) { lock.withLock { found.append(error) } }
        var all: [OutputError] { lock.withLock { found } }
    }

    /// A folder another process (here: thread) made between the check and the `mkdir` is what was
    /// wanted, at every level of the path.
    @Test func aFolderMadeMeanwhileByAnotherIsNoError() {
        let errors = Errors()
        for _ in 0..<200 {
            let folder = TestSupport.temporaryFolder().appendingPathComponent("output/a/b/state")
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do throws(OutputError) {
                    try AtomicFile.createFolder(folder)
                } catch {
                    errors.add(error)
                }
            }
            var isFolder: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && isFolder.boolValue)
        }
        #expect(errors.all == [])
    }

    /// What stands there and is not a folder is still refused: a file, a link to nowhere.
    @Test func aFileOrADanglingLinkInTheWayIsStillAnError() throws {
        let parent = TestSupport.temporaryFolder()
        let file = parent.appendingPathComponent("state")
        try Data("x".utf8).write(to: file)
        #expect(throws: OutputError(path: file.path, reason: "a file of that name is in the way", cannotCreate: true)) {
            try AtomicFile.createFolder(file)
        }
        let link = parent.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: parent.appendingPathComponent("nowhere").path)
        #expect(throws: OutputError(path: link.path, reason: "a file of that name is in the way", cannotCreate: true)) {
            try AtomicFile.createFolder(link)
        }
        // A link to a folder is the organiser's choice of place for a configured folder.
        let real = TestSupport.temporaryFolder()
        let toFolder = parent.appendingPathComponent("elsewhere")
        try FileManager.default.createSymbolicLink(at: toFolder, withDestinationURL: real)
        try AtomicFile.createFolder(toFolder)
    }
}
