import Foundation
import GRDB
import Testing

@testable import OrderPressConfig
@testable import OrderPressDiff
import OrderPressTestSupport

/// The state folder as other programs and accidents leave it: emptied, locked, replaced by a pipe or a
/// link, made by another build at the same instant. Run through the built binary, on real files.
@Suite struct StateEdgeTests {
    static let clock = TestSupport.fixedClock
    static let later = ["SOURCE_DATE_EPOCH": "1795258800"]
    static let startAfresh = "move it away to start afresh (the next build is then a first run)"

    /// Runs the binary like `TestSupport.run`, but kills it after `seconds`: nil then (it hung).
    static func run(_ arguments: [String], in folder: URL, within seconds: Double = 30) throws -> (status: Int32, stdout: String, stderr: String)? {
        let process = Process()
        process.executableURL = TestSupport.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(Self.later) { $1 }
        let (out, err) = (Pipe(), Pipe())
        (process.standardOutput, process.standardError, process.standardInput) = (out, err, FileHandle.nullDevice)
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return (
            process.terminationStatus, String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        )
    }

    /// Item 4 of issue 22: a state database cut to 0 or 1 byte read as a first run published an emptied
    /// sheet past the mass-deletion guard and replaced the history.
    @Test(arguments: [0, 1, 50])
    func anEmptiedStateDatabaseBesideAPublishedSiteIsDamage(size: Int) throws {
        let (site, output) = try OutsideFoldersTests.builtSample()
        let state = output.appendingPathComponent("state")
        let database = state.appendingPathComponent("state.sqlite")
        try Data(repeating: 0x41, count: size).write(to: database)
        // The sheet emptied: without a snapshot to compare with, nothing would guard against it.
        try Data("[]".utf8).write(to: site.appendingPathComponent("data/orders.json"))
        let before = try TestSupport.contents(of: output)
        let reason = "it is \(size) bytes long, too short to be a database, yet published.json lists a published build"
        for command in [["build"], ["build", "--accept-deletions"], ["diff"], ["build", "--dry-run"]] {
            let result = try #require(try Self.run(command, in: site))
            #expect(result.status == 65, "\(command)")
            #expect(result.stdout == "")
            #expect(result.stderr == "orderpress: diff: \(database.path) cannot be read (\(reason)); \(Self.startAfresh)\n", "\(command)")
        }
        #expect(try TestSupport.contents(of: output) == before)
        // Moved away as the message says, the next build is a first run.
        try FileManager.default.removeItem(at: database)
        let fresh = try #require(try Self.run(["build"], in: site))
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout.contains("first run: nothing to compare"))
    }

    /// A first build killed after SQLite made the file but before its first commit leaves 0 bytes and
    /// has published nothing: the next build is a first run, as it would have been.
    @Test func anEmptyStateDatabaseWithNothingPublishedIsAFirstRun() throws {
        let site = try TestSupport.sampleSite()
        let state = site.appendingPathComponent("output/state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data().write(to: state.appendingPathComponent("state.sqlite"))
        let result = try #require(try Self.run(["build"], in: site))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("first run: nothing to compare"))
    }

    /// Item 5: another program holding the database is a transient condition: exit 75, "try again",
    /// within a few seconds (SQLite's busy wait), and the state and site as they were.
    @Test func aStateDatabaseLockedByAnotherProgramIsWorthTryingAgain() throws {
        let (site, output) = try OutsideFoldersTests.builtSample()
        let database = output.appendingPathComponent("state/state.sqlite")
        try ChangesTests.editOrders(in: site)
        let before = try TestSupport.contents(of: output)
        // As `sqlite3 state.sqlite` with `BEGIN EXCLUSIVE;` typed, left open.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: database.path, configuration: configuration)
        try holder.inDatabase { try $0.execute(sql: "BEGIN EXCLUSIVE") }
        let message = "\(database.path) is locked by another program (an `orderpress diff`, or sqlite3 with a transaction open); try again when it has finished"
        for command in [["build"], ["diff"]] {
            let result = try #require(try Self.run(command, in: site))
            #expect(result.status == 75, "\(command)")
            #expect(result.stderr == "orderpress: diff: \(message)\n", "\(command)")
        }
        #expect(try TestSupport.contents(of: output) == before)
        try holder.inDatabase { try $0.execute(sql: "ROLLBACK") }
        try holder.close()
        let after = try #require(try Self.run(["build"], in: site))
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.contains("3 deleted, 2 added, 1 changed"))
    }

    /// Item 6: `diff` and a dry run, which take no lock, waited forever on a pipe and read a link to
    /// /dev/zero as an empty database ("first run"). Now refused as the build refuses them (73).
    @Test(arguments: ["state.sqlite", "snapshot.json", "state.sqlite-journal"])
    func aPipeOrALinkAmongTheStateFilesIsRefusedByEveryReader(name: String) throws {
        let (site, output) = try OutsideFoldersTests.builtSample()
        let path = output.appendingPathComponent("state/\(name)")
        try? FileManager.default.removeItem(at: path)
        try #require(mkfifo(path.path, 0o644) == 0)
        for command in [["diff"], ["build", "--dry-run"], ["build"]] {
            let result = try #require(try Self.run(command, in: site), "\(command) hung on a pipe")
            #expect(result.status == 73, "\(command)")
            let expected = command == ["build"]
                ? "orderpress: lock: cannot write \(path.path) (not a regular file); move it away\n"
                : "orderpress: diff: \(path.path) is not a regular file; move it away\n"
            #expect(result.stderr == expected, "\(command)")
        }
        try FileManager.default.removeItem(at: path)
        try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: "/dev/zero")
        for command in [["diff"], ["build", "--dry-run"]] {
            let result = try #require(try Self.run(command, in: site))
            #expect(result.status == 73, "\(command)")
            #expect(
                result.stderr
                    == "orderpress: diff: \(path.path) is a symbolic link; OrderPress never reads or writes its state through a link: replace it with a real file\n",
                "\(command)")
            #expect(!result.stdout.contains("first run"))
        }
    }

    /// Item 8: eight builds started at once on a fresh site: one builds, the others exit 75 — never 73
    /// because another made the state folder first. Ten rounds, each on a fresh copy of the sample.
    @Test func simultaneousFirstBuildsNeverFailOnAFolderAnotherMade() throws {
        for _ in 0..<10 {
            let site = try TestSupport.sampleSite()
            let processes = (0..<8).map { _ in
                let process = Process()
                process.executableURL = TestSupport.binary
                process.arguments = ["build", "--quiet"]
                process.currentDirectoryURL = site
                process.environment = ProcessInfo.processInfo.environment.merging(Self.clock) { $1 }
                process.standardOutput = Pipe()
                process.standardError = Pipe()
                return process
            }
            for process in processes { try process.run() }
            var outcomes: [(status: Int32, stderr: String)] = []
            for process in processes {
                let errors = (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                outcomes.append((process.terminationStatus, String(decoding: errors, as: UTF8.self)))
            }
            // One first build; a build that started only after it ended finds nothing to do (and says nothing).
            #expect(outcomes.filter { $0.status == 0 }.count >= 1)
            for outcome in outcomes {
                #expect([0, 75].contains(outcome.status), "\(outcome.stderr)")
                if outcome.status == 75 {
                    #expect(outcome.stderr.hasPrefix("orderpress: lock: another build (process "), "\(outcome.stderr)")
                }
            }
            let history = try StateStore(folder: site.appendingPathComponent("output/state")).loadHistory()
            #expect(history.count == 1)
        }
    }

    /// Issue 36 item 13 through the binary: a build over a v2 state (the release before slots) that cannot be
    /// read exits 65 saying so, and leaves the database byte for byte as it was (not migrated to v3 first).
    @Test func aCorruptV2StateIsLeftAsItWas() throws {
        let (site, output) = try OutsideFoldersTests.builtSample()
        let database = output.appendingPathComponent("state/state.sqlite")
        let (folder, queue, _, _) = try StateFixtures.v2State()
        try queue.write { try $0.execute(sql: "UPDATE history SET changes = '{not a change set'") }
        try queue.close()
        try FileManager.default.removeItem(at: database)
        try FileManager.default.copyItem(at: folder.appendingPathComponent(StateDatabase.fileName), to: database)
        let before = try Data(contentsOf: database)
        let result = try #require(try Self.run(["build"], in: site))
        #expect(result.status == 65)
        #expect(
            result.stderr == "orderpress: diff: \(database.path) cannot be read (it is not a history this version understands); \(Self.startAfresh)\n")
        #expect(try Data(contentsOf: database) == before)
        let reopened = try DatabaseQueue(path: database.path)
        #expect(try StateFixtures.migrations(reopened) == ["v1", "v2"])
        try reopened.close()
    }

    /// Publishing throws its own failure (`PublishFailure`) and the pipeline names the step: an unreadable
    /// list of published files still fails the build as the publish step's, with the data error's status.
    @Test func anUnreadableListOfPublishedFilesIsThePublishStepsFailure() throws {
        let (site, output) = try OutsideFoldersTests.builtSample()
        let manifest = output.appendingPathComponent("state/published.json")
        try Data("{\"markdown\": [".utf8).write(to: manifest)
        let before = try TestSupport.contents(of: output)
        for command in [["build"], ["build", "--dry-run"]] {
            let result = try #require(try Self.run(command, in: site))
            #expect(result.status == 65, "\(command)")
            #expect(
                result.stderr.hasPrefix("orderpress: publish: ") && result.stderr.contains("published.json cannot be read (it is not a list"),
                "\(command): \(result.stderr)")
        }
        #expect(try TestSupport.contents(of: output) == before)
    }
}
