import Foundation
import OrderPressOutput
import OrderPressSupport

/// Hands batches to a `PageSink` on a queue of their own, so that writing one batch overlaps with
/// rendering the next: the two cores render while the disk takes the last batch. At most `depth`
/// batches wait, which keeps memory flat; after the first error, later batches are dropped and
/// `finish` throws it.
final class BatchWriter<Sink: PageSink>: @unchecked Sendable {
    private let sink: Sink
    private let queue = DispatchQueue(label: "orderpress.batches")
    private let group = DispatchGroup()
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var failure: OutputError?

    init(_ sink: Sink, depth: Int = 2) {
        self.sink = sink
        slots = DispatchSemaphore(value: depth)
    }

    /// Queues the files, and the paths kept as published; waits while `depth` batches are queued.
    func submit(_ files: [OutputFile], in tree: OutputTree, keeping kept: [String] = []) {
        slots.wait()
        queue.async(group: group) { [self] in
            defer { slots.signal() }
            guard lock.withLock({ failure == nil }) else { return }
            do throws(OutputError) {
                try sink.publish(files, in: tree)
                for path in kept { sink.keep(path, in: tree) }
            } catch {
                lock.withLock { if failure == nil { failure = error } }
            }
        }
    }

    /// Waits for every queued batch; throws the first error.
    func finish() throws(OutputError) {
        group.wait()
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}
