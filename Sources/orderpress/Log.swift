import Logging
import OrderPressSupport

/// swift-log to stderr: errors only with --quiet, debug with --verbose.
enum Log {
    static func bootstrap(quiet: Bool, verbose: Bool) -> Logger {
        LoggingSystem.bootstrap { EscapingLogHandler(StreamLogHandler.standardError(label: $0)) }
        var logger = Logger(label: "orderpress")
        logger.logLevel = quiet ? .error : verbose ? .debug : .notice
        return logger
    }
}

/// `StreamLogHandler` prints messages and metadata as they are; log lines carry data (warnings
/// quote cells and headers), so this escapes them for the terminal first, as `Terminal` does.
struct EscapingLogHandler: LogHandler {
    var inner: StreamLogHandler

    init(_ inner: StreamLogHandler) { self.inner = inner }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(TerminalEscaper.escape(event.message.description))"
        event.metadata = event.metadata.map(Self.escape)
        if let error = event.error {
            event.metadata = (event.metadata ?? [:]).merging(["error": "\(TerminalEscaper.escape("\(error)"))"]) { $1 }
            event.error = nil
        }
        inner.log(event: event)
    }

    static func escape(_ metadata: Logger.Metadata) -> Logger.Metadata {
        Dictionary(uniqueKeysWithValues: metadata.map { (TerminalEscaper.escape($0.key), escape($0.value)) })
    }

    static func escape(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let text): .string(TerminalEscaper.escape(text))
        case .stringConvertible(let value): .string(TerminalEscaper.escape(value.description))
        case .array(let values): .array(values.map(escape))
        case .dictionary(let metadata): .dictionary(escape(metadata))
        }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue.map(Self.escape) }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = Self.escape(newValue) }
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }
}
