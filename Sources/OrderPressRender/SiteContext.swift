import Foundation
import OrderPressDiff
import OrderPressFetch
import OrderPressSupport
import OrderPressValidate

/// Everything the page builders share, computed once per build: what render was handed (`input`, whose
/// fields read as the context's own: `context.data`, `context.labels`…) and what is made of it.
@dynamicMemberLookup
package struct SiteContext: Sendable {
    /// What the steps before render handed on; the slugs, digests and tombstones it may carry are taken
    /// out into the fields below.
    package let input: SiteInput
    /// Rounds every amount for display; conversions come converted from the aggregate step.
    package var money: MoneyFormat
    package var groupSlugs: [String: String]
    package var personSlugs: [String: String]
    /// Slugs of earlier pages of spellings merged into a person's, by key (`SiteSlugs.aliases`).
    var personAliases: [(key: String, slug: String)]
    /// The newest timestamp in the data itself: the rates' as-of time or a later order time.
    var dataAsOf: Date?
    var ratesStale: Bool
    /// Currencies needed for a conversion that the rate table lacks.
    var missingRates: [String]
    /// The labels escaped for Markdown, once per build.
    package var markdownLabels: [String: String]
    package var limits: PageLimits
    /// Each group's place in the sheet, by name.
    package let groupPlaces: GroupPlaces
    /// The latest run's deleted orders, by group.
    package var latestDeletions: [String: [RowRecord]]
    /// The rejected rows by the person and group they name.
    package let rejected: RejectedIndex
    /// Each group's deadline that reads as a time, by name: an order after it is marked late.
    let deadlines: [String: Date]
    /// The pages of people and groups whose orders were all deleted in the last 30 days.
    package let tombstones: Tombstones
    /// What people still owe from their finished rounds, by person key, oldest first: settled by the
    /// `[payments]` source, or dropped `keep_unpaid_days` after the close without one (`PaymentLedger`).
    package let carried: [String: [CarriedDebt]]
    /// What people paid beyond their carried debts, by person key and currency (`PaymentLedger`).
    package let credit: [String: [String: Decimal]]
    /// Who the finished rounds name, what is owed to each organiser, and the rounds of each person.
    package let rounds: RoundPeople
    /// People with a page from the finished rounds alone (`RoundPeople`): no order, no rejected row, and no
    /// tombstone unless money is still open for them (then this page, never the tombstone), in key order.
    let roundOnly: [(key: String, name: String)]

    package init(_ input: SiteInput, limits: PageLimits = .standard) {
        var input = input
        let (handedSlugs, tombstones) = (input.slugs, input.tombstones)
        (input.slugs, input.tombstones) = (nil, nil)
        self.input = input
        let (configuration, data, aggregation, rates, history, now, labels) = (
            input.configuration, input.data, input.aggregation, input.rates, input.history, input.now, input.labels
        )
        rejected = RejectedIndex(data.rejected, orders: data.orders, spellings: data.spellings)
        deadlines = data.groups.reduce(into: [:]) { found, group in
            if let time = group.deadlineTime(timeZone: configuration.timeZone) { found[group.name] = time }
        }
        self.limits = limits
        latestDeletions = Dictionary(grouping: history.first?.changes.deleted ?? [], by: \.group)
        // Pages group amounts by thousands as the language's catalogue says (`summary.json` uses `money.plain`).
        money = MoneyFormat(minorUnitOverrides: configuration.minorUnits, thousandsSeparator: labels.markdown("thousands_separator"))
        markdownLabels = labels.markdownTable
        (carried, credit) = (input.ledger.debts, input.ledger.credit)
        // Without the state's (tests): what the history says, a person with a carried debt keeping their page.
        self.tombstones = tombstones ?? Tombstones(deletions: RecentDeletions(replaying: history), now: now, data: data, keeping: Set(carried.keys))
        rounds = RoundPeople(input.archives, carried: carried)
        if rounds.named.isEmpty {
            roundOnly = []
        } else {
            var present = Set(aggregation.people.lazy.map(\.key))
            for person in rejected.onlyRejected { present.insert(person.key) }
            let stones = Set(self.tombstones.people.lazy.map(\.key))
            let (carried, credit, owedTo) = (carried, credit, rounds.owedTo)
            roundOnly = rounds.named.filter { person in
                !present.contains(person.key)
                    && (!stones.contains(person.key) || carried[person.key] != nil || credit[person.key] != nil || owedTo[person.key] != nil)
            }
        }
        let slugs = handedSlugs ?? SiteSlugs(data, archives: input.archives, tombstones: self.tombstones)
        (groupSlugs, personSlugs, personAliases) = (slugs.groups, slugs.people, slugs.aliases)
        groupPlaces = GroupPlaces(data.groups)
        let newestOrder = data.orders.lazy.compactMap(\.time).max()
        dataAsOf = [rates?.asOf, newestOrder].compactMap { $0 }.max()
        if let rates, let maxAge = configuration.rates?.maxAgeHours {
            ratesStale = rates.asOf.map { now.timeIntervalSince($0) > Double(maxAge) * 3600 } ?? true
        } else {
            ratesStale = false
        }
        if configuration.displayCurrencies.isEmpty {
            missingRates = []
        } else {
            let used = Set(data.groups.map(\.currency)).union(aggregation.grandTotals.keys)
                .union(configuration.displayCurrencies)
            missingRates = used.filter { rates?.rates[$0] == nil }.sorted()
        }
    }

    /// `context.data`, `context.configuration`…: the input's fields. Inlined, the literal key path is
    /// folded into a plain field read.
    @inline(__always)
    package subscript<Value>(dynamicMember field: KeyPath<SiteInput, Value>) -> Value { input[keyPath: field] }

    /// Whether `order` was placed after its group's deadline.
    func isLate(_ order: borrowing Order) -> Bool {
        guard !deadlines.isEmpty, let time = order.time, let deadline = deadlines[order.group] else { return false }
        return time > deadline
    }

    /// The place in `data.groups` of the group of this name.
    package func groupPlace(_ name: String) -> Int? { groupPlaces.place(name) }

    /// The groups of these names, in the sheet's order.
    package func groups(named names: some Collection<String>) -> [Group] {
        groupPlaces.places(named: names).sorted().map { input.data.groups[$0] }
    }

    /// "2026-11-21 16:00 (Asia/Taipei)": plain text, for the layout's footer.
    package var dataAsOfText: String {
        guard let dataAsOf else { return input.labels["unknown_time"] }
        return "\(Timestamp.display(dataAsOf, timeZone: input.configuration.timeZone)) (\(input.configuration.timeZone.identifier))"
    }

    /// What the HTML layout shows around the page's own title and body, for a page `root` below the top.
    func layoutModel(root: String, pageTitle: String = "", body: String = "") -> PageModels.Layout {
        PageModels.Layout(
            language: input.configuration.language, labels: input.labels.plain,
            feedTitle: input.labels.text("feed_title", ["title": input.configuration.title]), pageTitle: pageTitle,
            siteTitle: input.configuration.title, root: root, attentionCount: attentionCount,
            dataAsOf: input.labels.text("data_as_of", ["time": dataAsOfText]), body: body, noindex: !input.configuration.indexable)
    }

    /// Notes shown on every summary page about the rates behind the conversions, as Markdown.
    package var rateNotices: [String] {
        var notices: [String] = []
        guard let rates = input.rates else {
            if !input.configuration.displayCurrencies.isEmpty { notices.append(input.labels.markdown("no_rates")) }
            return notices
        }
        let time = asOfText(rates)
        if rates.fromCache {
            notices.append(input.labels.markdown("rates_cached", ["time": time]))
        }
        if ratesStale, let hours = input.configuration.rates?.maxAgeHours {
            notices.append(input.labels.markdown("rates_stale", ["time": time, "hours": String(hours)]))
        }
        if !missingRates.isEmpty {
            notices.append(input.labels.markdown("rates_missing", ["currencies": missingRates.joined(separator: ", ")]))
        }
        return notices
    }

    func asOfText(_ rates: RateTable) -> String {
        rates.asOf.map { Timestamp.display($0, timeZone: input.configuration.timeZone) } ?? input.labels["unknown_date"]
    }

    /// Each display currency's amount, or "n/a".
    package func converted(_ amounts: [ConvertedAmount]) -> [String] {
        amounts.map(money.display)
    }

    /// "125 TWD + 10.25 USD", currencies in code order.
    func totalsText(_ totals: [String: Decimal]) -> String {
        totals.keys.sorted().map { "\(money.display(totals[$0]!, $0)) \($0)" }.joined(separator: " + ")
    }

    /// An ISO 8601 time from the state folder, shown like every other time.
    func display(iso text: String) -> String {
        Timestamp.display(iso: text, timeZone: input.configuration.timeZone) ?? MarkdownEscaper.escape(text)
    }

    /// "35 TWD" for a recorded row, or "rejected" for one that had no valid amount.
    func amountText(_ record: RowRecord) -> String {
        guard let text = record.amount, let amount = DecimalText.parse(text) else { return input.labels["rejected_amount"] }
        return "\(money.display(amount, record.currency)) \(record.currency)"
    }

    /// The pages of the list of every group or every person.
    func listPages(_ list: ListPages.List) -> ListPages {
        let count = list == .groups ? input.aggregation.groups.count : input.aggregation.people.count
        return ListPages(list: list, count: count, size: limits.listRows)
    }

    package var attentionCount: String? {
        let count = input.data.rejected.count + input.data.warnings.count
        return count == 0 ? nil : String(count)
    }
}

extension SiteContext {
    /// The name shown for the person of `key`, if they have a page (an alias's person: few, so a scan).
    func personName(_ key: String) -> String? {
        input.aggregation.people.first { $0.key == key }?.name ?? rejected.onlyRejected.first { $0.key == key }?.name
            ?? roundOnly.first { $0.key == key }?.name
    }
}
