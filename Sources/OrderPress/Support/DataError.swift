/// Data that was read but must not be published as it is; exits 65.
public struct DataError: OrderPressFailure, Equatable {
    public var message: String

    public var exitStatus: ExitStatus { .dataError }
    public var description: String { message }
}
