import Foundation
import GRDB
import PropertyBased
import Testing
import OrderPressDiff
import OrderPressSupport
import OrderPressTestSupport

/// A rerun after one order's change publishes what a build with nothing to reuse publishes, byte for
/// byte: generated sheets (Latin and CJK names, several groups, secret edit codes), then a sequence of
/// one-row changes of every kind the bench makes (price, option, note, paid, time, quantity, the person:
/// someone else or someone new, the order deleted) and changes that touch every page (the site's title,
/// a group's shop), and those that reuse across groups could get wrong: an order moved to another group
/// (its person's totals in both, and across groups), a group's fee (every share of it), a rate (every
/// converted total), a group added to the groups sheet with an order in it or taken out of it, a column
/// of `orders.csv` mapped otherwise (the options), and those that reach the records of other rows (a
/// group's currency, an id used twice, a second spelling of a person, a date that settles whether days or
/// months come first, an order submitted twice, a group's organiser), and a price changed while published pages were
/// edited and deleted by hand (the rerun keeps pages by the manifest, but only those still as published). Before each rerun, the state is copied into an empty folder, its snapshot's context
/// forgotten (so that no record is kept: each is made again from its row), and the same sources built
/// there at the same clock: that build reuses nothing, and its Markdown, its HTML and the snapshot it saves
/// must equal the rerun's.
@Suite struct RerunEqualsFreshBuildTests {
    static let people = ["Amy", "Ben", "陳小明", "林美玲", "Zoë", "Ōta Kenji", "王大同", "Eve"]
    static let drinks = ["熟成紅茶", "珍珠奶茶", "四季春青茶", "Lemon tea"]
    static let groups = ["週五下午茶", "Lunch", "Boba"]

    /// What a change may alter besides the orders: the configuration, the groups sheet and the rates.
    struct Settings {
        var title = "Tea"
        var shops: [String: String] = [:]
        var groups = RerunEqualsFreshBuildTests.groups
        var fees: [String: Int] = ["Boba": 30]
        var currencies = ["Lunch": "USD"]
        var twdPerUSD = 32
        var options = ["size", "sugar", "ice"]
        var organizers: [String: String] = [:]
    }

    /// A small deterministic generator from the property's seed.
    struct Dice {
        var state: UInt64
        mutating func roll(_ count: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(count))
        }
    }

    static func sheet(_ dice: inout Dice) -> [[String: String]] {
        (1...(8 + dice.roll(25))).map { number in
            [
                "id": String(number), "group": groups[dice.roll(groups.count)], "orderer": people[dice.roll(people.count)],
                "drink": drinks[dice.roll(drinks.count)], "size": dice.roll(2) == 0 ? "L" : "M",
                "sugar": ["無糖", "半糖", "全糖"][dice.roll(3)], "ice": "少冰", "quantity": String(1 + dice.roll(3)),
                "price": String(30 + 5 * dice.roll(6)), "time": String(format: "2026-11-21 %02d:%02d", 8 + number / 60, number % 60),
                "paid": dice.roll(3) == 0 ? "yes" : "", "note": dice.roll(4) == 0 ? "少冰" : "", "editCode": String(1000 + dice.roll(9000)),
            ]
        }
    }

    static let kinds = [
        "price", "option", "note", "paid", "time", "quantity", "person", "newperson", "delete", "title", "shop", "move", "fee", "rates",
        "addgroup", "removegroup", "columns", "currency", "sameid", "spelling", "date", "copy", "organizer", "secret", "boundary", "edited",
    ]

    /// One change of `kind` to one order (or to the site's configuration, groups or rates).
    static func change(_ kind: String, _ orders: inout [[String: String]], settings: inout Settings, _ dice: inout Dice) {
        let index = dice.roll(orders.count)
        switch kind {
        // "edited": a price beside pages edited and deleted by hand (`tamper`).
        case "price", "edited": orders[index]["price"] = String(Int(orders[index]["price"]!)! + 1)
        case "option": orders[index]["sugar"] = orders[index]["sugar"] == "無糖" ? "半糖" : "無糖"
        case "note": orders[index]["note"] = (orders[index]["note"] ?? "") + " 改"
        case "paid": orders[index]["paid"] = orders[index]["paid"] == "yes" ? "" : "yes"
        case "time": orders[index]["time"] = "2026-11-21 18:\(10 + dice.roll(40))"
        case "quantity": orders[index]["quantity"] = String(Int(orders[index]["quantity"]!)! % 3 + 1)
        // Someone else who has orders; after a "newperson" change the order's person is in no list.
        case "person": orders[index]["orderer"] = people[((people.firstIndex(of: orders[index]["orderer"]!) ?? -1) + 1) % people.count]
        case "newperson": orders[index]["orderer"] = "新來的 \(dice.roll(1000))"
        case "delete": if orders.count > 2 { orders.remove(at: index) }
        case "title": settings.title += " 改"
        // To a group of the sheet other than its own: its person's totals in both groups change, not across them.
        case "move":
            let others = settings.groups.filter { $0 != orders[index]["group"] }
            if !others.isEmpty { orders[index]["group"] = others[dice.roll(others.count)] }
        case "fee":
            let group = settings.groups[dice.roll(settings.groups.count)]
            settings.fees[group] = (settings.fees[group] ?? 0) + 10
        case "rates": settings.twdPerUSD += 1
        // A group the groups sheet did not list, with one order in it.
        case "addgroup":
            let group = "新團 \(settings.groups.count)-\(dice.roll(1000))"
            settings.groups.append(group)
            orders[index]["group"] = group
        // Its orders are then in a group no sheet lists.
        case "removegroup": if settings.groups.count > 1 { settings.groups.remove(at: dice.roll(settings.groups.count)) }
        // A group's currency, which its orders without one of their own take.
        case "currency": settings.currencies[settings.groups[dice.roll(settings.groups.count)]] = "JPY"
        case "sameid": orders[index]["id"] = orders[dice.roll(orders.count)]["id"]
        // Another order of someone who has one, spelt with other case and spacing.
        case "spelling": orders[index]["orderer"] = " " + orders[dice.roll(orders.count)]["orderer"]!.uppercased() + " "
        // Day first: 13 cannot be a month, which settles how the sheet's other dates read.
        case "date": orders[index]["time"] = "13/11/2026 09:\(10 + dice.roll(40))"
        // The same order submitted twice: two rows alike in every cell, their id no longer anyone's alone.
        case "copy": orders.insert(orders[index], at: dice.roll(orders.count + 1))
        // A group's organiser one letter away from someone who orders: a warning read from every row.
        case "organizer": settings.organizers[settings.groups[dice.roll(settings.groups.count)]] = "Amyy"
        // Only a secret cell: the row's record keeps its hash, so the rerun must see the row changed.
        case "secret": orders[index]["editCode"] = String(Int(orders[index]["editCode"]!)! % 9000 + 1001)
        // A character moved from the end of one cell to the start of the next in the header's (sorted)
        // order: the row's bytes, one after the other, are the same.
        case "boundary":
            let orderer = orders[index]["orderer"]!
            orders[index]["orderer"] = String(orderer.dropLast())
            orders[index]["paid"] = String(orderer.last!) + (orders[index]["paid"] ?? "")
        case "columns": settings.options = settings.options.count == 3 ? ["size", "sugar"] : ["size", "sugar", "ice"]
        default:
            let group = settings.groups[dice.roll(settings.groups.count)]
            settings.shops[group] = (settings.shops[group] ?? "Shop") + " 改"
        }
    }

    static func write(_ orders: [[String: String]], settings: Settings, in site: URL) throws {
        TestSupport.write(
            [
                "orderpress.toml": """
                    title = "\(settings.title)"
                    language = "zh-Hant"
                    base_currency = "TWD"
                    display_currencies = ["USD", "TWD"]
                    [orders]
                    path = "orders.json"
                    [orders.columns]
                    options = [\(settings.options.map { "\"\($0)\"" }.joined(separator: ", "))]
                    secret = ["editCode"]
                    [groups]
                    path = "groups.csv"
                    [rates]
                    path = "rates.json"
                    format = "json"
                    [minor_units]
                    TWD = 0
                    """,
                "groups.csv": "group,organizer,shop,currency,fee\n"
                    + settings.groups.map { group in
                        "\(group),\(settings.organizers[group] ?? "Amy"),\(settings.shops[group] ?? "Shop"),\(settings.currencies[group] ?? "TWD"),\(settings.fees[group].map(String.init) ?? "")"
                    }.joined(separator: "\n") + "\n",
                "rates.json": #"{"base": "USD", "date": "2026-11-20", "rates": {"TWD": \#(settings.twdPerUSD), "JPY": 154.32}}"#,
            ], in: site)
        try JSONSerialization.data(withJSONObject: orders, options: [.sortedKeys]).write(to: site.appendingPathComponent("orders.json"))
    }

    /// Edits a published person's page by hand in each tree (other bytes, the same size) and deletes
    /// another's: a rerun that keeps pages by the last manifest must still put both back.
    static func tamper(with site: URL) throws {
        let output = site.appendingPathComponent("output")
        for tree in ["markdown", "site"] {
            let pages = try TestSupport.contents(of: output.appendingPathComponent(tree)).keys.filter { $0.hasPrefix("people/") }.sorted()
            guard pages.count >= 2 else { continue }
            let edited = output.appendingPathComponent("\(tree)/\(pages[0])")
            var bytes = try Data(contentsOf: edited)
            bytes[bytes.startIndex] = bytes.first == UInt8(ascii: "#") ? UInt8(ascii: "!") : UInt8(ascii: "#")
            try bytes.write(to: edited)
            try FileManager.default.removeItem(at: output.appendingPathComponent("\(tree)/\(pages[1])"))
        }
    }

    static func build(_ site: URL, at time: Int) throws {
        let run = try TestSupport.run(["build", "--accept-deletions"], in: site, environment: ["SOURCE_DATE_EPOCH": String(time)])
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// The published trees, without the state.
    static func published(_ site: URL) throws -> [String: Data] {
        try TestSupport.contents(of: site.appendingPathComponent("output")).filter { !$0.key.hasPrefix("state/") }
    }

    /// Makes the state's snapshot one whose records' context is unknown: the next build keeps none of them.
    /// A new folder with `orders` and `settings` as sources and `site`'s state as a rerun finds it, with
    /// nothing published (no manifest): a build there makes every file from that state.
    static func freshCopy(of site: URL, orders: [[String: String]], settings: Settings) throws -> URL {
        let fresh = TestSupport.temporaryFolder()
        try write(orders, settings: settings, in: fresh)
        try FileManager.default.createDirectory(at: fresh.appendingPathComponent("output"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: site.appendingPathComponent("output/state"), to: fresh.appendingPathComponent("output/state"))
        let manifest = fresh.appendingPathComponent("output/state/published.json")
        if FileManager.default.fileExists(atPath: manifest.path) { try FileManager.default.removeItem(at: manifest) }
        return fresh
    }

    static func forgetContext(in site: URL) throws {
        let queue = try DatabaseQueue(path: site.appendingPathComponent("output/state/state.sqlite").path)
        try queue.write { try $0.execute(sql: "UPDATE snapshot SET context = NULL") }
        try queue.close()
    }

    /// The snapshot the state holds, every record read in full.
    static func snapshot(_ site: URL) throws -> Snapshot? {
        try StateStore(folder: site.appendingPathComponent("output/state"), writable: false).loadSnapshot()
    }

    @Test func aRerunPublishesWhatABuildWithNothingToReusePublishes() async {
        await propertyCheck(count: 3, input: Gen.int(in: 0...1_000_000)) { seed in
            var dice = Dice(state: UInt64(seed))
            var orders = Self.sheet(&dice)
            var settings = Settings()
            let site = TestSupport.temporaryFolder()
            var time = 1_795_255_200
            try! Self.write(orders, settings: settings, in: site)
            try! Self.build(site, at: time)
            // Every kind once, in an order of the seed's.
            var kinds = Self.kinds
            for index in kinds.indices.reversed() { kinds.swapAt(index, dice.roll(index + 1)) }
            for (step, kind) in kinds.enumerated() {
                Self.change(kind, &orders, settings: &settings, &dice)
                try! Self.write(orders, settings: settings, in: site)
                // The same sources and the state as the rerun finds it, with nothing published.
                let fresh = try! Self.freshCopy(of: site, orders: orders, settings: settings)
                try! Self.forgetContext(in: fresh)
                if kind == "edited" { try! Self.tamper(with: site) }
                time += 600
                try! Self.build(site, at: time)
                try! Self.build(fresh, at: time)
                let (rerun, scratch) = (try! Self.published(site), try! Self.published(fresh))
                #expect(rerun.keys.sorted() == scratch.keys.sorted(), "\(kind)")
                for (path, bytes) in rerun where scratch[path] != bytes {
                    Issue.record("\(kind), step \(step): \(path) differs from a build with nothing to reuse")
                }
                // Their contexts differ: the configuration names each site's own folders.
                var (kept, made) = (try! Self.snapshot(site), try! Self.snapshot(fresh))
                #expect(kept?.context != nil)
                kept?.context = nil
                made?.context = nil
                if kept != made { Issue.record("\(kind), step \(step): the snapshot differs from one whose records were all made again") }
            }
        }
    }

    /// An unchanged row whose id a second row takes, or stops sharing with it: the rerun keeps the
    /// unchanged row's record, but not its identity, which is by content while its id is shared and by
    /// id otherwise; the rerun publishes and saves what a build with nothing to reuse does.
    @Test(arguments: ["shared", "unshared"])
    func anUnchangedRowsIdentityFollowsItsIdShared(_ kind: String) throws {
        var dice = Dice(state: 11)
        var orders = Self.sheet(&dice)
        let settings = Settings()
        let (first, second) = (2, orders.count - 2)
        if kind == "unshared" { orders[second]["id"] = orders[first]["id"] }
        let site = TestSupport.temporaryFolder()
        try Self.write(orders, settings: settings, in: site)
        try Self.build(site, at: 1_795_255_200)
        orders[second]["id"] = kind == "shared" ? orders[first]["id"] : "unshared-\(second)"
        try Self.write(orders, settings: settings, in: site)
        let fresh = try Self.freshCopy(of: site, orders: orders, settings: settings)
        try Self.forgetContext(in: fresh)
        try Self.build(site, at: 1_795_255_800)
        try Self.build(fresh, at: 1_795_255_800)
        #expect(try Self.published(site) == (try Self.published(fresh)))
        var (kept, made) = (try Self.snapshot(site), try Self.snapshot(fresh))
        #expect(kept?.context != nil)
        kept?.context = nil
        made?.context = nil
        #expect(kept == made)
        // The unchanged row is identified as a row validated in full identifies it.
        let identity = try #require(kept?.rows.first { $0.row == first + 2 }?.identity)
        #expect(identity.hasPrefix("id:") == (kind == "unshared"))
    }

    /// A site whose manifest recorded `summary.json` and `orders.csv` by the SHA-256 of all their bytes, as
    /// versions before `FilePieces.contentDigest` did: a rerun after a change that gives `summary.json`'s
    /// entries new keys and the same bytes (a shop's name) leaves it as it is, and publishes what a build
    /// with nothing to reuse publishes; the rerun after it writes nothing.
    @Test func aManifestOfWholeFileDigestsIsFollowed() throws {
        var dice = Dice(state: 7)
        let orders = Self.sheet(&dice)
        var settings = Settings()
        let site = TestSupport.temporaryFolder()
        try Self.write(orders, settings: settings, in: site)
        try Self.build(site, at: 1_795_255_200)
        let manifest = site.appendingPathComponent("output/state/published.json")
        var text = try String(contentsOf: manifest, encoding: .utf8)
        for name in ["summary.json", "orders.csv"] {
            let digest = ContentDigest(of: try Data(contentsOf: site.appendingPathComponent("output/site/\(name)")))
            let entry = try #require(text.range(of: "\"path\": \"\(name)\""))
            let field = try #require(text.range(of: "\"sha256\": \"", range: entry.upperBound..<text.endIndex))
            text.replaceSubrange(field.upperBound..<text.index(field.upperBound, offsetBy: ContentDigest.hexLength), with: digest.description)
        }
        try text.write(to: manifest, atomically: false, encoding: .utf8)
        let summary = site.appendingPathComponent("output/site/summary.json")
        let written = try FileManager.default.attributesOfItem(atPath: summary.path)[.modificationDate] as? Date

        settings.shops["Boba"] = "Another shop"
        try Self.write(orders, settings: settings, in: site)
        let fresh = try Self.freshCopy(of: site, orders: orders, settings: settings)
        try Self.build(site, at: 1_795_255_800)
        try Self.build(fresh, at: 1_795_255_800)
        #expect(try Self.published(site) == (try Self.published(fresh)))
        #expect(try FileManager.default.attributesOfItem(atPath: summary.path)[.modificationDate] as? Date == written)

        let rerun = try TestSupport.run(["build"], in: site, environment: ["SOURCE_DATE_EPOCH": "1795256400"])
        #expect(rerun.status == 0)
        #expect(rerun.stdout.contains("0 files written"), "\(rerun.stdout)")
    }
}
