import Foundation
import GRDB
import PropertyBased
import Testing
import OrderPressDiff
import OrderPressTestSupport

/// A rerun after one order's change publishes what a build with nothing to reuse publishes, byte for
/// byte: generated sheets (Latin and CJK names, several groups, secret edit codes), then a sequence of
/// one-row changes of every kind the bench makes (price, option, note, paid, time, quantity, the person:
/// someone else or someone new, the order deleted) and changes that touch every page (the site's title,
/// a group's shop) or the records of other rows (a group's currency, an id used twice, a second spelling of
/// a person, a date that settles whether days or months come first). Before each rerun, the state is
/// copied into an empty folder, its snapshot's context forgotten (so that no record is kept: each is made
/// again from its row), and the same sources built there at the same clock: that build reuses nothing,
/// and its Markdown, its HTML and the snapshot it saves must equal the rerun's.
@Suite struct RerunEqualsFreshBuildTests {
    static let people = ["Amy", "Ben", "陳小明", "林美玲", "Zoë", "Ōta Kenji", "王大同", "Eve"]
    static let drinks = ["熟成紅茶", "珍珠奶茶", "四季春青茶", "Lemon tea"]
    static let groups = ["週五下午茶", "Lunch", "Boba"]

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
        "price", "option", "note", "paid", "time", "quantity", "person", "newperson", "delete", "title", "shop", "currency", "sameid",
        "spelling", "date",
    ]

    /// One change of `kind` to one order (or to the site's configuration or groups; a group's shop, or its
    /// currency, which its orders without one of their own take).
    static func change(_ kind: String, _ orders: inout [[String: String]], title: inout String, shops: inout [String: String], _ dice: inout Dice) {
        let index = dice.roll(orders.count)
        switch kind {
        case "currency": shops["currency " + groups[dice.roll(groups.count)]] = "USD"
        case "sameid": orders[index]["id"] = orders[dice.roll(orders.count)]["id"]
        // Another order of someone who has one, spelt with other case and spacing.
        case "spelling": orders[index]["orderer"] = " " + orders[dice.roll(orders.count)]["orderer"]!.uppercased() + " "
        // Day first: 13 cannot be a month, which settles how the sheet's other dates read.
        case "date": orders[index]["time"] = "13/11/2026 09:\(10 + dice.roll(40))"
        case "price": orders[index]["price"] = String(Int(orders[index]["price"]!)! + 1)
        case "option": orders[index]["sugar"] = orders[index]["sugar"] == "無糖" ? "半糖" : "無糖"
        case "note": orders[index]["note"] = (orders[index]["note"] ?? "") + " 改"
        case "paid": orders[index]["paid"] = orders[index]["paid"] == "yes" ? "" : "yes"
        case "time": orders[index]["time"] = "2026-11-21 18:\(10 + dice.roll(40))"
        case "quantity": orders[index]["quantity"] = String(Int(orders[index]["quantity"]!)! % 3 + 1)
        // Someone else who has orders; after a "newperson" change the order's person is in no list.
        case "person": orders[index]["orderer"] = people[((people.firstIndex(of: orders[index]["orderer"]!) ?? -1) + 1) % people.count]
        case "newperson": orders[index]["orderer"] = "新來的 \(dice.roll(1000))"
        case "delete": if orders.count > 2 { orders.remove(at: index) }
        case "title": title += " 改"
        default:
            let group = groups[dice.roll(groups.count)]
            shops[group] = (shops[group] ?? "Shop") + " 改"
        }
    }

    static func write(_ orders: [[String: String]], title: String, shops: [String: String], in site: URL) throws {
        TestSupport.write(
            [
                "orderpress.toml": """
                    title = "\(title)"
                    language = "zh-Hant"
                    base_currency = "TWD"
                    [orders]
                    path = "orders.json"
                    [orders.columns]
                    secret = ["editCode"]
                    [groups]
                    path = "groups.csv"
                    [minor_units]
                    TWD = 0
                    """,
                "groups.csv": "group,organizer,shop,currency\n"
                    + groups.map { "\($0),Amy,\(shops[$0] ?? "Shop"),\(shops["currency " + $0] ?? "")" }.joined(separator: "\n") + "\n",
            ], in: site)
        try JSONSerialization.data(withJSONObject: orders, options: [.sortedKeys]).write(to: site.appendingPathComponent("orders.json"))
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
            var (title, shops) = ("Tea", [String: String]())
            let site = TestSupport.temporaryFolder()
            var time = 1_795_255_200
            try! Self.write(orders, title: title, shops: shops, in: site)
            try! Self.build(site, at: time)
            // Every kind once, in an order of the seed's.
            var kinds = Self.kinds
            for index in kinds.indices.reversed() { kinds.swapAt(index, dice.roll(index + 1)) }
            for (step, kind) in kinds.enumerated() {
                Self.change(kind, &orders, title: &title, shops: &shops, &dice)
                try! Self.write(orders, title: title, shops: shops, in: site)
                // The same sources and the state as the rerun finds it, with nothing published.
                let fresh = TestSupport.temporaryFolder()
                try! Self.write(orders, title: title, shops: shops, in: fresh)
                try! FileManager.default.createDirectory(at: fresh.appendingPathComponent("output"), withIntermediateDirectories: true)
                try! FileManager.default.copyItem(at: site.appendingPathComponent("output/state"), to: fresh.appendingPathComponent("output/state"))
                try? FileManager.default.removeItem(at: fresh.appendingPathComponent("output/state/published.json"))
                try! Self.forgetContext(in: fresh)
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
}
