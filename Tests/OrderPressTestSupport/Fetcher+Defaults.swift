import Foundation

@testable import OrderPressSupport
@testable import OrderPressConfig
@testable import OrderPressFetch

extension Fetcher {
    /// A fetcher over the real transport and retry policy, as the pipeline makes it (`Pipeline.makeFetcher`)
    /// with their defaults.
    package init(
        configuration: Configuration, clock: Clock = .fromEnvironment(),
        environment: [String: String] = ProcessInfo.processInfo.environment, options: Options = .init()
    ) throws(ConfigurationError) {
        try self.init(
            configuration: configuration, clock: clock, environment: environment, options: options,
            transport: URLSessionTransport(), retryPolicy: RetryPolicy())
    }
}
