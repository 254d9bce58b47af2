import Foundation
import OrderPressOutput
import OrderPressSupport

/// Hands batches to a `PageSink` on queues of their own, one per tree, so that writing one batch
/// overlaps with rendering the next, and the Markdown and the HTML of a batch are written at once, each
/// into its own folders (as the C floor writes both trees on every core): a single writer fell behind the
/// two cores rendering whenever the kernel was slow to take the bytes. At most `depth` batches wait
/// per tree, which keeps memory flat. After an error, batches submitted later are dropped and `finish`
/// throws the error of the earliest batch that failed, as one queue would, whatever the threads' timing.
/// The files of a tree reach the sink in the order they were submitted.
final class BatchWriter<Sink: PageSink>: @unchecked Sendable {
    private let sink: Sink
    private let lanes: [OutputTree: Lane]
    private let group = DispatchGroup()
    private let lock = NSLock()
    /// Guarded by `lock`: batches submitted so far, and the earliest that failed.
    private var submitted = 0
    private var failure: (batch: Int, error: OutputError)?

    /// One tree's queue and the batches it may hold.
    private struct Lane {
        let queue: DispatchQueue
        let slots: DispatchSemaphore
    }

    init(_ sink: Sink, depth: Int = 2) {
        self.sink = sink
        lanes = Dictionary(uniqueKeysWithValues: OutputTree.allCases.map { tree in
            (tree, Lane(queue: DispatchQueue(label: "orderpress.batches.\(tree.rawValue)"), slots: DispatchSemaphore(value: depth)))
        })
    }

    /// Queues the files, and the paths kept as published; waits while `depth` batches of the tree are queued.
    func submit(_ files: [OutputFile], in tree: OutputTree, keeping kept: [KeptFile] = []) {
        let lane = lanes[tree]!
        lane.slots.wait()
        let batch = lock.withLock {
            defer { submitted += 1 }
            return submitted
        }
        lane.queue.async(group: group) { [self] in
            defer { lane.slots.signal() }
            guard lock.withLock({ failure.map { $0.batch > batch } ?? true }) else { return }
            do throws(OutputError) {
                try sink.publish(files, in: tree)
                if !kept.isEmpty { sink.keep(kept, in: tree) }
            } catch {
                lock.withLock { if failure.map({ $0.batch > batch }) ?? true { failure = (batch, error) } }
            }
        }
    }

    /// Waits for every queued batch; throws the error of the earliest batch that failed.
    func finish() throws(OutputError) {
        group.wait()
        if let failure = lock.withLock({ failure }) { throw failure.error }
    }
}
