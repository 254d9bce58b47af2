@_spi(Reflection) import Swift
import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressCatalogue
@testable import OrderPressOutput
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressAggregate
@testable import OrderPressDiff
@testable import OrderPressRender
@testable import OrderPressReuse
import OrderPressSiteTestSupport
import OrderPressTestSupport

/// Group pages, charts and person pages are kept without being built when the digest of their
/// inputs (`PageKeys`) is the one their published files were made with. These tests render a
/// generated site, change one thing, render again keeping what the digests allow, and require
/// every file to equal a build of the changed site from scratch.
@Suite struct PageKeysTests {
    /// One change between two runs.
    enum Change: CaseIterable, Sendable {
        /// `person`: the order moves to someone else (now and then someone new); `newPerson`: always to
        /// someone no order named before, whose page and place in the list of people are new.
        case nothing, price, person, newPerson, note, paid, group, item, time, quantity, options, deleteRow, addRow, moveRow
        case language, payments, displayCurrencies, rates, rateValue, label
        /// A cell of the groups sheet (its organiser, its shop, how to pay): the group's page and its people's pages show them.
        case organizer, shop, payment
    }

    /// The last build's files, as a publish session would offer them: each file's key and pieces
    /// (`PublishedFiles`), and kept files copied into this build's output (`PageSink`).
    final class PublishedSite: PageSink, PublishedFiles, @unchecked Sendable {
        private let previous: [OutputTree: [String: OutputFile]]
        private let lock = NSLock()
        private var collected = CollectedSite()
        private(set) var kept: [OutputTree: [String]] = [:]

        init(_ site: RenderedSite) {
            previous = [
                .markdown: Dictionary(uniqueKeysWithValues: site.markdown.map { ($0.path, $0) }),
                .site: Dictionary(uniqueKeysWithValues: site.site.map { ($0.path, $0) }),
            ]
        }

        func published(_ path: String, in tree: OutputTree) -> PublishedRecord? {
            previous[tree]?[path]?.reuseKey.map { PublishedRecord(reuseKey: $0, index: -1) }
        }

        func intactCount(builtFrom inputs: String?) -> Int? { nil }

        func publish(_ files: [OutputFile], in tree: OutputTree) { lock.withLock { collected.publish(files, in: tree) } }

        func keep(_ files: [KeptFile], in tree: OutputTree) {
            lock.withLock {
                for path in files.map(\.path) {
                    kept[tree, default: []].append(path)
                    collected.publish([previous[tree]![path]!], in: tree)
                }
            }
        }

        /// Bytes of each file read back for its pieces.
        private(set) var copied: [String: Int] = [:]

        func pieces(of path: String, in tree: OutputTree) -> PublishedPieces? {
            guard let file = previous[tree]?[path], let pieces = file.pieces else { return nil }
            return PublishedPieces(pieces: pieces) { [self] offset, buffer in
                guard offset + buffer.count <= file.contents.count else { return false }
                file.contents.copyBytes(to: buffer, from: offset..<offset + buffer.count)
                lock.withLock { copied[path, default: 0] += buffer.count }
                return true
            }
        }

        var site: RenderedSite { lock.withLock { collected.site } }
    }

    struct Run {
        var configuration: Configuration
        var rows: [[String: String]]
        var tracksPayments: Bool
        var withRates: Bool
        /// The yen's rate doubled: every conversion to or from JPY changes, and nothing else.
        var otherYenRate = false
        /// One cell of the groups sheet changed: its column, and the text it gets in the first group that has one.
        var groupCell: (column: String, text: String)? = nil
    }

    /// The fetched groups sheet with `run.groupCell` changed.
    static func groups(_ run: Run, fetched: FetchedData) -> SourceTable? {
        guard let cell = run.groupCell, let table = fetched.groups, let column = table.headers.firstIndex(of: cell.column) else { return fetched.groups }
        var rows = table.rows
        if let first = rows.indices.first { rows[first].cells[column] = cell.text }
        return SourceTable(name: table.name, headers: table.headers, rows: rows)
    }

    /// Renders `run` into `sink` after `previous` (the last run's snapshot and history), and returns its own.
    /// With `records`, the orders' digests are taken from the diff's records, as a build takes them;
    /// without, from the orders' fields.
    static func render(
        _ run: Run, fetched: FetchedData, previous: DiffDecision?, records: Bool = true, into sink: some PageSink,
        reusing record: some PublishedFiles = NothingPublished()
    ) throws -> DiffDecision {
        var headers = ["id", "group", "orderer", "drink", "size", "sugar", "ice", "quantity", "price", "currency", "time", "note", "editCode"]
        if run.tracksPayments { headers.append("paid") }
        let table = TestSupport.table(headers, run.rows.map { row in headers.map { row[$0]! } })
        var rates = run.withRates ? fetched.rates : nil
        if run.otherYenRate, let yen = rates?.rates["JPY"] { rates?.rates["JPY"] = yen * 2 }
        let validator = Validator(configuration: run.configuration)
        let sheet = try validator.validateSheet(orders: table, groups: Self.groups(run, fetched: fetched))
        let data = sheet.data
        let outcome = try DiffStep(deletionGuard: nil, now: previous == nil ? "2026-11-21T10:00:00Z" : "2026-11-21T10:05:00Z", key: DiffFixtures.key).run(
            sheet, rates: rates, previous: previous.map { PreviousSnapshot($0.snapshot) }, history: previous?.history ?? [])
        let aggregation = Aggregator.aggregate(
            data, rates: rates, displayCurrencies: run.configuration.displayCurrencies,
            baseCurrency: run.configuration.baseCurrency, money: MoneyFormat(minorUnitOverrides: run.configuration.minorUnits))
        let orderDigests = OrderDigestTable.recordDigests(data, records: outcome.snapshot.rows, digests: outcome.digests)
        // Every order has its record's digest: the rows line up with the orders.
        #expect(orderDigests.count == data.orders.count)
        var renderer = try SiteRenderer(templateOverrides: nil)
        renderer.limits = PageLimits(listRows: 3, changeRows: 3, attentionRows: 3, chartBars: 4, groupOrderRows: 3)
        try renderer.render(
            SiteInput(
                configuration: run.configuration, data: data, aggregation: aggregation, rates: rates,
                history: outcome.history, now: GoldenSite.now, siteID: GoldenSite.siteID, labels: Labels(site: run.configuration)),
            digestTable: records ? OrderDigestTable(data.orders, generation: data.$orders, records: orderDigests, places: GroupPlaces(data.groups), parallel: false) : nil,
            into: sink, reusing: record)
        return outcome
    }

    /// `first` built from nothing, then `second` built twice after it: once keeping what the first build's
    /// files allow (`incremental`), once from scratch (`scratch`).
    static func rerender(
        _ first: Run, then second: Run, fetched: FetchedData, records: Bool = true
    ) throws -> (outcome: DiffDecision, incremental: PublishedSite, scratch: CollectedSite) {
        let firstSite = CollectedSite()
        let outcome = try render(first, fetched: fetched, previous: nil, records: records, into: firstSite)
        let incremental = PublishedSite(firstSite.site)
        _ = try render(second, fetched: fetched, previous: outcome, records: records, into: incremental, reusing: incremental)
        let scratch = CollectedSite()
        _ = try render(second, fetched: fetched, previous: outcome, records: records, into: scratch)
        return (outcome, incremental, scratch)
    }

    /// The files of `incremental` whose bytes are not those of the same file in `scratch`.
    static func stale(_ incremental: PublishedSite, _ scratch: CollectedSite) -> [String] {
        zip(incremental.site.markdown + incremental.site.site, scratch.site.markdown + scratch.site.site)
            .filter { $0.0.contents != $0.1.contents }.map(\.0.path)
    }

    /// `run` with one thing changed.
    static func changed(_ run: Run, _ change: Change, using rng: inout some RandomNumberGenerator) -> Run {
        var run = run
        let row = run.rows.indices.randomElement(using: &rng)
        func set(_ column: String, _ values: [String]) {
            guard let row else { return }
            run.rows[row][column] = values.filter { $0 != run.rows[row][column] }.randomElement(using: &rng)!
        }
        switch change {
        case .nothing: break
        case .price: set("price", ["36", "5.5", "1200", "abc"])
        case .person: set("orderer", GeneratedSites.names + ["New Person"])
        // Sorted among the others by name (`PersonSummary`): an "A" comes before most, moving the people after it.
        case .newPerson: set("orderer", ["Aaron Newcomer"])
        case .note: set("note", ["", "extra shot", "*x*"])
        case .paid: set("paid", ["TRUE", ""])
        case .group: set("group", GeneratedSites.groups)
        case .item: set("drink", GeneratedSites.drinks + ["New drink"])
        case .time: set("time", ["2026-11-21 09:16:00", "2026-11-20 08:00:00", ""])
        case .quantity: set("quantity", ["1", "3"])
        case .options: set("sugar", ["", "無糖"])
        case .deleteRow: if let row { run.rows.remove(at: row) }
        case .addRow:
            var new = run.rows.randomElement(using: &rng) ?? GeneratedSites.row(0, using: &rng)
            new["id"] = "new"
            new["editCode"] = "secret-new"
            run.rows.insert(new, at: Int.random(in: 0...run.rows.count, using: &rng))
        case .moveRow: if let row, run.rows.count > 1 { run.rows.append(run.rows.remove(at: row)) }
        case .organizer: run.groupCell = ("organizer", "新的團主")
        case .shop: run.groupCell = ("shop", "Another shop")
        case .payment: run.groupCell = ("payment", "Bank transfer: 012-345")
        case .language: run.configuration.language = ["en", "zh-Hant", "ja"].filter { $0 != run.configuration.language }.randomElement(using: &rng)!
        case .payments: run.tracksPayments.toggle()
        case .displayCurrencies:
            run.configuration.displayCurrencies = [[], ["USD", "JPY"], ["TWD"]].filter { $0 != run.configuration.displayCurrencies }
                .randomElement(using: &rng)!
        case .rates: run.withRates.toggle()
        case .rateValue: run.otherYenRate = true
        case .label: run.configuration.labels["total"] = "Sum"
        }
        return run
    }

    static let runs = Generator<(GeneratedSites.Site, Change, UInt64), Shrink.None<(GeneratedSites.Site, Change, UInt64)>> { rng in
        (GeneratedSites.sites.run(using: &rng), Change.allCases.randomElement(using: &rng)!, UInt64.random(in: 0...UInt64.max, using: &rng))
    }

    @Test func keptAndRebuiltFilesEqualABuildFromScratch() async throws {
        let sample = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: sample).fetch()
        await propertyCheck(count: 80, input: Self.runs) { site, change, seed in
            var rng = SplitMix64(seed: seed)
            let records = seed % 2 == 0
            var configuration = sample
            configuration.language = site.language
            configuration.displayCurrencies = site.displayCurrencies
            let first = Run(configuration: configuration, rows: site.rows, tracksPayments: site.tracksPayments, withRates: site.withRates)
            let second = Self.changed(first, change, using: &rng)
            let (_, incremental, scratch) = try! Self.rerender(first, then: second, fetched: fetched, records: records)
            let (made, expected) = (incremental.site, scratch.site)
            #expect(made.markdown.map(\.path) == expected.markdown.map(\.path), "\(site) \(change)")
            #expect(made.site.map(\.path) == expected.site.map(\.path), "\(site) \(change)")
            for (file, reference) in zip(made.markdown + made.site, expected.markdown + expected.site)
            where file.contents != reference.contents {
                Issue.record("\(file.path) kept stale after \(change) on \(site)")
            }
            if change == .nothing {
                // Every group page, chart, person page and list page after the first is kept: nothing of
                // them is built again.
                func kept(_ path: String) -> Bool {
                    ["groups/", "people/", "groups-", "people-"].contains { path.hasPrefix($0) }
                }
                let kinds = (incremental.kept[.markdown] ?? []).filter(kept)
                #expect(kinds.count == expected.markdown.filter { kept($0.path) }.count)
                // And every entry of summary.json and row of orders.csv is copied, not made.
                for (path, frame) in [("summary.json", 0), ("orders.csv", 1)] {
                    let file = made.site.first { $0.path == path }!
                    let pieces = file.pieces!.count
                    #expect(pieces <= frame + 1 || incremental.copied[path] ?? 0 > 0, "\(path) made again on \(site)")
                }
            }
        }
    }

    /// Each kind of change on a site of valid orders in three groups: the files kept and rebuilt
    /// equal a build from scratch, and a change to one order keeps the pages of the other groups.
    /// (Taking a field out of the digest makes the change to that field fail here.)
    @Test(arguments: Change.allCases, [true, false])
    func eachChangeKeepsOnlyWhatItLeavesAlone(change: Change, records: Bool) async throws {
        let sample = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: sample).fetch()
        let rows = Self.twelveRows(people: ["Amy", "王小明", "Ben", "山田 花子"]) { $0 % 2 == 0 ? "TRUE" : "" }
        var configuration = sample
        configuration.displayCurrencies = ["USD", "JPY"]
        let first = Run(configuration: configuration, rows: rows, tracksPayments: true, withRates: true)
        var rng = SplitMix64(seed: 7)
        let second = Self.changed(first, change, using: &rng)
        let (outcome, incremental, scratch) = try Self.rerender(first, then: second, fetched: fetched, records: records)
        #expect(outcome.digests.count == rows.count)
        #expect(Self.stale(incremental, scratch) == [])
        #expect(incremental.site == scratch.site)
        // The entries of summary.json for the groups and people the change leaves alone are copied.
        switch change {
        case .nothing, .price, .note, .paid, .time, .quantity, .options, .item: #expect(incremental.copied["summary.json"] ?? 0 > 1_000)
        case .language, .label, .rates, .rateValue, .displayCurrencies, .payments: #expect(incremental.copied["summary.json"] == nil)
        default: break
        }
        // The second page of each list: four groups and four people, three a page.
        let keptLists = (incremental.kept[.markdown] ?? []).filter { $0.hasPrefix("groups-") || $0.hasPrefix("people-") }
        switch change {
        case .nothing: #expect(keptLists.sorted() == ["groups-2.md", "people-2.md"])
        case .language, .label, .rates, .rateValue, .displayCurrencies, .payments: #expect(keptLists == [])
        default: break
        }
        let keptGroupPages = (incremental.kept[.markdown] ?? []).filter { $0.hasPrefix("groups/") && $0.hasSuffix(".md") }
        // Every group page is kept (the sample's fourth group, without orders here, too) but the pages of
        // the group whose order changed: its first page and its second (`GroupOrderPages`), which shows
        // its people's totals. A group's slug is its name here; `groups/<slug>--2.md` is its second page.
        let changedGroups = Set(zip(first.rows, second.rows).filter { $0 != $1 }.compactMap { $0.0["group"] })
        let untouchedGroupPages = scratch.site.markdown.map(\.path).filter { path in
            path.hasPrefix("groups/") && path.hasSuffix(".md")
                && !changedGroups.contains(path.dropFirst("groups/".count).dropLast(".md".count).components(separatedBy: "--")[0])
        }
        switch change {
        case .nothing: #expect(changedGroups.isEmpty && keptGroupPages.sorted() == untouchedGroupPages.sorted())
        case .price, .note, .paid, .time, .quantity, .options, .item:
            #expect(changedGroups.count == 1 && keptGroupPages.sorted() == untouchedGroupPages.sorted())
        default: break
        }
    }

    /// Twelve valid orders of one drink, in turn in each of `groups` and by each of four `people`, each with
    /// a note of its own and the paid cell `paid` gives its index.
    static func twelveRows(people: [String], paid: (Int) -> String) -> [[String: String]] {
        (0..<12).map { index in
            [
                "id": String(index + 1), "group": groups[index % 3], "orderer": people[index % 4],
                "drink": "熟成紅茶", "size": "L", "sugar": "半糖", "ice": "", "quantity": "1", "price": "35", "currency": "",
                "time": "2026-11-21 09:15:00", "note": "note \(index)", "paid": paid(index), "editCode": "secret\(index)",
            ]
        }
    }

    /// Three of the sample's groups, all in TWD.
    static let groups = ["週五下午茶", "週一早餐", "東京出張ランチ"]

    /// Only the index says how long a list is ("第 1–3 筆，共 8 筆"); its pages after the first say which rows they
    /// show ("第 4–6 筆"). Someone new at the end of the list, or someone gone from its end, makes again the last
    /// page and the index, and keeps the pages between, whose rows stay the same; every file equals a build
    /// from scratch. (The bench's "person → someone new" remade 19 of the 20 pages of its people list for
    /// the "of N" in their pagers.)
    @Test(arguments: ["龘 Newcomer", nil])
    func someoneNewAtTheEndOfAListKeepsItsPagesBefore(newcomer: String?) async throws {
        let sample = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: sample).fetch()
        // Eight people, three a page: the index, people-2 and people-3.
        let people = ["Amy", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal"]
        let rows = people.indices.map { index in
            [
                "id": String(index + 1), "group": Self.groups[index % 3], "orderer": people[index],
                "drink": "熟成紅茶", "size": "L", "sugar": "半糖", "ice": "", "quantity": "1", "price": "35", "currency": "",
                "time": "2026-11-21 09:15:00", "note": "", "paid": "", "editCode": "secret\(index)",
            ]
        }
        let first = Run(configuration: sample, rows: rows, tracksPayments: true, withRates: true)
        var second = first
        if let newcomer {
            // Sorted after everyone: only the last page's rows change.
            second.rows.append(rows[0].merging(["id": "9", "orderer": newcomer, "editCode": "secret-new"]) { $1 })
        } else {
            second.rows.removeLast()
        }
        let (_, incremental, scratch) = try Self.rerender(first, then: second, fetched: fetched)
        #expect(Self.stale(incremental, scratch) == [])
        let people2 = try #require(scratch.site.markdown.first { $0.path == "people-2.md" })
        #expect(String(decoding: people2.contents, as: UTF8.self).contains("\n第 4–6 筆 · [← 上一頁](index.md) · [1](index.md) **2** [3](people-3.md) · [下一頁 →](people-3.md)\n"))
        let lists = { (tree: OutputTree) in (incremental.kept[tree] ?? []).filter { $0.hasPrefix("people-") || $0.hasPrefix("index.") }.sorted() }
        #expect(lists(.markdown) == ["people-2.md"])
        #expect(lists(.site) == ["people-2.html"])
    }

    /// Deleting a row renumbers every row below it, and no group or person page shows an order's row:
    /// only the deleted order's group and person, and the person whose rejected row (which their page
    /// shows with its number) moved up, are made again; every other group and person page is kept,
    /// and every file equals a build from scratch. (A Form-shaped sheet of 100,000 rows remade every page
    /// after one deletion when the rows were in the keys: 0.81 of a full build.)
    @Test(arguments: [true, false])
    func aDeletedRowKeepsThePagesOfTheRowsBelowIt(records: Bool) async throws {
        let sample = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: sample).fetch()
        var rows = Self.twelveRows(people: ["Amy", "Ben", "Cleo", "Dan"]) { _ in "" }
        // Eve's only row is rejected, below all the others: her page shows its sheet row.
        rows.append(rows[1].merging(["id": "13", "orderer": "Eve", "price": "-5", "editCode": "secret-eve"]) { $1 })
        let first = Run(configuration: sample, rows: rows, tracksPayments: true, withRates: true)
        var second = first
        second.rows.remove(at: 0)  // Amy's order in the first group
        let (_, incremental, scratch) = try Self.rerender(first, then: second, fetched: fetched, records: records)
        #expect(Self.stale(incremental, scratch) == [])
        #expect(incremental.site == scratch.site)
        let kept = Set(incremental.kept[.markdown] ?? [])
        let pages = scratch.site.markdown.map(\.path).filter { $0.hasPrefix("groups/") || $0.hasPrefix("people/") }.filter { $0.hasSuffix(".md") }
        let remade = pages.filter { !kept.contains($0) }
        let firstGroup = Self.groups[0]
        #expect(remade.sorted() == pages.filter { $0.hasPrefix("groups/\(firstGroup)") || $0 == "people/amy.md" || $0 == "people/eve.md" }.sorted())
        #expect(kept.contains("groups/\(Self.groups[1]).md") && kept.contains("people/ben.md"))
    }

    /// A summary whose orders are copies, not places in the build's orders, gets the same digest.
    @Test func ordersReadAgainGiveTheDigestOfTheirPositions() async throws {
        let configuration = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: configuration).fetch()
        let data = try Validator(configuration: configuration).validate(orders: fetched.orders, groups: fetched.groups)
        let aggregation = Aggregator.aggregate(data)
        let context = SiteContext(
            configuration: configuration, data: data, aggregation: aggregation, rates: nil, history: [],
            now: GoldenSite.now, siteID: GoldenSite.siteID)
        let inputs = PageKeys(context, templates: try SiteRenderer(templateOverrides: nil).templates)
        #expect(aggregation.groups.contains { $0.orders.count > 1 })
        for var summary in aggregation.groups {
            let positioned = inputs.group(summary)
            summary.orders = OrderList(Array(summary.orders))
            #expect(inputs.group(summary) == positioned)
        }
        for var person in aggregation.people {
            let positioned = inputs.person(person)
            person.orders = OrderList(Array(person.orders))
            #expect(inputs.person(person) == positioned)
        }
    }

    /// The orders' digests made beside the aggregation (`OrderDigestTable`) are used only for the very
    /// orders they were made from: a table made from other orders (one price changed, the same orders
    /// copied) gives the keys a table made for them gives. Made on one core or both, they are the same.
    @Test func orderDigestsHoldOnlyForTheirOwnOrders() async throws {
        let configuration = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: configuration).fetch()
        let data = try Validator(configuration: configuration).validate(orders: fetched.orders, groups: fetched.groups)
        var changed = data
        changed.orders[0].unitPrice += 1
        let copied = ValidatedData(
            groups: data.groups, orders: data.orders.map { $0 }, rejected: [], warnings: [], rowsRead: data.rowsRead)
        let templates = try SiteRenderer(templateOverrides: nil).templates
        func keys(_ data: ValidatedData, digestTable: OrderDigestTable?) -> (PageKeys, Aggregation) {
            let aggregation = Aggregator.aggregate(data)
            let context = SiteContext(
                configuration: configuration, data: data, aggregation: aggregation, rates: nil, history: [],
                now: GoldenSite.now, siteID: GoldenSite.siteID)
            return (PageKeys(context, templates: templates, digestTable: digestTable), aggregation)
        }
        let table = OrderDigestTable(data.orders, generation: data.$orders, places: GroupPlaces(data.groups), parallel: false)
        #expect(table.hold(for: data.$orders))
        #expect(!table.hold(for: changed.$orders))
        #expect(!table.hold(for: copied.$orders))
        // Without the orders' generation, a table holds for no orders.
        #expect(!OrderDigestTable(data.orders, places: GroupPlaces(data.groups), parallel: false).hold(for: data.$orders))
        for other in [changed, copied] {
            let (reused, aggregation) = keys(other, digestTable: table)
            let (fresh, _) = keys(other, digestTable: nil)
            for summary in aggregation.groups { #expect(reused.group(summary) == fresh.group(summary)) }
            for person in aggregation.people { #expect(reused.person(person) == fresh.person(person)) }
        }
        // The changed order's digest differs; the others' do not.
        let places = GroupPlaces(data.groups)
        let before = OrderDigestTable(data.orders, places: places, parallel: true)
        let after = OrderDigestTable(changed.orders, places: places, parallel: false)
        #expect(before.digests.count == data.orders.count * OrderDigestTable.size)
        #expect(before.digests[..<OrderDigestTable.size] != after.digests[..<OrderDigestTable.size])
        #expect(before.digests[OrderDigestTable.size...] == after.digests[OrderDigestTable.size...])
        #expect(before.groups == after.groups && before.groups.allSatisfy { $0 >= 0 })
        #expect(OrderDigestTable(data.orders, places: places, parallel: false).digests == before.digests)
    }

    /// A build's order digests are its valid rows' record digests, each with its sheet row: rejected
    /// rows are passed over, and rows that do not line up with the orders give none (the orders' fields
    /// are digested instead).
    @Test func orderDigestsAreTheValidRowsRecordDigests() async throws {
        let configuration = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let fetched = try await Fetcher(configuration: configuration).fetch()
        let validator = Validator(configuration: configuration)
        let sheet = try validator.validateSheet(orders: fetched.orders, groups: fetched.groups)
        let data = sheet.data
        #expect(!data.rejected.isEmpty && !data.orders.isEmpty)
        let outcome = try DiffStep(deletionGuard: nil, now: "2026-11-21T10:00:00Z", key: DiffFixtures.key).run(sheet, rates: nil, previous: nil, history: [])
        let valid = zip(sheet.rows, outcome.digests).filter { !$0.0.rejected }
        let orderDigests = OrderDigestTable.recordDigests(data, records: outcome.snapshot.rows, digests: outcome.digests)
        #expect(orderDigests == valid.map(\.1))
        #expect(valid.map(\.0.row) == data.orders.map(\.row))
        let digests = OrderDigestTable(data.orders, records: orderDigests, places: GroupPlaces(data.groups), parallel: true)
        #expect(digests.source == .records)
        for (index, order) in data.orders.enumerated() {
            let entry = Array(digests.digests[index * OrderDigestTable.size..<(index + 1) * OrderDigestTable.size])
            #expect(entry == orderDigests[index].bytes + withUnsafeBytes(of: UInt32(order.row).littleEndian, Array.init))
        }
        let first = try #require(sheet.rows.firstIndex { !$0.rejected })
        var records = outcome.snapshot.rows
        records.remove(at: first)
        var others = outcome.digests
        others.remove(at: first)
        #expect(OrderDigestTable.recordDigests(data, records: records, digests: others) == [])
        #expect(OrderDigestTable(data.orders, records: [], places: GroupPlaces(data.groups), parallel: false).source == .fields)
    }

    /// Numbers and lengths are written in as few bytes as they need (LEB128 of the zigzag form) and
    /// read back whole from them, each ending where its last byte says: no list of fields reads as another.
    @Test func numbersAreShortAndReadBack() async {
        let numbers = Generator<[Int], Shrink.None<[Int]>> { rng in
            (0..<Int.random(in: 1...6, using: &rng)).map { _ in
                [Int.min, Int.max, 0, -1, 63, -64, 64, Int.random(in: -300...300, using: &rng), Int.random(in: .min ... .max, using: &rng)]
                    .randomElement(using: &rng)!
            }
        }
        await propertyCheck(count: 1000, input: numbers) { numbers in
            var fields = PageKeys.Fields()
            for number in numbers { fields.add(number) }
            var read: [Int] = []
            var (value, shift): (UInt64, UInt64) = (0, 0)
            for byte in fields.bytes {
                value |= UInt64(byte & 0x7F) << shift
                shift += 7
                guard byte & 0x80 == 0 else { continue }
                read.append(Int(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)))
                (value, shift) = (0, 0)
            }
            #expect(read == numbers)
        }
    }

    @Test(arguments: [
        (0, [0x00]), (-1, [0x01]), (1, [0x02]), (63, [0x7E]), (-64, [0x7F]), (64, [0x80, 0x01]), (300, [0xD8, 0x04]),
        (Int.max, [0xFE] + Array(repeating: 0xFF, count: 8) + [0x01]), (Int.min, Array(repeating: 0xFF, count: 9) + [0x01]),
    ] as [(Int, [UInt8])])
    func numbersTakeTheBytesTheyNeed(number: Int, bytes: [UInt8]) {
        var fields = PageKeys.Fields()
        fields.add(number)
        #expect(fields.bytes == bytes)
    }

    /// Changing any one field of an order changes its digest, or pages showing that field would be
    /// kept stale. The fields are `Order`'s own (Mirror), so a new one is changed here too: its value
    /// comes from the table of one change per field type, and a field of a type the table lacks fails.
    @Test func changingAnyFieldOfAnOrderChangesItsDigest() throws {
        let order = Order(
            row: 2, id: "7", group: "g", person: "P", personKey: "p", item: "i", options: ["a"], quantity: 1,
            unitPrice: Decimal(string: "35.5")!, currency: "TWD", time: Date(timeIntervalSince1970: 1_763_716_500),
            timeText: "2025-11-21 09:15", note: "n", paid: false)
        let fields = Mirror(reflecting: order).children.map { $0.label ?? "" }
        // The stored properties' writable key paths, by name (the standard library's reflection, which
        // Mirror itself is built on: Mirror reads values but cannot write them).
        var paths: [String: PartialKeyPath<Order>] = [:]
        _forEachFieldWithKeyPath(of: Order.self) { name, path in
            paths[String(cString: name)] = path
            return true
        }
        #expect(fields.count > 1 && Set(fields) == Set(paths.keys))
        func digest(_ order: Order) -> [UInt8] {
            var scratch = PageKeys.Fields()
            var digest: [UInt8] = []
            OrderDigestTable.append(order, fields: &scratch, to: &digest)
            return digest
        }
        let original = digest(order)
        for field in fields {
            let path = try #require(paths[field])
            let changes = Self.changes(of: path, in: order)
            #expect(!changes.isEmpty, "no change in the table for \(field) (\(type(of: path).valueType))")
            for changed in changes {
                #expect(digest(changed) != original, "changing \(field) keeps the digest")
            }
        }
    }

    /// `order` with the field at `path` changed, one way per change its type can take (a text
    /// lengthened or emptied, nil against a value, an amount's sign and scale as well as its value);
    /// empty for a type not in the table.
    static func changes(of path: PartialKeyPath<Order>, in order: Order) -> [Order] {
        func set<Value>(_ path: WritableKeyPath<Order, Value>, _ values: [Value]) -> [Order] {
            values.map { value in
                var order = order
                order[keyPath: path] = value
                return order
            }
        }
        switch path {
        case let path as WritableKeyPath<Order, Int>: return set(path, [order[keyPath: path] + 1])
        case let path as WritableKeyPath<Order, Bool>: return set(path, [!order[keyPath: path]])
        case let path as WritableKeyPath<Order, PersonKey>: return set(path, [PersonKey(order[keyPath: path].text + "x"), .none])
        case let path as WritableKeyPath<Order, String>: return set(path, [order[keyPath: path] + "x", ""])
        case let path as WritableKeyPath<Order, String?>:
            return set(path, [(order[keyPath: path] ?? "") + "x", order[keyPath: path] == nil ? "" : nil])
        case let path as WritableKeyPath<Order, [String]>:
            return set(path, [order[keyPath: path] + ["x"], [], [order[keyPath: path].joined() + "x"]])
        case let path as WritableKeyPath<Order, Decimal>:
            let value = order[keyPath: path]
            return set(path, [value + 1, -value, value / 1000, value * 1000])
        case let path as WritableKeyPath<Order, Date?>:
            return set(path, [order[keyPath: path].map { $0 + 1 } ?? Date(timeIntervalSince1970: 0), order[keyPath: path] == nil ? Date(timeIntervalSince1970: 0) : nil])
        default: return []
        }
    }
}
