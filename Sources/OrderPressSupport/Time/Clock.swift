import Foundation

/// The moment a run takes as "now": the wall clock, unless `SOURCE_DATE_EPOCH` fixes it.
public struct Clock: Sendable {
    public var now: Date

    public init(now: Date) { self.now = now }

    /// Reads `SOURCE_DATE_EPOCH` (seconds since 1970) from `environment`, falling back to the wall clock.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Clock {
        if let text = environment["SOURCE_DATE_EPOCH"], let seconds = Int64(text) {
            return Clock(now: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
        return Clock(now: Date())
    }
}
