/// An output file or folder that could not be written; exits 73 (cannot create) or 74 (I/O error).
public struct OutputError: OrderPressFailure, Equatable {
    public var path: String
    public var reason: String
    public var cannotCreate: Bool
    /// What to do about it.
    public var advice = "check that the folder exists and is writable"

    public var exitStatus: ExitStatus { cannotCreate ? .cannotCreate : .ioError }
    public var description: String { "cannot write \(path) (\(reason)); \(advice)" }
    package init(path: String, reason: String, cannotCreate: Bool, advice: String = "check that the folder exists and is writable") {
        self.path = path
        self.reason = reason
        self.cannotCreate = cannotCreate
        self.advice = advice
    }
}
