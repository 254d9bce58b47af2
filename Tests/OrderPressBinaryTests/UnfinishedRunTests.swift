import Foundation
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// A run killed (or failed) between putting files in place and committing the state leaves a site that the
/// last snapshot does not describe, and perhaps pages no list of published files names. The next run repairs
/// both, whatever its input: it removes what is no part of its site and never takes the "unchanged input"
/// shortcut while the published site is another build's (docs/guarantees.md: all or nothing).
@Suite struct UnfinishedRunTests {
    /// The sample's orders as they were, to undo `ChangesTests.editOrders`.
    static func orders(of site: URL) throws -> Data {
        try Data(contentsOf: site.appendingPathComponent("data/orders.json"))
    }

    static func restore(_ orders: Data, in site: URL) throws {
        try orders.write(to: site.appendingPathComponent("data/orders.json"))
    }

    /// The output equals what the clean build `expected` holds, file for file, with no temporary file left.
    static func expectSame(_ output: URL, as expected: [String: Data], _ comment: Comment) throws {
        let built = try TestSupport.contents(of: output)
        #expect(!built.keys.contains { $0.contains(AtomicFile.temporaryMarker) }, comment)
        // The lock, and a journal a killed save left that was never hot (SQLite ignores it, and the next
        // save replaces it), are no part of the result (as in `CronTests`).
        let relevant = { (path: String) in path != "state/lock" && path != "state/state.sqlite-journal" }
        #expect(Set(built.keys.filter(relevant)) == Set(expected.keys.filter(relevant)), comment)
        for (path, data) in expected where relevant(path) {
            #expect(CronTests.comparable(path, built[path]) == CronTests.comparable(path, data), "\(path) differs: \(comment)")
        }
    }

    /// Issue 22, item 14: a build killed once its new pages (Zoe's and Yuki's) are in place but before the list
    /// of published files names them, then (with `failing`) a build that fails, then a build of the sheet
    /// as it was: the pages the killed build created are removed, and the site is the clean build's.
    @Test(arguments: [false, true])
    func pagesAKilledBuildCreatedAreRemovedByTheNextGoodOne(failing: Bool) throws {
        let reference = try CronTests.reference()
        let site = try TestSupport.sampleSite()
        let output = site.appendingPathComponent("output")
        try TestSupport.run(["build"], in: site, environment: CronTests.before)
        let original = try Self.orders(of: site)
        try ChangesTests.editOrders(in: site)
        CronTests.kill(try CronTests.startPaused(in: site, pause: "before-manifest:1", environment: CronTests.after))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("site/people/zoe.html").path))

        try Self.restore(original, in: site)
        if failing {
            let environment = try FaultShim.environment(failing: ["\(output.path)/site/.index.html"], operations: ["write"])
                .merging(CronTests.before) { $1 }
            let failed = try TestSupport.run(["build"], in: site, environment: environment)
            #expect(failed.status == 74, "\(failed.stderr)")
        }
        let next = try TestSupport.run(["build"], in: site, environment: CronTests.before)
        #expect(next.status == 0, "\(next.stderr)")
        try Self.expectSame(output, as: reference.previous, "after a killed build and an undo")
    }

    /// Issue 22, item 15: a build that published the edited sheet but never committed its snapshot (killed
    /// just before the commit, or its commit failed), then a run on the sheet as the last snapshot has it:
    /// not "unchanged" — the site is rebuilt to the clean build's, with no history entry of the lost run.
    @Test(arguments: ["killed", "commit failed"])
    func anUndoAfterAnUncommittedBuildRebuildsTheSite(how: String) throws {
        let reference = try CronTests.reference()
        let site = try TestSupport.sampleSite()
        let output = site.appendingPathComponent("output")
        try TestSupport.run(["build"], in: site, environment: CronTests.before)
        let original = try Self.orders(of: site)
        try ChangesTests.editOrders(in: site)
        if how == "killed" {
            CronTests.kill(try CronTests.startPaused(in: site, pause: "before-commit:1", environment: CronTests.after))
        } else {
            let environment = try FaultShim.environment(failing: ["\(output.path)/state/state.sqlite$"], operations: ["write"], errno: EIO)
                .merging(CronTests.after) { $1 }
            #expect(try TestSupport.run(["build"], in: site, environment: environment).status == 74)
        }

        try Self.restore(original, in: site)
        let undo = try TestSupport.run(["build"], in: site, environment: CronTests.before)
        #expect(undo.status == 0, "\(undo.stderr)")
        try Self.expectSame(output, as: reference.previous, "after an uncommitted build (\(how)) and an undo")
        // The next run on the same input is the unchanged one.
        let again = try TestSupport.run(["build"], in: site, environment: CronTests.before)
        #expect(again.stdout.contains("· 0 files written, "), "\(again.stdout)")
    }

    /// Issue 22, item 15: the temporary files of a build killed while writing (here, after its 5th file) are
    /// swept by the next run even when its input is the last snapshot's, which is then no shortcut.
    @Test func temporaryFilesOfAKilledBuildAreSweptByAnUndo() throws {
        let reference = try CronTests.reference()
        let site = try TestSupport.sampleSite()
        let output = site.appendingPathComponent("output")
        try TestSupport.run(["build"], in: site, environment: CronTests.before)
        let original = try Self.orders(of: site)
        try ChangesTests.editOrders(in: site)
        CronTests.kill(try CronTests.startPaused(in: site, pause: "after-write:5", environment: CronTests.after))
        #expect(TestSupport.files(in: output).contains { $0.contains(AtomicFile.temporaryMarker) })

        try Self.restore(original, in: site)
        let undo = try TestSupport.run(["build"], in: site, environment: CronTests.before)
        #expect(undo.status == 0, "\(undo.stderr)")
        try Self.expectSame(output, as: reference.previous, "after a build killed while writing and an undo")
    }
}
