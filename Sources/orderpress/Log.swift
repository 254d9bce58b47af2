import Logging

/// swift-log to stderr: errors only with --quiet, debug with --verbose.
enum Log {
    static func bootstrap(quiet: Bool, verbose: Bool) -> Logger {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "orderpress")
        logger.logLevel = quiet ? .error : verbose ? .debug : .notice
        return logger
    }
}
