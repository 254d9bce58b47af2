/// Data that was read but must not be published as it is; exits 65 unless `status` says otherwise
/// (75 for a state database another program holds: trying again will do).
public struct DataError: OrderPressFailure, Equatable {
    public var message: String
    public var status: ExitStatus = .dataError
    /// Set when the mass-deletion guard refused the build: how many orders it lost, of how many.
    public var refusal: Refusal?

    public struct Refusal: Sendable, Equatable {
        public var lost: Int
        public var previous: Int
        package init(lost: Int, previous: Int) {
            self.lost = lost
            self.previous = previous
        }
    }

    public var exitStatus: ExitStatus { status }
    public var description: String { message }
    package init(message: String, status: ExitStatus = .dataError, refusal: Refusal? = nil) {
        self.message = message
        self.status = status
        self.refusal = refusal
    }
}
