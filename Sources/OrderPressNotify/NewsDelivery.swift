import OrderPressConfig
import OrderPressSupport

/// Sends what the webhook has not taken yet together with this run's news, and keeps in the outbox
/// whatever it does not take. A failure is a warning, never a failed build.
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

    /// What a delivery has to say: a warning, and whether `--quiet` says it too (the first failure of a
    /// webhook, and the first success after failures; not every run while it stays down).
    public struct Said: Sendable, Equatable {
        public var line: String
        public var evenWhenQuiet: Bool
    }

    /// Sends what waits in the outbox (this run's news was added to it, durably, before), oldest first,
    /// in batches (`Webhook.batches`), each taken out of the outbox under its lock once the webhook
    /// answered 2xx; stops at the first failure, leaving the rest for the next run. While another run
    /// is sending, sends nothing: its items stay for the next run.
    public func send() async -> Said? {
        let sending: OutboxLock
        do {
            try AtomicFile.createFolder(outbox.state)
            sending = try OutboxLock(state: outbox.state, name: OutboxLock.sending)
            guard try sending.hold(wait: false) else { return nil }
        } catch {
            return Said(line: "the webhook's news could not be sent (\(error.description))", evenWhenQuiet: true)
        }
        defer { sending.release() }
        let entries = outbox.contents().entries
        guard !entries.isEmpty else { return nil }
        var sent = 0
        var failure: String?
        for batch in Webhook.batches(site: site, items: entries.lazy.map(\.item)[...]) {
            if let reason = await webhook.post(batch.body) {
                failure = reason
                break
            }
            let numbers = Set(entries[sent..<(sent + batch.count)].map(\.number))
            sent += batch.count
            do {
                try outbox.remove(numbers)
            } catch {
                return Said(line: "the webhook took the news, but \(error.description); it may be sent again", evenWhenQuiet: true)
            }
        }
        let wasFailing = (try? outbox.noteFailing(failure)) ?? nil
        guard let failure else {
            return wasFailing.map { _ in Said(line: "the webhook works again: the news waiting for it was sent", evenWhenQuiet: true) }
        }
        let left = entries.count - sent
        return Said(
            line: "the webhook did not take \(Counted.text(left, "news item")): \(failure); kept to send with the next run",
            evenWhenQuiet: wasFailing == nil)
    }
}
