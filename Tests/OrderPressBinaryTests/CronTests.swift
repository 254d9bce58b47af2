import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressDiff
@testable import OrderPressPublish
import OrderPressTestSupport

/// What running unattended from cron needs: the lock, crash safety, reproducible output, git.
@Suite struct CronTests {
    static let before = ["SOURCE_DATE_EPOCH": "1795255200"]
    static let after = ["SOURCE_DATE_EPOCH": "1795258800"]

    /// Runs `build --quiet` of `executable` with the pause variables set, until it either exits or
    /// signals that it stopped at `pause`; returns the process and whether it stopped (then still running).
    static func runWithPause(
        _ executable: URL, in site: URL, pause: String, environment: [String: String]
    ) throws -> (process: Process, paused: Bool) {
        let signal = site.appendingPathComponent("paused-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["build", "--quiet"]
        process.currentDirectoryURL = site
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            .merging(["ORDERPRESS_TEST_PAUSE": pause, "ORDERPRESS_TEST_SIGNAL": signal.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        while !FileManager.default.fileExists(atPath: signal.path) {
            guard process.isRunning else { return (process, false) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        try FileManager.default.removeItem(at: signal)
        return (process, true)
    }

    /// Starts a build of the test-only `orderpress-crashtest` that stops at `pause` (see TestHook) and
    /// returns once it has stopped there.
    static func startPaused(in site: URL, pause: String, environment: [String: String]) throws -> Process {
        let (process, paused) = try runWithPause(TestSupport.crashTestBinary, in: site, pause: pause, environment: environment)
        guard paused else { throw PauseFailed(pause: pause) }
        return process
    }

    struct PauseFailed: Error {
        var pause: String
    }

    static func kill(_ process: Process) {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Every state folder has its own random salt and site id: compare snapshots and history without
    /// the salt and the secret hashes made with it, and feeds without the ids made from the site id.
    /// The state database is compared by what it holds, as the next build reads it (`journal`: the
    /// rollback journal a killed save left beside it); the list of published files without each file's
    /// modification time and the feed's hash.
    static func comparable(_ path: String, _ data: Data?, journal: Data? = nil) -> Data? {
        // Random per site, like the site's id: the secret hashes' key.
        if path == "state/site-id" || path == "state/\(SecretKey.fileName)" { return data.map { _ in Data() } }
        if path == "state/published.json", let data {
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
                // A page's key, and a file's piece keys, digest its inputs with the executable's stamp, and the
                // crash-test binary is another file.
                // So does the fingerprint of the inputs the files were built from.
                line.replacingOccurrences(of: #""modified": [0-9]+"#, with: #""modified": 0"#, options: .regularExpression)
                    .replacingOccurrences(of: #"^"inputs": "[0-9a-f]+",$"#, with: #""inputs": "","#, options: .regularExpression)
                    .replacingOccurrences(of: #""key": "(chart )?[0-9a-f]+""#, with: #""key": """#, options: .regularExpression)
                    .replacingOccurrences(of: #""pieces": "[A-Za-z0-9+/=]*""#, with: #""pieces": """#, options: .regularExpression)
                    .replacingOccurrences(
                        of: #"("path": "feed.xml",.*)"sha256": "[0-9a-f]+""#, with: #"$1"sha256": """#, options: .regularExpression)
                    // The files made in pieces are recorded by their pieces' keys (`FilePieces.contentDigest`).
                    .replacingOccurrences(
                        of: #"("path": "(summary\.json|orders\.csv)",.*)"sha256": "[0-9a-f]+""#, with: #"$1"sha256": """#,
                        options: .regularExpression)
            }
            return Data(lines.joined(separator: "\n").utf8)
        }
        if path == "state/state.sqlite", let data {
            let folder = TestSupport.temporaryFolder()
            TestSupport.write([:], in: folder)
            try? data.write(to: folder.appendingPathComponent("state.sqlite"))
            try? journal?.write(to: folder.appendingPathComponent("state.sqlite-journal"))
            let store = StateStore(folder: folder)
            guard let snapshot = try? store.loadSnapshot(), let history = try? store.loadHistory() else { return data }
            return comparable("state/snapshot.json", JSONOutput.encode(snapshot))
                .map { $0 + (comparable("state/history.json", JSONOutput.encode(history)) ?? Data()) }
        }
        if path.hasSuffix("feed.xml"), let data {
            let text = String(decoding: data, as: UTF8.self)
            return Data(text.replacingOccurrences(of: #"urn:uuid:[0-9a-f-]{36}"#, with: "urn:uuid:…", options: .regularExpression).utf8)
        }
        guard let data, path == "state/snapshot.json" || path == "state/history.json",
            let object = try? JSONSerialization.jsonObject(with: data)
        else { return data }
        func strip(_ value: Any) -> Any {
            if let dictionary = value as? [String: Any] {
                return dictionary.filter { $0.key != "salt" && $0.key != "secrets" }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        return try? JSONSerialization.data(withJSONObject: strip(object), options: [.sortedKeys])
    }

    @Test func aSecondBuildExits75NamingTheFirst() throws {
        let site = try TestSupport.sampleSite()
        let first = try Self.startPaused(in: site, pause: "after-write:1", environment: Self.before)
        defer { Self.kill(first) }
        let second = try TestSupport.run(["build"], in: site, environment: Self.before)
        #expect(second.status == 75)
        let lock = site.appendingPathComponent("output/state/lock").standardizedFileURL.path
        #expect(second.stderr.hasPrefix("orderpress: lock: another build (process \(first.processIdentifier), started 20"))
        #expect(second.stderr.hasSuffix(") holds \(lock); try again when it has finished\n"))
        Self.kill(first)
        let third = try TestSupport.run(["build"], in: site, environment: Self.before)
        #expect(third.status == 0, "a killed build must not block the next one: \(third.stderr)")
    }

    /// The reference: the sample built, its orders edited, built again, without interruption.
    static func reference() throws -> (site: URL, output: [String: Data], previous: [String: Data]) {
        let site = try TestSupport.sampleSite()
        try TestSupport.run(["build"], in: site, environment: Self.before)
        let previous = try TestSupport.contents(of: site.appendingPathComponent("output"))
        try ChangesTests.editOrders(in: site)
        try TestSupport.run(["build"], in: site, environment: Self.after)
        return (site, try TestSupport.contents(of: site.appendingPathComponent("output")), previous)
    }

    /// The edited build stages its snapshot's records and writes 33 pages (only those the edit touches) under
    /// temporary names; then renames 35 files: the marker of an unfinished run with the pages it is about to
    /// create, the 33 pages, then the list of published files; then it commits the state database.
    @Test(arguments: [
        "staged:1", "after-write:1", "after-write:12", "before-rename:1", "before-rename:2", "before-rename:20", "before-rename:34",
        "before-manifest:1", "before-rename:35", "before-commit:1",
    ])
    func aBuildKilledAnywhereIsRepairedByTheNextRun(pause: String) throws {
        let reference = try Self.reference()
        let site = try TestSupport.sampleSite()
        let output = site.appendingPathComponent("output")
        try TestSupport.run(["build"], in: site, environment: Self.before)
        try ChangesTests.editOrders(in: site)
        let build = try Self.startPaused(in: site, pause: pause, environment: Self.after)
        Self.kill(build)

        // Every visible file is whole: the old version or the new one, never a mix or a fragment.
        // The lock, the marker of a publish under way, the database's journal and the staged snapshot are
        // no part of the result.
        let transient = [
            "state/lock", "state/\(PublishSession.unfinishedMarker)", "state/state.sqlite-journal", "state/\(StagedSnapshot.fileName)",
        ]
        let killed = try TestSupport.contents(of: output)
        for (path, data) in killed where !path.contains(AtomicFile.temporaryMarker) && !transient.contains(path) {
            let mine = Self.comparable(path, data, journal: killed["state/state.sqlite-journal"])
            #expect(
                mine == Self.comparable(path, reference.previous[path]) || mine == Self.comparable(path, reference.output[path]),
                "\(path) is neither old nor new")
        }

        let repair = try TestSupport.run(["build"], in: site, environment: Self.after)
        #expect(repair.status == 0, "\(repair.stderr)")
        let repaired = try TestSupport.contents(of: output)
        #expect(!repaired.keys.contains { $0.contains(AtomicFile.temporaryMarker) })
        #expect(Set(repaired.keys) == Set(reference.output.keys))
        for (path, data) in reference.output where path != "state/lock" {
            #expect(Self.comparable(path, repaired[path]) == Self.comparable(path, data), "\(path) differs from a clean build")
        }
    }

    /// A first build fills each new folder (groups/, people/…) under a hidden name and renames it into place
    /// at the end. Killed while filling them (the sample has 12 files outside any folder, so at the 20th file at
    /// least one is in a hidden folder, whatever order the pages come in) or just before a rename, it leaves hidden folders and only whole
    /// files in sight; the next build removes those folders and builds what a clean first build builds.
    @Test(arguments: ["after-write:20", "after-write:30", "before-folder-rename:1", "before-folder-rename:3"])
    func aFirstBuildKilledAnywhereIsRepairedByTheNextRun(pause: String) throws {
        let reference = try TestSupport.sampleSite()
        try TestSupport.run(["build"], in: reference, environment: Self.before)
        let clean = try TestSupport.contents(of: reference.appendingPathComponent("output"))
        let site = try TestSupport.sampleSite()
        let output = site.appendingPathComponent("output")
        Self.kill(try Self.startPaused(in: site, pause: pause, environment: Self.before))

        let killed = try TestSupport.contents(of: output)
        // A hidden folder: a file in it has the marker in its folder's name, not in its own.
        #expect(killed.keys.contains { $0.contains(AtomicFile.temporaryMarker) && !$0.split(separator: "/").last!.contains(AtomicFile.temporaryMarker) })
        // The state is saved after publishing: only the published files are looked at.
        for (path, data) in killed where !path.contains(AtomicFile.temporaryMarker) && !path.hasPrefix("state/") {
            #expect(Self.comparable(path, data) == Self.comparable(path, clean[path]), "\(path) is not as a clean build makes it")
        }

        let repair = try TestSupport.run(["build"], in: site, environment: Self.before)
        #expect(repair.status == 0, "\(repair.stderr)")
        let repaired = try TestSupport.contents(of: output)
        #expect(!repaired.keys.contains { $0.contains(AtomicFile.temporaryMarker) })
        #expect(Set(repaired.keys) == Set(clean.keys))
        for (path, data) in clean where path != "state/lock" {
            #expect(Self.comparable(path, repaired[path]) == Self.comparable(path, data), "\(path) differs from a clean build")
        }
    }

    /// Turns a built site's state folder back into the files OrderPress wrote before the state database.
    static func makeLegacy(_ state: URL) throws {
        let store = StateStore(folder: state, writable: false)
        let snapshot = try #require(try store.loadSnapshot())
        let history = LegacyStateFiles.History(version: 1, entries: try store.loadHistory())
        TestSupport.write([
            "snapshot.json": String(decoding: JSONOutput.encode(snapshot), as: UTF8.self),
            "history.json": String(decoding: JSONOutput.encode(history), as: UTF8.self),
            "site-id": try store.siteID(create: false).uuidString.lowercased() + "\n",
        ], in: state)
        try FileManager.default.removeItem(at: state.appendingPathComponent("state.sqlite"))
    }

    /// A state folder written before the database: a dry run reads it and changes nothing; the next build
    /// moves it into the database, and one killed before its save commits leaves a state the next run uses.
    @Test(arguments: [nil, "before-commit:1"] as [String?])
    func aStateFolderFromBeforeTheDatabaseIsMigrated(pause: String?) throws {
        let reference = try Self.reference()
        let site = try TestSupport.sampleSite()
        let output = site.appendingPathComponent("output")
        let state = output.appendingPathComponent("state")
        try TestSupport.run(["build"], in: site, environment: Self.before)
        let siteID = try StateStore(folder: state, writable: false).siteID(create: false)
        try Self.makeLegacy(state)
        try ChangesTests.editOrders(in: site)
        let old = try TestSupport.contents(of: state)
        let dry = try TestSupport.run(["build", "--dry-run"], in: site, environment: Self.after)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try TestSupport.contents(of: state) == old)
        if let pause {
            Self.kill(try Self.startPaused(in: site, pause: pause, environment: Self.after))
            #expect(TestSupport.files(in: state).contains("state.sqlite") && TestSupport.files(in: state).contains("snapshot.json"))
        }

        let result = try TestSupport.run(["build"], in: site, environment: Self.after)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(" · 3 deleted, 2 added, 1 changed · "))
        #expect(!TestSupport.files(in: state).contains { ["snapshot.json", "history.json", "site-id", "state.sqlite-journal"].contains($0) })
        #expect(try StateStore(folder: state, writable: false).siteID(create: false) == siteID)
        let built = try TestSupport.contents(of: output)
        for (path, data) in reference.output where path != "state/lock" {
            #expect(Self.comparable(path, built[path]) == Self.comparable(path, data), "\(path) differs from a build without migration")
        }
    }

    /// Sets the price of the order with id 1 (35 in the sample).
    static func reprice(in site: URL, to price: String) throws {
        let url = site.appendingPathComponent("data/orders.json")
        var rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: String]])
        for index in rows.indices where rows[index]["id"] == "1" { rows[index]["price"] = price }
        try JSONSerialization.data(withJSONObject: rows).write(to: url)
    }

    /// A build killed with its snapshot staged (`StagedSnapshot`), whatever it published meanwhile, leaves
    /// the last snapshot in force: the state database holds what it held, `orderpress diff` still finds the
    /// edit, a dry run writes nothing. The staged file it left is no part of the next build, which stages
    /// afresh: its state is exactly that of a build that was never interrupted.
    @Test func aBuildKilledWithItsSnapshotStagedLeavesTheLastOneInForce() throws {
        let clean = try TestSupport.sampleSite()
        try TestSupport.run(["build"], in: clean, environment: Self.before)
        try Self.reprice(in: clean, to: "36")
        #expect(try TestSupport.run(["build"], in: clean, environment: Self.after).stdout.contains(" · 1 changed · "))
        let reference = try TestSupport.contents(of: clean.appendingPathComponent("output/state"))

        let site = try TestSupport.sampleSite()
        let state = site.appendingPathComponent("output/state")
        try TestSupport.run(["build"], in: site, environment: Self.before)
        let previous = try TestSupport.contents(of: state)
        try ChangesTests.editOrders(in: site)
        Self.kill(try Self.startPaused(in: site, pause: "staged:1", environment: Self.after))
        let killed = try TestSupport.contents(of: state)
        #expect(killed.keys.contains(StagedSnapshot.fileName))
        // Not a byte of the database written, and no journal to roll back.
        #expect(killed["state.sqlite"] == previous["state.sqlite"])
        #expect(!killed.keys.contains("state.sqlite-journal"))
        let diff = try TestSupport.run(["diff"], in: site, environment: Self.after)
        #expect(diff.stdout.hasSuffix("3 deleted, 2 added, 1 changed since the build of 2026-11-21 18:00 (Asia/Taipei)\n"), "\(diff.stdout)\(diff.stderr)")
        let dry = try TestSupport.run(["build", "--dry-run"], in: site, environment: Self.after)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try TestSupport.contents(of: state) == killed)

        // Back to the sample with one other edit: the records the killed build staged must not come back.
        try FileManager.default.removeItem(at: site.appendingPathComponent("data/orders.json"))
        try FileManager.default.copyItem(
            at: TestSupport.sampleConfig.deletingLastPathComponent().appendingPathComponent("data/orders.json"),
            to: site.appendingPathComponent("data/orders.json"))
        try Self.reprice(in: site, to: "36")
        let next = try TestSupport.run(["build"], in: site, environment: Self.after)
        #expect(next.stdout.contains(" · 1 changed · "), "\(next.stdout)\(next.stderr)")
        let saved = try TestSupport.contents(of: state)
        #expect(!saved.keys.contains(StagedSnapshot.fileName))
        #expect(Self.comparable("state/state.sqlite", saved["state.sqlite"]) == Self.comparable("state/state.sqlite", reference["state.sqlite"]))
    }

    /// The pause variables mean nothing to the real binary: no signal file, no stall.
    @Test(arguments: ["after-write:1", "before-rename:1"])
    func theReleaseBinaryIgnoresThePauseVariables(pause: String) throws {
        let site = try TestSupport.sampleSite()
        let (build, paused) = try Self.runWithPause(TestSupport.binary, in: site, pause: pause, environment: Self.before)
        if paused { Self.kill(build) }
        #expect(!paused, "orderpress stopped at \(pause) and created the signal file")
        build.waitUntilExit()
        #expect(build.terminationStatus == 0)
        let output = site.appendingPathComponent("output")
        // The published pages, and status.json beside them (`SourceHealth`, outside the manifest).
        #expect(TestSupport.files(in: output.appendingPathComponent("markdown")).count + TestSupport.files(in: output.appendingPathComponent("site")).count == TestSupport.sampleFileCount + 1)
        // The same variables do stop the test-only executable: the test above is not vacuous.
        let crashTest = try Self.startPaused(in: try TestSupport.sampleSite(), pause: pause, environment: Self.before)
        #expect(crashTest.isRunning)
        Self.kill(crashTest)
    }

    @Test func outputIsTheSameUnderAnyTimezoneAndLocale() throws {
        var trees: [[String: Data]] = []
        for environment in [
            ["TZ": "UTC", "LANG": "C", "LC_ALL": "C"],
            ["TZ": "America/New_York", "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"],
            ["TZ": "Asia/Kolkata", "LANG": "ar_EG.UTF-8", "LC_ALL": "tr_TR.UTF-8"],
        ] {
            let site = try TestSupport.sampleSite()
            let result = try TestSupport.run(["build"], in: site, environment: environment.merging(Self.before) { $1 })
            #expect(result.status == 0)
            let tree = try TestSupport.contents(of: site.appendingPathComponent("output/markdown")).merging(
                try TestSupport.contents(of: site.appendingPathComponent("output/site")).map { ("site/\($0.key)", $0.value) }) { $1 }
            trees.append(tree.mapValues { $0 }.reduce(into: [:]) { $0[$1.key] = Self.comparable($1.key, $1.value) })
        }
        #expect(trees[0].filter { $0.key != "site/status.json" }.count == TestSupport.sampleFileCount && trees[0]["site/status.json"] != nil)
        #expect(trees[1] == trees[0])
        #expect(trees[2] == trees[0])
    }

    @Test func aRerunWritesNoFileAtAllStateIncluded() throws {
        let site = try TestSupport.sampleSite()
        try TestSupport.run(["build"], in: site, environment: Self.before)
        let output = site.appendingPathComponent("output")
        func stamps() throws -> [String: Date] {
            var result: [String: Date] = [:]
            for path in TestSupport.files(in: output) {
                result[path] = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)[.modificationDate] as? Date
            }
            return result
        }
        let first = try stamps()
        #expect(first.keys.contains("state/state.sqlite"))
        Thread.sleep(forTimeInterval: 0.05)
        let rerun = try TestSupport.run(["build"], in: site, environment: ["SOURCE_DATE_EPOCH": "1795258800"])
        #expect(rerun.stdout.contains("· 0 files written, \(TestSupport.sampleFileCount) unchanged, 0 removed · no changes ·"))
        #expect(try stamps() == first)
    }

    @Test func verboseAddsStepTimingsAndProgressNeedsATerminal() throws {
        let site = try TestSupport.sampleSite()
        let verbose = try TestSupport.run(["build", "-v"], in: site, environment: Self.before)
        for step in ["fetch", "validate", "render", "publish", "snapshot"] {
            #expect(verbose.stderr.contains(" \(step): "), "no timing for \(step)")
        }
        #expect(!verbose.stderr.contains("\u{1B}"))
        let always = try TestSupport.run(["build", "--progress", "always"], in: site, environment: Self.before)
        #expect(always.stderr.contains("[3/9] fetch…"))
    }

    @Test func commitsTheMarkdownFolderWhenItChanged() throws {
        let site = try TestSupport.sampleSite()
        let config = site.appendingPathComponent("orderpress.toml")
        try (String(contentsOf: config, encoding: .utf8) + "\n[git]\ncommit = true\n").write(to: config, atomically: true, encoding: .utf8)
        let git = ["GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "t@example.com"]
        func runGit(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-C", site.path] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging(git) { $1 }
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return output
        }
        _ = try runGit(["init", "--quiet"])
        TestSupport.write(["notes.txt": "the organiser's own uncommitted file"], in: site)

        try TestSupport.run(["build"], in: site, environment: Self.before.merging(git) { $1 })
        try ChangesTests.editOrders(in: site)
        let second = try TestSupport.run(["build"], in: site, environment: Self.after.merging(git) { $1 })
        #expect(second.status == 0)
        try TestSupport.run(["build"], in: site, environment: Self.after.merging(git) { $1 })

        #expect(try runGit(["log", "--format=%s"]) == "Friday tea run: 3 deleted, 2 added, 1 changed\nFriday tea run: first run: nothing to compare\n")
        let committed = try runGit(["-c", "core.quotePath=false", "ls-files"]).split(separator: "\n")
        #expect(committed.count == TestSupport.files(in: site.appendingPathComponent("output/markdown")).count)
        #expect(committed.allSatisfy { $0.hasPrefix("output/markdown/") })
        #expect(try runGit(["status", "--porcelain", "--", "output/markdown"]) == "")
    }

    @Test func aCommitOutsideAGitTreeIsOnlyAWarning() throws {
        let site = try TestSupport.sampleSite()
        let config = site.appendingPathComponent("orderpress.toml")
        try (String(contentsOf: config, encoding: .utf8) + "\n[git]\ncommit = true\n").write(to: config, atomically: true, encoding: .utf8)
        let result = try TestSupport.run(["build"], in: site, environment: Self.before.merging(["GIT_CEILING_DIRECTORIES": site.deletingLastPathComponent().path]) { $1 })
        #expect(result.status == 0)
        #expect(result.stderr.contains("is not inside a git work tree; nothing was committed"))
    }
}
