import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressRender
import OrderPressSiteTestSupport
import OrderPressTestSupport

/// `SummaryDocument` writes the entries of its two long lists straight from the summaries; JSONEncoder
/// on the `Encodable` document is the reference, byte for byte.
@Suite struct SummaryDocumentTests {
    /// Generated sites (hostile names, several currencies per person, payments or not, deletions) in
    /// display currencies listed out of their key order, in one, in none.
    static let sites = Generator<GeneratedSites.Site, Shrink.None<GeneratedSites.Site>> { rng in
        var site = GeneratedSites.sites.run(using: &rng)
        site.displayCurrencies = [["USD", "JPY"], ["TWD", "JPY", "USD"], ["JPY"], [], ["EUR", "TWD"]].randomElement(using: &rng)!
        return site
    }

    @Test func entriesAreWhatJSONEncoderWrites() async throws {
        let sample = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: sample).fetch()
        await propertyCheck(count: 150, input: Self.sites) { site in
            let context = GeneratedSites.build(site, sample: sample, fetched: fetched).context
            let written = SummaryDocument.encoded(context).contents
            let reference = JSONOutput.encode(SummaryDocument(context))
            #expect(written == reference, "\(site)")
        }
    }
}
