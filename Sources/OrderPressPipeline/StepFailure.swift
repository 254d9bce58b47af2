import OrderPressSupport

/// A failure tagged with the step that failed; keeps the underlying exit status.
public struct StepFailure: OrderPressFailure {
    public var step: Step
    public var underlying: any OrderPressFailure

    public var exitStatus: ExitStatus { underlying.exitStatus }
    public var description: String { "\(step.rawValue): \(underlying.description)" }
}
