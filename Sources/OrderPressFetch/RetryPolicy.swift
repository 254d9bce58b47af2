/// When to ask a source again after a transient failure: exponential backoff with jitter,
/// `Retry-After` honoured, and the whole exchange kept within a few times the request timeout.
package struct RetryPolicy: Sendable {
    /// Requests per URL, the first one included.
    package var maxAttempts = 4
    /// The wait before the first retry; it doubles for each further one.
    package var baseDelay: Duration = .seconds(1)
    package var maxDelay: Duration = .seconds(30)
    /// Time spent on one URL (requests and waits) stays within this many request timeouts.
    package var budgetInTimeouts = 3
    /// The whole fetch of one source, every page and retry, stays within this many request timeouts.
    var timeoutsPerSource = FetchDeadline.timeoutsPerSource
    /// A number in 0..<1; the wait is between half and all of the backoff.
    package var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
    /// Injected so that tests need not wait.
    package var sleep: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }

    /// The wait before attempt `attempt + 1`, or nil when it is time to give up: attempts used up,
    /// or the wait plus one more timeout would overrun the budget.
    func delay(afterAttempt attempt: Int, retryAfter: Duration?, spent: Duration, timeout: Duration) -> Duration? {
        guard attempt < maxAttempts else { return nil }
        let backoff = min(maxDelay, baseDelay * (1 << min(attempt - 1, 20)))
        let delay = retryAfter ?? backoff * (0.5 + 0.5 * random())
        guard spent + delay + timeout <= timeout * budgetInTimeouts else { return nil }
        return delay
    }
    package init(maxAttempts: Int = 4, baseDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(30), budgetInTimeouts: Int = 3, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.budgetInTimeouts = budgetInTimeouts
        self.random = random
        self.sleep = sleep
    }
}
