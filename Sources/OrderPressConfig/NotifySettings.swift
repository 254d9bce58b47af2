/// `[notify]`: what a `--quiet` run still prints, and the webhook that news is sent to.
public struct NotifySettings: Sendable, Equatable {
    /// The kinds of news a `--quiet` build prints on stdout and the webhook gets (default all; empty for
    /// none). `failing` covers a source's recovery too.
    public var print: Set<NewsKind> = [.deleted, .rejected, .failing, .blocked]
    /// The environment variable holding the webhook's URL (a secret: it is never printed or stored).
    public var webhookURLEnvironmentVariable: String?
    /// How long a POST to the webhook may take, all told.
    public var webhookTimeoutSeconds = 10
    /// After the sheet has failed this long, a failing run adds the "not updated since …" notice to the
    /// index and group pages (`StaleNotice`); nil (the default) adds none.
    public var staleAfterMinutes: Int?

    public init() {}

    /// Reads `[notify]` from `root`, if present; unknown keys and unknown kinds are errors naming them.
    static func read(_ root: inout TOMLTableReader) throws -> NotifySettings {
        var settings = NotifySettings()
        guard var table = try root.table("notify") else { return settings }
        if let kinds = try table.strings("print") {
            settings.print = []
            for name in kinds {
                guard let kind = NewsKind(rawValue: name), kind.setting == kind else {
                    throw ConfigurationError.invalid(
                        "notify.print", "lists '\(name)'; use any of \"deleted\", \"rejected\", \"failing\", \"blocked\", or [] for nothing",
                        in: root.file)
                }
                settings.print.insert(kind)
            }
        }
        settings.webhookURLEnvironmentVariable = try table.string("webhook_url_env")
        settings.webhookTimeoutSeconds = try table.int("webhook_timeout_seconds", in: 1...60) ?? 10
        settings.staleAfterMinutes = try table.int("stale_after_minutes", in: 1...525_600)
        try table.rejectUnknownKeys()
        return settings
    }
}
