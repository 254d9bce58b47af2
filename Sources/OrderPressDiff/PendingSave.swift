import Foundation
import OrderPressSupport

/// A save of the state begun before the site is fully published (`StateStore.beginSave`): its
/// transaction — a full build's hundred thousand records copied from the staged snapshot — is written
/// on a thread of its own while publishing ends on the other core, then waits at a gate. Only
/// `commit()`, called once the site is published, lets it commit; `abandon()` rolls it back. Until the
/// commit the state is as it was, as when the whole save ran after publishing: a build that fails or is
/// killed meanwhile leaves the next run comparing against the same snapshot (SQLite's rollback journal
/// undoes whatever the open transaction wrote).
package final class PendingSave: Sendable {
    /// What the saving thread waits for before it writes anything it cannot roll back.
    package final class Gate: @unchecked Sendable {
        private let condition = NSCondition()
        // Guarded by `condition`: nil until the caller decides.
        private var decision: Bool?
        /// Whether the save has reached the gate (all it can write before the commit is written), or ended.
        private var arrived = false
        /// Whether it arrived at the gate itself, rather than ending.
        private var waiting = false

        /// Returns when the caller commits; throws when it abandons the save.
        func waitForCommit() throws(OutputError) {
            let commit = condition.withLock {
                (arrived, waiting) = (true, true)
                condition.broadcast()
                while decision == nil { condition.wait() }
                return decision!
            }
            guard commit else { throw Self.abandoned }
        }

        fileprivate func open(commit: Bool) {
            condition.withLock {
                if decision == nil { decision = commit }
                condition.broadcast()
            }
        }

        /// The save ended without reaching the gate (it failed, or had nothing to wait for).
        fileprivate func ended() {
            condition.withLock {
                arrived = true
                condition.broadcast()
            }
        }

        /// Waits until the save is at the gate or has ended; true when at the gate.
        fileprivate func waitForArrival() -> Bool {
            condition.withLock {
                while !arrived { condition.wait() }
                return waiting
            }
        }

        private static let abandoned = OutputError(path: "", reason: "the save was abandoned", cannotCreate: false)
    }

    private let gate = Gate()
    private let work: Background<Result<Void, OutputError>>

    /// Starts `save` at once; it must wait at the gate it is given before it writes anything lasting.
    package init(_ save: @escaping @Sendable (Gate) throws(OutputError) -> Void) {
        let gate = gate
        work = Background {
            defer { gate.ended() }
            return Result { () throws(OutputError) in try save(gate) }
        }
    }

    /// Returns once the save has written all it writes before its commit, so that a state that cannot be
    /// written (a read-only database, a full disk) fails before the site changes; throws why it failed.
    package func ready() throws(OutputError) {
        if !gate.waitForArrival() { try work.value.get() }
    }

    /// Lets the save commit, and returns once it has, or throws why it failed.
    package func commit() throws(OutputError) {
        gate.open(commit: true)
        try work.value.get()
    }

    /// Rolls the save back (unless it was committed already), and returns once it has ended.
    package func abandon() {
        gate.open(commit: false)
        _ = work.value
    }
}
