import Foundation
import Testing

@testable import OrderPressCatalogue
@testable import OrderPressOutput
@testable import OrderPressConfig
@testable import OrderPressValidate
@testable import OrderPressAggregate
@testable import OrderPressRender
import OrderPressTestSupport

@Suite struct SiteContextTests {
    /// Short names (looked up by their bits first), a name of exactly 15 bytes, longer ones, a
    /// decomposed accent, and a name listed twice (its first place counts).
    static let names = ["Tea", "週五下午茶", "東京出差午餐 long name", "Café", "Tea", "x"]

    /// The same text as another string: built in storage of its own, or decomposed (canonically equal).
    static func variants(of name: String) -> [String] {
        var stored = String()
        stored.reserveCapacity(64)
        stored += name
        return [name, stored, String(decoding: Array(name.utf8), as: UTF8.self), name.decomposedStringWithCanonicalMapping]
    }

    /// `groupPlace` by bits gives what the look-up by the text gives: the first place of a name,
    /// however the text is stored, and nothing for a name no group has.
    @Test func groupPlacesByBitsAreThePlacesByText() throws {
        let configuration = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let groups = Self.names.map { Group(name: $0, organizer: "", shop: "", currency: "TWD", deadline: "") }
        let data = ValidatedData(groups: groups, orders: [], rejected: [], warnings: [], rowsRead: 0)
        let context = SiteContext(
            configuration: configuration, data: data, aggregation: Aggregator.aggregate(data), rates: nil, history: [],
            now: GoldenSite.now, siteID: GoldenSite.siteID)
        #expect(Array("週五下午茶".utf8).count == 15)
        for (name, place) in zip(Self.names, [0, 1, 2, 3, 0, 5]) {
            for text in Self.variants(of: name) { #expect(context.groupPlace(text) == place, "\(text.debugDescription)") }
        }
        for missing in ["tea", "Te", "週五下午", ""] { #expect(context.groupPlace(missing) == nil) }
    }

    /// The slugs a build makes from the validated data before aggregating are the ones the site context
    /// makes from the aggregation: the people the orders name are the people it lists. Names collide
    /// once folded and once slugged, and a group without orders still has its page.
    @Test func slugsFromTheDataAreTheSlugsFromTheAggregation() throws {
        let configuration = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let people = ["Amy", "amy", "AMY ", "Ødegaard", "ødegaard", "陳小明", "a/b", "", "CON", "Σίσυφος", "σίσυφοσ"]
        let groups = ["Tea", "tea", "午餐", "Empty"].map { Group(name: $0, organizer: "", shop: "", currency: "TWD", deadline: "") }
        let orders = people.enumerated().map { index, person in
            var order = AggregatorFixtures.order(index + 2, groups[index % 3].name, person, "Tea", [], 1, "35")
            order.personKey = PersonKey(person)
            return order
        }
        let data = ValidatedData(groups: groups, orders: orders, rejected: [], warnings: [], rowsRead: orders.count)
        let made = SiteContext(
            configuration: configuration, data: data, aggregation: Aggregator.aggregate(data), rates: nil, history: [],
            now: GoldenSite.now, siteID: GoldenSite.siteID)
        let slugs = SiteSlugs(data)
        #expect(slugs.people == made.personSlugs)
        #expect(slugs.groups == made.groupSlugs)
        #expect(Set(slugs.people.keys) == Set(people.map { PersonKey($0).text }))
        #expect(slugs.groups.count == 4)
    }

    /// The site's words are the ones render is handed (made once at the configure step), not made again
    /// from the configuration: handed English with an override, a Japanese site's pages read them.
    @Test func pagesReadTheLabelsRenderIsHanded() throws {
        var configuration = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        configuration.language = "ja"
        let groups = [Group(name: "Tea", organizer: "", shop: "", currency: "TWD", deadline: "")]
        let data = ValidatedData(groups: groups, orders: [], rejected: [], warnings: [], rowsRead: 0)
        let labels = Labels(language: "en", overrides: ["data_as_of": "Handed down {time}"])
        let input = SiteInput(
            configuration: configuration, data: data, aggregation: Aggregator.aggregate(data), rates: nil, history: [],
            now: GoldenSite.now, siteID: GoldenSite.siteID, labels: labels)
        #expect(SiteContext(input).labels["data_as_of"] == "Handed down {time}")
        let collector = CollectedSite()
        try SiteRenderer(templateOverrides: nil).render(input, into: collector)
        let index = try #require(collector.site.site.first { $0.path == "index.html" })
        let html = String(decoding: index.contents, as: UTF8.self)
        #expect(html.contains("Handed down "))
        #expect(!html.contains("データ時点"))
    }
}
