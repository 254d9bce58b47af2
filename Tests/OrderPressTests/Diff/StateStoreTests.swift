import Foundation
import Testing

@testable import OrderPress

@Suite struct StateStoreTests {
    static let startAfresh = "move it away to start afresh (the next build is then a first run)"

    /// A state folder holding a good snapshot and history, as a build leaves them.
    static func saved() throws -> (store: StateStore, snapshot: Snapshot) {
        let store = StateStore(folder: TestSupport.temporaryFolder())
        let (snapshot, changes) = try DifferTests.compare(DifferTests.base, previous: nil)
        try store.save(snapshot: snapshot, history: [HistoryEntry(time: "2026-11-21T10:00:00Z", changes: changes)])
        return (store, snapshot)
    }

    @Test(arguments: ["{not json", "{\"version\": 1}", "[]"])
    func aCorruptHistoryIsReportedAsHistory(contents: String) throws {
        let (store, _) = try Self.saved()
        TestSupport.write(["history.json": contents], in: store.folder)
        do {
            _ = try store.loadHistory()
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "\(store.historyURL.path) cannot be read (it is not a history this version understands); \(Self.startAfresh)")
            #expect(error.exitStatus == .dataError)
        }
    }

    @Test(arguments: [0, -1, Int.min])
    func aSnapshotWithAVersionBelowOneIsRefused(version: Int) throws {
        let (store, saved) = try Self.saved()
        var snapshot = saved
        snapshot.version = version
        TestSupport.write(["snapshot.json": String(decoding: JSONOutput.encode(snapshot), as: UTF8.self)], in: store.folder)
        do {
            _ = try store.loadSnapshot()
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "\(store.snapshotURL.path) cannot be read (its version \(version) is not a version of OrderPress's snapshot); \(Self.startAfresh)")
        }
    }

    @Test(arguments: [0, -3])
    func aHistoryWithAVersionBelowOneIsRefused(version: Int) throws {
        let (store, _) = try Self.saved()
        TestSupport.write(["history.json": "{\"version\": \(version), \"entries\": []}"], in: store.folder)
        #expect(throws: DataError(message: "\(store.historyURL.path) cannot be read (its version \(version) is not a version of OrderPress's history); \(Self.startAfresh)")) {
            try store.loadHistory()
        }
    }

    @Test func theCurrentVersionIsAccepted() throws {
        let (store, snapshot) = try Self.saved()
        #expect(try store.loadSnapshot() == snapshot)
        #expect(try store.loadHistory().count == 1)
    }

    @Test func aLinkedStateFileIsNotWrittenThrough() throws {
        let (store, snapshot) = try Self.saved()
        let victim = TestSupport.temporaryFolder().appendingPathComponent("victim.json")
        TestSupport.write(["victim.json": "outside"], in: victim.deletingLastPathComponent())
        try FileManager.default.removeItem(at: store.snapshotURL)
        try FileManager.default.createSymbolicLink(at: store.snapshotURL, withDestinationURL: victim)
        #expect(throws: OutputError.self) { try store.save(snapshot: snapshot, history: []) }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "outside")
    }
}
