import Foundation
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// A run that fails while writing — a full disk, an I/O error, a state database that cannot be written —
/// leaves the published site, the Markdown, the snapshot and the history exactly as they were (docs/guarantees.md,
/// all or nothing), and the next good run builds what an uninterrupted one builds. Write failures are injected
/// into the built binary with `FaultShim`.
@Suite struct FailedRunTests {
    /// What a failed run must leave as it was: every file of the output but the lock, with the state
    /// database compared by what it holds (see `CronTests.comparable`).
    static func lasting(_ output: URL) throws -> [String: Data] {
        let files = try TestSupport.contents(of: output)
        var lasting: [String: Data] = [:]
        // SQLite's journals: what the next run rolls back (a super-journal, `-mj…`, when the commit of a
        // transaction over two attached databases failed).
        for (path, data) in files where path != "state/lock" && !path.hasSuffix("-journal") && !path.contains("state.sqlite-mj") {
            lasting[path] = path == "state/state.sqlite" ? CronTests.comparable(path, data, journal: files["state/state.sqlite-journal"]) : data
        }
        return lasting
    }

    /// The sample built, then its orders edited (three deleted, one changed, two people added); the output as it
    /// was after the first build.
    static func editedSample() throws -> (site: URL, before: [String: Data]) {
        let site = try TestSupport.sampleSite()
        let first = try TestSupport.run(["build"], in: site, environment: CronTests.before)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try lasting(site.appendingPathComponent("output"))
        try ChangesTests.editOrders(in: site)
        return (site, before)
    }

    /// Then the next run, without faults, builds what an uninterrupted build of the edited sample builds.
    static func expectRepaired(_ site: URL) throws {
        let reference = try CronTests.reference()
        let next = try TestSupport.run(["build"], in: site, environment: CronTests.after)
        #expect(next.status == 0, "\(next.stderr)")
        let repaired = try TestSupport.contents(of: site.appendingPathComponent("output"))
        #expect(!repaired.keys.contains { $0.contains(AtomicFile.temporaryMarker) })
        #expect(Set(repaired.keys) == Set(reference.output.keys))
        for (path, data) in reference.output where path != "state/lock" {
            #expect(CronTests.comparable(path, repaired[path]) == CronTests.comparable(path, data), "\(path) differs from a clean build")
        }
    }

    /// Issue 22, item 13: a write that fails anywhere while publishing — a page, a whole-site file, the list
    /// of published files, the marker of an unfinished run, or the rename that puts a file in place — fails
    /// the run (73 or 74, naming the file) and publishes nothing of it.
    @Test(arguments: [
        ("site/.feed.xml", "write"), ("site/.summary.json", "write"), ("site/.orders.csv", "write"), ("markdown/people/", "write"),
        ("site/groups/", "write"), ("markdown/.changes.md", "write"), ("state/.published.json", "write"), ("state/.publishing", "write"),
        ("site/index.html", "rename"), ("site/people/", "rename"), ("state/published.json", "rename"),
    ])
    func aFailedWriteWhilePublishingChangesNothing(pattern: String, operation: String) throws {
        let (site, before) = try Self.editedSample()
        let output = site.appendingPathComponent("output")
        let environment = try FaultShim.environment(failing: ["\(output.path)/\(pattern)"], operations: [operation]).merging(CronTests.after) { $1 }
        let failed = try TestSupport.run(["build"], in: site, environment: environment)
        #expect([73, 74].contains(failed.status), "exit \(failed.status): \(failed.stderr)")
        #expect(failed.stderr.hasPrefix("orderpress: publish: cannot write \(output.path)/"), "\(failed.stderr)")
        let after = try Self.lasting(output)
        #expect(Set(after.keys) == Set(before.keys), "files appeared or vanished: \(Set(after.keys).symmetricDifference(before.keys).sorted())")
        for (path, data) in before {
            #expect(after[path] == data, "\(path) changed although the run failed")
        }
        try Self.expectRepaired(site)
    }

    /// Issue 22, items 7 and 13: when the state database cannot be written — its journal at once, or the
    /// database itself when the save commits — the run exits 74 and the site stays as it was: the
    /// transaction is written before any file is put in place, and the files are put back if the commit fails.
    @Test(arguments: [("state/state.sqlite-journal", "write"), ("state/state.sqlite$", "write"), ("state/state.sqlite", "fsync")])
    func aStateThatCannotBeWrittenPublishesNothing(pattern: String, operation: String) throws {
        let (site, before) = try Self.editedSample()
        let output = site.appendingPathComponent("output")
        let environment = try FaultShim.environment(failing: ["\(output.path)/\(pattern)"], operations: [operation], errno: EIO)
            .merging(CronTests.after) { $1 }
        let failed = try TestSupport.run(["build"], in: site, environment: environment)
        #expect(failed.status == 74, "\(failed.stderr)")
        #expect(failed.stderr.hasPrefix("orderpress: snapshot: cannot write \(output.path)/state/state.sqlite"), "\(failed.stderr)")
        let after = try Self.lasting(output)
        #expect(Set(after.keys) == Set(before.keys), "files appeared or vanished: \(Set(after.keys).symmetricDifference(before.keys).sorted())")
        for (path, data) in before {
            #expect(after[path] == data, "\(path) changed although the run failed")
        }
        try Self.expectRepaired(site)
    }

    /// Issue 36, item 14: the renames that put the old files back fail too, twice, on a disk failing now and
    /// then: they are tried again, and the site is exactly as it was.
    @Test func aRollbackThatFailsOnceIsTriedAgain() throws {
        let (site, before) = try Self.editedSample()
        let output = site.appendingPathComponent("output")
        // The fourth rename in the site fails the publish; the next two, putting the first three back, fail too.
        let environment = try FaultShim.environment(failing: ["\(output.path)/site/"], operations: ["rename"], errno: EIO, after: 3, count: 3)
            .merging(CronTests.after) { $1 }
        let failed = try TestSupport.run(["build"], in: site, environment: environment)
        #expect(failed.status == 74, "\(failed.stderr)")
        #expect(!failed.stderr.contains("could not all be put back"), "\(failed.stderr)")
        let after = try Self.lasting(output)
        #expect(Set(after.keys) == Set(before.keys), "files appeared or vanished: \(Set(after.keys).symmetricDifference(before.keys).sorted())")
        for (path, data) in before {
            #expect(after[path] == data, "\(path) changed although the run failed")
        }
        try Self.expectRepaired(site)
    }

    /// A rollback that cannot be done however often it is tried: the run says the site may be mixed, exits
    /// 74, and the next run repairs it fully.
    @Test func aRollbackThatKeepsFailingIsSaidAndRepairedNextRun() throws {
        let (site, _) = try Self.editedSample()
        let output = site.appendingPathComponent("output")
        let environment = try FaultShim.environment(failing: ["\(output.path)/site/"], operations: ["rename"], errno: EIO, after: 3)
            .merging(CronTests.after) { $1 }
        let failed = try TestSupport.run(["build"], in: site, environment: environment)
        #expect(failed.status == 74, "\(failed.stderr)")
        #expect(failed.stderr.hasPrefix("orderpress: publish: cannot write \(output.path)/site/"), "\(failed.stderr)")
        #expect(failed.stderr.contains("could not all be put back, so the site may mix old and new pages until the next run repairs it"), "\(failed.stderr)")
        #expect(failed.stderr.split(separator: "\n").count == 1, "\(failed.stderr)")
        try Self.expectRepaired(site)
    }

    /// Issue 36, item 14: a run that left the site mixed says so in `status.json` too (`failing`, one redacted
    /// line: no path), and the next run, which repairs the site, says `ok` again. The renames of the HTML pages
    /// fail from the fourth on, so the rollback fails whatever it tries while `status.json` can still be written.
    @Test func aRollbackThatKeepsFailingIsToldByStatusJSON() throws {
        let (site, _) = try Self.editedSample()
        let output = site.appendingPathComponent("output")
        let status = output.appendingPathComponent("site/status.json")
        #expect(try String(contentsOf: status, encoding: .utf8) == "{\n  \"state\" : \"ok\"\n}\n")
        let environment = try FaultShim.environment(failing: [".html"], operations: ["rename"], errno: EIO, after: 3)
            .merging(CronTests.after) { $1 }
        let failed = try TestSupport.run(["build"], in: site, environment: environment)
        #expect(failed.status == 74, "\(failed.stderr)")
        #expect(failed.stderr.contains("could not all be put back"), "\(failed.stderr)")
        let said = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: status))
        #expect(said["state"] == "failing", "\(said)")
        let reason = try #require(said["reason"])
        #expect(reason.contains("the site may mix old and new pages until the next run repairs it"), "\(reason)")
        #expect(reason.contains("Input/output error") && !reason.contains("\n"), "\(reason)")
        #expect(!reason.contains(output.path) && !reason.contains("site/") && !reason.contains(".html"), "a path in status.json: \(reason)")
        #expect(said["since"] != nil)
        try Self.expectRepaired(site)
        #expect(try String(contentsOf: status, encoding: .utf8) == "{\n  \"state\" : \"ok\"\n}\n")
    }
}
