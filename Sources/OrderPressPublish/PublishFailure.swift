import OrderPressSupport

/// Why publishing could not start: the last build's list of published files could not be read. The
/// pipeline reports it as the `publish` step's (`StepFailure`); publishing knows no step.
public struct PublishFailure: OrderPressFailure {
    public var underlying: any OrderPressFailure

    public var exitStatus: ExitStatus { underlying.exitStatus }
    public var description: String { underlying.description }
}
