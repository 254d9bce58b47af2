@testable import OrderPressNotify
import OrderPressTestSupport

extension NewsDelivery {
    /// What a build does with its news: the pipeline adds them to the outbox (flushed to disk), then
    /// `orderpress build` sends everything waiting there (`send`).
    func run(_ news: News) async -> Said? {
        do {
            try outbox.add(news.items)
        } catch {
            return Said(line: "the news could not be kept for the webhook (\(error.description))", evenWhenQuiet: true)
        }
        return await send()
    }
}
