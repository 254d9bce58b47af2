import Foundation

/// A value made on a thread of its own, not a dispatch worker (the parallel steps keep every worker
/// busy), and waited for where it is needed.
package final class Background<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var made: Value?
    private var done = false

    /// Starts making the value at once. The stack is larger than a thread's default, as the main
    /// thread's is: the whole-site files encode nested JSON.
    package init(_ make: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let value = make()
            condition.withLock {
                (made, done) = (value, true)
                condition.broadcast()
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The value, once made: waits until then.
    package var value: Value {
        condition.withLock {
            while !done { condition.wait() }
            return made!
        }
    }

    /// The value, once made, no longer held here: for a large value its taker frees when it likes.
    package func take() -> Value {
        condition.withLock {
            while !done { condition.wait() }
            defer { made = nil }
            return made!
        }
    }
}
