import Foundation

/// Reads the orders, groups and rates sources that the configuration names.
public struct Fetcher: Sendable {
    public var configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public func fetch() async throws(SourceError) -> FetchedData {
        let orders = try await sheet(configuration.orders)
        let groups: SourceTable? = if let settings = configuration.groups { try await sheet(settings) } else { nil }
        var warnings: [DataWarning] = []
        var rates: RateTable?
        if let settings = configuration.rates {
            do {
                rates = try RatesParser.parse(try await bytes(settings.source), format: settings.format)
            } catch {
                warnings.append(.init(row: nil, message: "\(error.description); converted amounts show n/a"))
            }
        }
        return FetchedData(orders: orders, groups: groups, rates: rates, warnings: warnings)
    }

    private func sheet(_ settings: Configuration.SourceSettings) async throws(SourceError) -> SourceTable {
        let format: SheetParser.Format
        switch settings.location {
        case .path(let url):
            guard let parsed = SheetParser.Format(rawValue: url.pathExtension.lowercased()) else {
                throw SourceError(source: settings.name, message: "'\(url.lastPathComponent)' must be a .json or .csv file")
            }
            format = parsed
        case .url:
            format = .json
        }
        return try SheetParser.parse(try await bytes(settings), format: format, source: settings.name)
    }

    private func bytes(_ settings: Configuration.SourceSettings) async throws(SourceError) -> Data {
        switch settings.location {
        case .path(let url):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw SourceError(
                    source: settings.name,
                    message: "cannot read \(url.path) (\(IOFailure.reason(error))); check [\(settings.name)] path in the configuration")
            }
        case .url:
            throw SourceError(source: settings.name, message: "reading over HTTP is not available in this version; use path = ...")
        }
    }
}
