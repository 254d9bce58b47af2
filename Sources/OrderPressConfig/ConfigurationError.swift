import OrderPressSupport

/// A problem with `orderpress.toml`; every case exits 64.
public struct ConfigurationError: OrderPressFailure, Equatable {
    public var file: String
    public var message: String

    public var exitStatus: ExitStatus { .usage }
    public var description: String { "\(file): \(message)" }

    static func unknownKey(_ key: String, in file: String) -> Self {
        Self(file: file, message: "unknown key '\(key)'; remove it or check its spelling")
    }

    static func wrongType(_ key: String, expected: String, in file: String) -> Self {
        Self(file: file, message: "'\(key)' must be \(expected)")
    }

    static func missing(_ key: String, in file: String) -> Self {
        Self(file: file, message: "'\(key)' is required")
    }

    package static func invalid(_ key: String, _ problem: String, in file: String) -> Self {
        Self(file: file, message: "'\(key)' \(problem)")
    }
    package init(file: String, message: String) {
        self.file = file
        self.message = message
    }
}
