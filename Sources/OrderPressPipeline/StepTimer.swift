import OrderPressSupport

/// Times a build's steps and tells the progress display as each one starts. A step runs from its
/// `begin` to the next step's `begin` (or `finish`), so that `Pipeline.build` is a plain list of its
/// steps, one `begin` before each.
struct StepTimer {
    private let progress: (@Sendable (Step) -> Void)?
    private var timings: [(step: Step, seconds: Double)] = []
    private var running: (step: Step, start: ContinuousClock.Instant)?

    init(progress: (@Sendable (Step) -> Void)?) {
        self.progress = progress
    }

    mutating func begin(_ step: Step) {
        stop()
        MemoryTrace.mark("\(step) begins")
        progress?(step)
        running = (step, ContinuousClock.now)
    }

    /// Seconds spent in each step that began, in the order they ran.
    mutating func finish() -> [(step: Step, seconds: Double)] {
        stop()
        MemoryTrace.mark("the steps end")
        return timings
    }

    private mutating func stop() {
        guard let running else { return }
        let elapsed = ContinuousClock.now - running.start
        timings.append((running.step, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
        self.running = nil
    }
}
