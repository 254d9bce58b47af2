import Foundation

/// A value made on a thread of its own, not a dispatch worker (the parallel steps keep every worker
/// busy), and waited for where it is needed.
final class Background<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var made: Value?

    /// Starts making the value at once. The stack is larger than a thread's default, as the main
    /// thread's is: the whole-site files encode nested JSON.
    init(_ make: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let value = make()
            condition.withLock {
                made = value
                condition.broadcast()
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The value, once made: waits until then.
    var value: Value {
        condition.withLock {
            while made == nil { condition.wait() }
            return made!
        }
    }
}
