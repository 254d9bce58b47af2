import Foundation
import FlyingFox
import Testing

@testable import OrderPressSupport
@testable import OrderPressFetch

/// A SheetDB and rates feed stand-in whose rates answer can change between fetches (`SourceCacheTests`).
package enum SourceCacheFixture {
    private typealias F = FetchFixture

    /// Orders and rates from one server; what the rates feed answers can change between fetches.
    package actor Feed {
        package init() {}
        package enum Rates { case good, status(Int), html }
        package var rates = Rates.good
        package func set(_ rates: Rates) { self.rates = rates }
    }

    package static func serve(_ feed: Feed) -> LocalServer.Responder {
        { request, _ in
            guard request.path == "/capi.php" else { return Reply.page(of: F.rows, for: request) }
            switch await feed.rates {
            case .good: return Reply.text(F.rter)
            case .status(let status): return Reply.status(status)
            case .html: return Reply.text("<html>maintenance</html>", type: "text/html")
            }
        }
    }

    package static func toml(_ server: LocalServer, refresh: Int = 0) -> String {
        let rates = "[rates]\nurl = \"\(server.url("/capi.php"))\"\nformat = \"rter\"\nrefresh_minutes = \(refresh)\n"
        return "timezone = \"Asia/Taipei\"\n" + F.toml(server, orders: "refresh_minutes = \(refresh)", extra: rates)
    }
}
