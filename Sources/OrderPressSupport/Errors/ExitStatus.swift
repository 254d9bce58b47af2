/// Process exit statuses, following BSD sysexits.
public enum ExitStatus: Int32, Sendable {
    case success = 0
    /// Usage or configuration error.
    case usage = 64
    /// The data was read but is not acceptable (rejected rows under `--strict`, the deletion guard).
    case dataError = 65
    /// A source could not be fetched or parsed.
    case unavailable = 69
    /// An output file could not be created.
    case cannotCreate = 73
    /// An output file could not be written.
    case ioError = 74
    /// Another build holds the lock.
    case tempFail = 75
}

/// An error that knows which exit status it stands for and says, in one sentence, what to do.
public protocol OrderPressFailure: Error, CustomStringConvertible, Sendable {
    var exitStatus: ExitStatus { get }
}
