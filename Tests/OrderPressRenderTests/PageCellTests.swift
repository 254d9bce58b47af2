import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressRender
import OrderPressSiteTestSupport
import OrderPressTestSupport

/// Group and person pages hold cells that write themselves (`PageCell`) where their models held a
/// String per cell. Both the compiled templates and swift-mustache write the cells, so
/// `BuiltInPagesTests` cannot tell a wrong cell; here each cell's text is held to the Strings the
/// models were made of (`MoneyFormat.display`, `MarkdownEscaper.escape`, `Text.shortened`,
/// `Timestamp.display`), on generated sites with hostile text, prices repeated at other quantities
/// (the page's memo of amounts, `PageFormat`) and orders in other currencies.
@Suite struct PageCellTests {
    /// An order's line as the String model made it (`PageBuilder.orderLine` before the cells).
    static func expectedLine(_ order: Order, shortened: Bool, settled: PersonKey?, context: SiteContext) -> [String] {
        let money = context.money
        func text(_ value: String, _ limit: Int) -> String {
            MarkdownEscaper.escape(shortened ? Text.shortened(value, to: limit) : value)
        }
        let time = order.time.map {
            Timestamp.display($0, timeZone: context.configuration.timeZone)
                + (context.isLate(order) ? " \(context.labels.markdown("late_mark"))" : "")
        }
        return [
            text(order.person, TextLimits.person),
            ([text(order.item, TextLimits.item)] + order.options.map { text($0, TextLimits.option) }).joined(separator: " "),
            order.paid || (settled != nil && order.personKey == settled) ? "✓" : "", String(order.quantity),
            money.display(order.unitPrice, order.currency), money.display(order.amount, order.currency),
            time ?? MarkdownEscaper.escape(order.timeText), text(order.note, TextLimits.note),
        ]
    }

    static func line(_ line: PageModels.OrderLine) -> [String] {
        [
            line.person.description, line.item.description, line.paidMark, String(line.quantity), line.unitPrice.description,
            line.amount.description, line.time.description, line.note.description,
        ]
    }

    @Test func cellsShowWhatTheStringsShowed() async throws {
        let sample = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: sample).fetch()
        await propertyCheck(count: 40, input: GeneratedSites.sites) { site in
            let built = GeneratedSites.build(site, sample: sample, fetched: fetched)
            let context = built.context(limits: site.limits)
            let builder = PageBuilder(context: context)
            let money = context.money
            for summary in context.aggregation.groups {
                let (currency, pages) = (summary.currency, context.orderPages(summary))
                let page = builder.groupPage(summary)
                var shop: [[String]] = []
                page.shopSheet.forEach { shop.append([$0.text.description, $0.unitPrice.description, $0.lineTotal.description]) }
                #expect(
                    shop == summary.shopSheet.map {
                        [MarkdownEscaper.escape($0.text), money.display($0.unitPrice, currency), money.display($0.lineTotal, currency)]
                    }, "\(site)")
                for number in 1...pages.pageCount {
                    let (orders, people) = number == 1
                        ? (page.orders, page.people) : { ($0.orders, $0.people) }(builder.groupOrdersPage(summary, page: number))
                    var lines: [[String]] = []
                    orders.forEach { lines.append(Self.line($0)) }
                    let settled = builder.settledKey(of: summary.group)
                    #expect(
                        lines == pages.rows(ofPage: number).map { Self.expectedLine(summary.orders[$0], shortened: true, settled: settled, context: context) },
                        "\(site)")
                    var rows: [[String]] = []
                    people.forEach { person in
                        let cells: [String] = [
                            person.name.description, person.link.description, person.total.description, person.paid.description,
                            person.outstanding.description, String(person.orders),
                        ]
                        rows.append(cells + person.converted.map(\.description))
                    }
                    let expected = summary.people[pages.peopleRows(ofPage: number)].map { person -> [String] in
                        let name = MarkdownEscaper.escape(Text.shortened(person.name, to: TextLimits.person))
                        let link = "../people/" + context.personSlugs[person.key]! + ".md"
                        let amounts = [person.total, person.paid, person.outstanding].map { money.display($0, currency) }
                        let converted = person.converted.map { money.display($0) }
                        return [name, link] + amounts + [String(person.orders)] + converted
                    }
                    #expect(rows == expected, "\(site)")
                }
            }
            for person in context.aggregation.people {
                let pages = context.personPages(person)
                // Every page's groups, and each group's orders as the String model listed them.
                var shown: [String: [[String]]] = [:]
                var totals: [String: [String]] = [:]
                for number in 1...pages.pageCount {
                    let groups = number == 1 ? builder.personPage(person).groups : builder.personOrdersPage(person, page: number).groups
                    for group in groups {
                        group.orders.forEach { shown[group.name, default: []].append(Self.line($0)) }
                        totals[group.name] = [group.total.description] + group.converted.map(\.description)
                    }
                }
                let expected = Dictionary(grouping: person.orders, by: \.group)
                #expect(Set(shown.keys) == Set(expected.keys.map(MarkdownEscaper.escape)), "\(site)")
                for (name, orders) in expected {
                    let group = context.data.groups[context.groupPlace(name)!]
                    let settled = builder.settledKey(of: group)
                    #expect(
                        shown[MarkdownEscaper.escape(name)] == orders.map { Self.expectedLine($0, shortened: false, settled: settled, context: context) },
                        "\(site)")
                    let share = person.groupShares.first { $0.group == name }!
                    #expect(
                        totals[MarkdownEscaper.escape(name)]
                            == ["\(money.display(share.total, group.currency)) \(group.currency)"]
                            + share.converted.filter { $0.currency != group.currency }.map { "\(money.display($0)) \($0.currency)" },
                        "\(site)")
                }
            }
        }
    }
}
