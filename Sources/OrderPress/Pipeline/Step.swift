/// The named steps of a build, in order.
public enum Step: String, Sendable, CaseIterable {
    case lock, configure, fetch, validate, aggregate, diff, render, publish, snapshot
}

/// A failure tagged with the step that failed; keeps the underlying exit status.
public struct StepFailure: OrderPressFailure {
    public var step: Step
    public var underlying: any OrderPressFailure

    public var exitStatus: ExitStatus { underlying.exitStatus }
    public var description: String { "\(step.rawValue): \(underlying.description)" }
}

/// Data that was read but must not be published as it is; exits 65.
public struct DataError: OrderPressFailure, Equatable {
    public var message: String

    public var exitStatus: ExitStatus { .dataError }
    public var description: String { message }
}
