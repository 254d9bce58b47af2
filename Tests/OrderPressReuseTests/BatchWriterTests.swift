import Foundation
import Testing

@testable import OrderPressOutput
@testable import OrderPressReuse
import OrderPressSupport
import OrderPressTestSupport

/// The batch writer writes the two trees at once, each tree's batches in the order they came, and
/// fails as one queue would: with the error of the earliest batch that failed, whatever the timing.
@Suite struct BatchWriterTests {
    /// A sink that records what each tree received, fails the paths in `failing`, and holds each
    /// Markdown batch until a site batch has started or `patience` has passed.
    final class Sink: PageSink, @unchecked Sendable {
        private let lock = NSLock()
        private var received: [OutputTree: [String]] = [:]
        private let siteStarted = DispatchSemaphore(value: 0)
        private let failing: Set<String>
        private let patience: DispatchTimeInterval
        private(set) var markdownWaitedInVain = false

        init(failing: Set<String> = [], patience: DispatchTimeInterval = .seconds(5)) {
            self.failing = failing
            self.patience = patience
        }

        func publish(_ files: [OutputFile], in tree: OutputTree) throws(OutputError) {
            if tree == .site {
                siteStarted.signal()
            } else if siteStarted.wait(timeout: .now() + patience) == .timedOut {
                lock.withLock { markdownWaitedInVain = true }
            }
            for file in files {
                if failing.contains(file.path) { throw OutputError(path: file.path, reason: "refused", cannotCreate: false) }
                lock.withLock { received[tree, default: []].append(file.path) }
            }
        }

        func keep(_ kept: [KeptFile], in tree: OutputTree) {}

        func paths(in tree: OutputTree) -> [String] { lock.withLock { received[tree] ?? [] } }
        var waitedInVain: Bool { lock.withLock { markdownWaitedInVain } }
    }

    static func batch(_ number: Int, _ tree: OutputTree) -> [OutputFile] {
        (0..<3).map { OutputFile(path: "\(tree.rawValue)-\(number)-\($0)", contents: Data()) }
    }

    @Test func aMarkdownBatchIsWrittenWhileTheSiteBatchIs() throws {
        let sink = Sink()
        let writer = BatchWriter(sink)
        for number in 0..<6 {
            writer.submit(Self.batch(number, .markdown), in: .markdown)
            writer.submit(Self.batch(number, .site), in: .site)
        }
        try writer.finish()
        // One queue for both trees would hold every Markdown batch until its patience ran out.
        #expect(!sink.waitedInVain)
        for tree in OutputTree.allCases {
            #expect(sink.paths(in: tree) == (0..<6).flatMap { Self.batch($0, tree).map(\.path) })
        }
    }

    @Test(arguments: [
        (["markdown-2-1", "site-4-0"], "markdown-2-1"),
        (["site-1-2", "markdown-3-0"], "site-1-2"),
        (["markdown-5-0", "site-0-1", "markdown-0-0"], "markdown-0-0"),
    ])
    func theEarliestBatchThatFailedIsTheErrorThrown(failing: [String], thrown: String) {
        for _ in 0..<20 {
            let sink = Sink(failing: Set(failing), patience: .milliseconds(Int.random(in: 0...2)))
            let writer = BatchWriter(sink)
            for number in 0..<6 {
                writer.submit(Self.batch(number, .markdown), in: .markdown)
                writer.submit(Self.batch(number, .site), in: .site)
            }
            #expect(throws: OutputError(path: thrown, reason: "refused", cannotCreate: false)) { try writer.finish() }
        }
    }
}
