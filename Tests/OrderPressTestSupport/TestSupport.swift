import Foundation
import Testing

@testable import OrderPressConfig
@testable import OrderPressFetch

/// Paths and small fixtures shared by the tests.
package enum TestSupport {
    /// The repository's root folder.
    package static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The golden copy of the sample's site (`GoldenSiteTests`; `make golden` rewrites it).
    package static let golden = repository.appendingPathComponent("Tests/OrderPressTestSupport/Fixtures/golden")

    package static let sampleConfig = repository.appendingPathComponent("examples/sample/orderpress.toml")

    /// How long a test's loopback server may take to start listening. A ceiling, not a timing: it
    /// returns as soon as the server listens, but with every suite running at once on two cores a
    /// server's task can wait several seconds for a thread (CI once failed four tests at FlyingFox's
    /// default of 5 s).
    package static let listeningCeiling: TimeInterval = 120

    /// The built `orderpress` executable, beside the test bundle.
    package static var binary: URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("orderpress").path),
            folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("orderpress")
    }

    /// The test-only `orderpress-crashtest` executable beside `orderpress`: `build` with pause points.
    package static var crashTestBinary: URL { binary.deletingLastPathComponent().appendingPathComponent("orderpress-crashtest") }

    /// A new empty folder under the system temporary folder.
    package static func temporaryFolder() -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("orderpress-tests-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `files` (relative path → text) under `folder`.
    package static func write(_ files: [String: String], in folder: URL) {
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try! FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try! Data(text.utf8).write(to: url)
        }
    }

    /// A configuration parsed from TOML text, as if the file lived in `folder`.
    package static func configuration(_ toml: String, in folder: URL = URL(fileURLWithPath: "/tmp/site")) throws(ConfigurationError) -> Configuration {
        try ConfigurationLoader.parse(toml, file: folder.appendingPathComponent("orderpress.toml"))
    }

    /// The smallest configuration: orders from a file, nothing else.
    package static let minimalTOML = """
        base_currency = "TWD"
        [orders]
        path = "orders.json"
        """

    /// A table as the sheet parser would give it.
    package static func table(_ headers: [String], _ rows: [[String]], name: String = "orders") -> SourceTable {
        SourceTable(
            name: name, headers: headers,
            rows: rows.enumerated().map { SourceTable.Row(number: $0.offset + 2, cells: $0.element) })
    }

    /// How many files a build of the sample publishes (Markdown and site folders together), counted from
    /// its golden copy, which `GoldenSiteTests` holds byte for byte to what the renderer makes.
    package static var sampleFileCount: Int { files(in: golden).count }

    /// Every regular file below `folder`, as sorted relative paths.
    package static func files(in folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var paths: [String] = []
        for case let url as URL in enumerator {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                paths.append(String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1)))
            }
        }
        return paths.sorted()
    }

    /// `run` on a thread of its own, so that a server in this process (a `LocalServer`) keeps the
    /// concurrency pool's threads while the binary talks to it.
    package static func runDetached(
        _ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:]
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try run(arguments, in: folder, environment: environment) })
            }
        }
    }

    /// Every regular file below `folder` with its bytes, by relative path.
    package static func contents(of folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in files(in: folder) { result[path] = try Data(contentsOf: folder.appendingPathComponent(path)) }
        return result
    }

    /// `contents` without what a refused or failing run says about itself: `status.json` in the site
    /// (`blocked`, `failing`) and the record of it in the state (`failing.json`).
    package static func besidesHealth(_ contents: [String: Data]) -> [String: Data] {
        contents.filter { !["site/status.json", "state/failing.json"].contains($0.key) }
    }

    /// Runs the built binary (or `executable`); returns its exit status, standard output and standard error.
    @discardableResult
    package static func run(
        _ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:], input: Data? = nil,
        executable: URL = binary
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputPipe = Pipe()
        process.standardInput = inputPipe
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(input) }
        try inputPipe.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    /// A copy of the sample's configuration and data in a temporary folder; its outputs stay inside
    /// that folder, as they do in any copy of the sample.
    package static func sampleSite() throws -> URL {
        let folder = TestSupport.temporaryFolder()
        let sample = TestSupport.sampleConfig.deletingLastPathComponent()
        try FileManager.default.copyItem(at: sample.appendingPathComponent("data"), to: folder.appendingPathComponent("data"))
        try FileManager.default.copyItem(at: TestSupport.sampleConfig, to: folder.appendingPathComponent("orderpress.toml"))
        return folder
    }

    package static let fixedClock = ["SOURCE_DATE_EPOCH": "1795255200"]

    package static func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// Makes `url` a sparse file of `size` bytes, starting with `head`.
    package static func sparse(_ url: URL, size: Int64, head: String = "") throws {
        try Data(head.utf8).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try #require(ftruncate(handle.fileDescriptor, off_t(size)) == 0)
    }
}
