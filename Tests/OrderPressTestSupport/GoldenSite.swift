import Foundation

/// The clock and site id the golden pages were rendered with.
package enum GoldenSite {
    /// Two hours after the sample's rates were published: not stale.
    package static let now = Date(timeIntervalSince1970: 1_795_255_200)

    package static let siteID = UUID(uuidString: "6f1c2a9e-3b4d-4e5f-8a7b-0c1d2e3f4a5b")!
}
