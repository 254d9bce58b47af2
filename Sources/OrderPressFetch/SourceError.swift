import OrderPressSupport

/// A source that could not be read or understood; exits 69 and leaves every output as it was.
public struct SourceError: OrderPressFailure, Equatable {
    /// The configuration table of the source: "orders", "groups", "rates".
    public var source: String
    public var message: String

    public var exitStatus: ExitStatus { .unavailable }
    public var description: String { "\(source): \(message)" }

    public init(source: String, message: String) {
        self.source = source
        self.message = message
    }
}
