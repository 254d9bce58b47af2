import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressCatalogue
@testable import OrderPressOutput
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressSlugs
@testable import OrderPressAggregate
@testable import OrderPressDiff
@testable import OrderPressRender

/// The clock and site id the golden pages were rendered with.
package enum GoldenSite {
    /// Two hours after the sample's rates were published: not stale.
    package static let now = Date(timeIntervalSince1970: 1_795_255_200)

    package static let siteID = UUID(uuidString: "6f1c2a9e-3b4d-4e5f-8a7b-0c1d2e3f4a5b")!
}
