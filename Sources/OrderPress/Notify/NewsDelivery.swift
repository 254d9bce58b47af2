/// Sends what the webhook has not taken yet together with this run's news, after a successful publish,
/// and keeps in the outbox whatever it does not take. A failure is a warning, never a failed build.
public struct NewsDelivery: Sendable {
    public var webhook: Webhook
    public var outbox: NewsOutbox
    public var site: String

    public init(webhook: Webhook, outbox: NewsOutbox, site: String) {
        self.webhook = webhook
        self.outbox = outbox
        self.site = site
    }

    /// The delivery `[notify] webhook_url_env` asks for, or nil without one. A variable that is unset or
    /// empty, or holds no http(s) address, is a configuration error (exit 64) that names the variable,
    /// never its value.
    public static func configured(_ configuration: Configuration, environment: [String: String]) throws(ConfigurationError) -> NewsDelivery? {
        guard let variable = configuration.notify.webhookURLEnvironmentVariable else { return nil }
        let file = configuration.file.lastPathComponent
        guard let text = environment[variable], !text.isEmpty else {
            throw .invalid("notify.webhook_url_env", "names \(variable), which is unset or empty; export the webhook's URL in \(variable)", in: file)
        }
        guard let webhook = Webhook(text, timeout: .seconds(configuration.notify.webhookTimeoutSeconds)) else {
            throw .invalid("notify.webhook_url_env", "names \(variable), which holds no http or https address; set it to the webhook's URL", in: file)
        }
        return NewsDelivery(webhook: webhook, outbox: NewsOutbox(state: configuration.output.state), site: configuration.title)
    }

    /// Nil when there was nothing to send or the webhook took it; else the warning to show.
    public func run(_ news: News) async -> String? {
        var items = outbox.load()
        for item in news.items where !items.contains(item) { items.append(item) }
        guard !items.isEmpty else { return nil }
        guard let reason = await webhook.deliver(site: site, items: items) else {
            do {
                try outbox.save([])
            } catch {
                return "the webhook took the news, but \(error.description); it may be sent again"
            }
            return nil
        }
        let kept: String
        do {
            try outbox.save(items)
            kept = "kept to send with the next run"
        } catch {
            kept = "and it could not be kept (\(error.description))"
        }
        return "the webhook did not take \(Counted.text(items.count, "news item")): \(reason); \(kept)"
    }
}
