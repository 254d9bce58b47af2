import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
import OrderPressTestSupport

/// A month of weekly rounds under cron, seeded, with `ChaosTests`' faults (kills at pause points, failing
/// writes and renames): two groups, Tea (Amy, deadline Friday 15:00) and Lunch (Ben, Wednesday 12:00),
/// each taking orders from Monday, cleared by the organiser once the site has shown the round after its
/// deadline, then given next week's deadline. Four weeks close eight rounds; what people still owed is
/// carried. For two weeks there is no `[payments]` source and debts expire after `keep_unpaid_days` (5);
/// on day 14 the organiser adds one and records settle-ups at random (some naming the group, some more than
/// owed). After every run the oracle checks what `ChaosTests` checks (a failed or killed run changed no
/// state; a successful one left what a twin built without faults leaves) and, against its own ledger
/// (written here from the user guide's words, not production's rules): every person's carried debts in
/// `summary.json` (round, group, amount still owed) and their credit. `CHAOS_RUNS` is the number of runs
/// spread over the 28 days (default 28: one a day; `CHAOS_RUNS=300` for a soak run), `CHAOS_SEED` the seed.
@Suite struct ChaosRoundsTests {
    typealias Random = ChaosTests.SeededGenerator

    /// Monday 2026-11-02 00:00 in Taipei.
    static let monday = 1_793_548_800
    static let day = 86_400
    static let header = "id,group,orderer,drink,size,sugar,ice,quantity,price,paid"
    static let people = ["Amy", "Ben", "Cat", "Dan", "Eve", "小明", "Zoë"]
    static let menu = [("熟成紅茶", 45), ("珍珠奶茶", 50), ("冬瓜檸檬", 40), ("排骨飯", 100), ("雞腿飯", 110)]

    struct Order {
        var id: Int
        var group: String
        var person: String
        var item: String
        var quantity: Int
        var price: Int
        var paid: Bool

        var row: String { "\(id),\(group),\(person),\(item),M,半糖,少冰,\(quantity),\(price),\(paid ? "TRUE" : "FALSE")" }
    }

    /// One group's weekly round: its organiser, and when this week's deadline falls after Monday 00:00.
    struct Group {
        var name: String
        var organizer: String
        var deadlineOffset: Int
        /// This round's week (0 to 3); a cleared round waits for a success to close, then moves to the next week.
        var week = 0
        var cleared = false
        /// The round's orders when the organiser cleared them: what the last run after the deadline published.
        var final: [Order] = []

        func deadline() -> Int { ChaosRoundsTests.monday + week * 7 * ChaosRoundsTests.day + deadlineOffset }
        func deadlineText() -> String { ChaosRoundsTests.taipei(deadline(), format: "yyyy-MM-dd HH:mm") }
    }

    /// What the oracle expects a person to still owe from one finished round.
    struct Debt: Hashable {
        var person: String
        var round: String
        var group: String
        var amount: Int
    }

    /// A debt as its round closed: `closedAt`, the run that closed it, orders debts (then the group's name).
    struct Owed {
        var debt: Debt
        var closedAt: Int
    }

    struct Payment {
        var person: String
        var amount: Int
        var group: String?
    }

    static let keepUnpaidDays = 5
    static let paymentsFrom = monday + 14 * day

    /// Settling as docs/money-and-rounds.md (Rounds and debts) states it: without a payments source a debt is listed
    /// until `keep_unpaid_days` after its close; with one, a payment naming a group pays that group's debts,
    /// oldest first, and the rest of it, with every payment naming none, the person's oldest debts; what
    /// is left over is credit.
    static func expected(_ owed: [Owed], _ payments: [Payment]?, clock: Int) -> (debts: Set<Debt>, credit: [String: Int]) {
        let oldestFirst = owed.sorted { ($0.closedAt, $0.debt.group) < ($1.closedAt, $1.debt.group) }
        guard let payments else {
            return (Set(oldestFirst.filter { clock < $0.closedAt + keepUnpaidDays * day }.map(\.debt)), [:])
        }
        var left = oldestFirst.map(\.debt)
        var pool: [String: Int] = [:]
        func pay(_ amount: inout Int, _ person: String, group: String?) {
            for index in left.indices where amount > 0 && left[index].person == person && (group == nil || left[index].group == group) {
                let part = min(amount, left[index].amount)
                (left[index].amount, amount) = (left[index].amount - part, amount - part)
            }
        }
        for payment in payments {
            var amount = payment.amount
            if let group = payment.group { pay(&amount, payment.person, group: group) }
            pool[payment.person, default: 0] += amount
        }
        var credit: [String: Int] = [:]
        for (person, total) in pool {
            var amount = total
            pay(&amount, person, group: nil)
            if amount > 0 { credit[person] = amount }
        }
        return (Set(left.filter { $0.amount > 0 }), credit)
    }

    static func taipei(_ epoch: Int, format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Asia/Taipei")
        formatter.dateFormat = format
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(epoch)))
    }

    /// RoundsTests' site of a TWD `orders.csv` and `groups.csv` with rounds closing, debts kept five days.
    static let configuration = RoundsTests.configuration(extra: "keep_unpaid_days = \(keepUnpaidDays)")
    static let withPayments = configuration + "\n[payments]\npath = \"payments.csv\"\n"

    static func write(_ orders: [Order], _ groups: [Group], _ payments: [Payment]?, to site: URL) throws {
        try Data((payments == nil ? configuration : withPayments).utf8).write(to: site.appendingPathComponent("orderpress.toml"))
        let paid = ["person,amount,group"] + (payments ?? []).map { "\($0.person),\($0.amount),\($0.group ?? "")" }
        try Data((paid.joined(separator: "\n") + "\n").utf8).write(to: site.appendingPathComponent("payments.csv"))
        let rows = [header] + orders.sorted { $0.id < $1.id }.map(\.row)
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: site.appendingPathComponent("orders.csv"))
        let lines = ["group,organizer,shop,currency,deadline"] + groups.map { "\($0.name),\($0.organizer),店,TWD,\($0.deadlineText())" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: site.appendingPathComponent("groups.csv"))
    }

    /// The organiser's and the members' moves before a run at `clock`: orders placed, changed, paid or
    /// deleted in open rounds; a round whose deadline passed and that a successful run has shown since is cleared
    /// (the weekly reset).
    static func edit(
        _ orders: inout [Order], _ groups: inout [Group], clock: Int, shownSince lastSuccess: Int?, nextID: inout Int, using random: inout Random
    ) -> String {
        var moves: [String] = []
        for index in groups.indices where !groups[index].cleared && groups[index].week < 4 {
            let group = groups[index]
            if clock >= group.deadline(), !orders.contains(where: { $0.group == group.name }) {
                groups[index].week += 1  // nobody ordered: no round to close, next week's deadline
                continue
            }
            if clock >= group.deadline() {
                // Cleared only when a run after the deadline has published the round: a round closes only
                // if its orders were still there at the deadline (docs/money-and-rounds.md, The weekly reset).
                if let shown = lastSuccess, shown >= group.deadline(), orders.contains(where: { $0.group == group.name }) {
                    groups[index].final = orders.filter { $0.group == group.name }
                    orders.removeAll { $0.group == group.name }
                    groups[index].cleared = true
                    moves.append("\(group.name) cleared")
                }
                continue
            }
            guard clock >= group.deadline() - 5 * day else { continue }
            let mine = orders.indices.filter { orders[$0].group == group.name }
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1, 2:
                let (item, price) = menu.randomElement(using: &random)!
                nextID += 1
                let person = people.randomElement(using: &random)!
                orders.append(Order(id: nextID, group: group.name, person: person, item: item, quantity: Int.random(in: 1...3, using: &random), price: price, paid: false))
                moves.append("\(person) ordered \(item) in \(group.name)")
            case 3 where !mine.isEmpty:
                let index = mine.randomElement(using: &random)!
                orders[index].paid.toggle()
                moves.append("order \(orders[index].id) paid \(orders[index].paid)")
            case 4 where !mine.isEmpty:
                let index = mine.randomElement(using: &random)!
                orders[index].quantity = Int.random(in: 1...3, using: &random)
                moves.append("order \(orders[index].id) quantity \(orders[index].quantity)")
            case 5 where orders.count >= 8 && !mine.isEmpty:
                // One deletion among eight or more open orders stays under the guard's half.
                let index = mine.randomElement(using: &random)!
                moves.append("order \(orders.remove(at: index).id) deleted")
            default: break
            }
        }
        return moves.isEmpty ? "no edit" : moves.joined(separator: ", ")
    }

    /// What each person still owed when `group`'s round closed: unpaid orders, the organiser's own settled.
    static func debts(of group: Group, in orders: [Order]) -> [Debt] {
        var owed: [String: Int] = [:]
        for order in orders where order.group == group.name && !order.paid && order.person != group.organizer {
            owed[order.person, default: 0] += order.quantity * order.price
        }
        let round = taipei(group.deadline(), format: "yyyy-MM-dd")
        return owed.filter { $0.value > 0 }.map { Debt(person: $0.key, round: round, group: group.name, amount: $0.value) }
    }

    /// The carried debts `summary.json` publishes, as the oracle's `Debt`s, and each listed person's credit.
    static func published(_ site: URL) throws -> (debts: Set<Debt>, credit: [String: Int]) {
        let data = try Data(contentsOf: site.appendingPathComponent("output/site/summary.json"))
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var result = Set<Debt>()
        var credit: [String: Int] = [:]
        for person in summary["people"] as? [[String: Any]] ?? [] {
            if let amounts = person["credit"] as? [String: String] {
                #expect(Array(amounts.keys) == ["TWD"])
                credit[person["name"] as? String ?? "?"] = Int(amounts["TWD"] ?? "")
            }
            for debt in person["carried"] as? [[String: Any]] ?? [] {
                let amount = try #require(Int(debt["amount"] as? String ?? ""), "\(debt)")
                #expect(debt["currency"] as? String == "TWD")
                result.insert(Debt(person: person["name"] as? String ?? "?", round: debt["round"] as? String ?? "?", group: debt["group"] as? String ?? "?", amount: amount))
            }
        }
        return (result, credit)
    }

    @Test func aMonthOfWeeklyRounds() async throws {
        let environment = ProcessInfo.processInfo.environment
        let runs = max(28, environment["CHAOS_RUNS"].flatMap(Int.init) ?? 28)
        let seed = environment["CHAOS_SEED"].flatMap(UInt64.init) ?? 2211
        var random = Random(state: seed)
        let step = 28 * Self.day / runs
        var orders: [Order] = []
        var groups = [Group(name: "Tea", organizer: "Amy", deadlineOffset: 4 * Self.day + 15 * 3600), Group(name: "Lunch", organizer: "Ben", deadlineOffset: 2 * Self.day + 12 * 3600)]
        var nextID = 0
        var owed: [Owed] = []
        var payments: [Payment]?
        var lastSuccess: Int?
        var tally: [String: Int] = [:]
        var closed = 0

        let (site, twin) = (TestSupport.temporaryFolder(), TestSupport.temporaryFolder())
        for folder in [site, twin] { TestSupport.write(["orderpress.toml": Self.configuration], in: folder) }
        for run in 0..<runs {
            let clock = Self.monday + run * step + 3600
            var edit = Self.edit(&orders, &groups, clock: clock, shownSince: lastSuccess, nextID: &nextID, using: &random)
            if clock >= Self.paymentsFrom {
                // The organiser records a settle-up now and then: part of a debt, all of it, or more, naming the group or not.
                if payments == nil { (payments, edit) = ([], edit + ", [payments] added") }
                let owing = Self.expected(owed, payments, clock: clock).debts.sorted { ($0.person, $0.round, $0.group) < ($1.person, $1.round, $1.group) }
                if let debt = owing.randomElement(using: &random), Bool.random(using: &random) {
                    let amount = [debt.amount, Int.random(in: 1...debt.amount), debt.amount + Int.random(in: 1...30)].randomElement(using: &random)!
                    let group = Bool.random(using: &random) ? debt.group : nil
                    payments!.append(Payment(person: debt.person, amount: amount, group: group))
                    edit += ", \(debt.person) paid \(amount)\(group.map { " for \($0)" } ?? "")"
                }
            }
            let fault: ChaosTests.Fault
            switch run == 0 ? .none : ChaosTests.fault(using: &random) {
            case .server: fault = .none  // the sheets are files here
            case let other: fault = other
            }
            try Self.write(orders, groups, payments, to: site)
            let environment = ["SOURCE_DATE_EPOCH": String(clock)]
            let before = try ChaosTests.outcome(site)
            let temporaries = Set(TestSupport.files(in: site.appendingPathComponent("output")).filter { $0.contains(AtomicFile.temporaryMarker) })
            let what = "run \(run) (seed \(seed), \(Self.taipei(clock, format: "MM-dd HH:mm"))): \(edit), \(fault)"

            let (status, killed, stderr) = try await ChaosTests.build(site, under: fault, environment: environment)
            if case .none = fault { #expect(status == 0, "a run without a fault failed: \(what): \(stderr)") }
            tally[ChaosTests.outcomeName(status, killed: killed), default: 0] += 1

            let after = try ChaosTests.outcome(site)
            if status != 0 {
                #expect(after["state/state.sqlite"] == before["state/state.sqlite"], "the state changed: \(what)")
                guard !killed else { continue }
                #expect(Set(after.keys) == Set(before.keys), "files appeared or vanished: \(what)")
                for (path, data) in before where after[path] != data { Issue.record("\(path) changed although the run failed: \(what)") }
                let left = Set(TestSupport.files(in: site.appendingPathComponent("output")).filter { $0.contains(AtomicFile.temporaryMarker) })
                #expect(left.isSubset(of: temporaries), "temporary files left: \(what)")
                continue
            }
            lastSuccess = clock
            // The rounds the organiser cleared close on the first run that succeeds after: their debts are carried.
            for index in groups.indices where groups[index].cleared {
                owed += Self.debts(of: groups[index], in: groups[index].final).map { Owed(debt: $0, closedAt: clock) }
                groups[index].cleared = false
                groups[index].week += 1
                closed += 1
            }
            // The twin builds the same sheets at the same clock, without faults, only on the runs that succeeded.
            for name in ["orders.csv", "groups.csv", "payments.csv", "orderpress.toml"] {
                try Data(contentsOf: site.appendingPathComponent(name)).write(to: twin.appendingPathComponent(name))
            }
            let reference = try await TestSupport.runDetached(["build", "--quiet"], in: twin, environment: environment)
            #expect(reference.status == 0, "the twin failed: \(what): \(reference.stderr)")
            let expected = try ChaosTests.outcome(twin)
            #expect(Set(after.keys) == Set(expected.keys), "\(Set(after.keys).symmetricDifference(expected.keys).sorted()): \(what)")
            for (path, data) in expected where after[path] != data { Issue.record("\(path) is not what a build without faults makes: \(what)") }
            let (debts, credit) = try Self.published(site)
            let expectation = Self.expected(owed, payments, clock: clock)
            #expect(
                debts == expectation.debts,
                "carried debts: published, not expected \(debts.subtracting(expectation.debts)); expected, not published \(expectation.debts.subtracting(debts)): \(what)")
            // Credit is checked for the people summary.json lists; each creditor's credit is said on the Attention page too.
            #expect(credit == expectation.credit.filter { credit.keys.contains($0.key) }, "credit \(credit), expected \(expectation.credit): \(what)")
            if !expectation.credit.isEmpty {
                let attention = try String(contentsOf: site.appendingPathComponent("output/markdown/attention.md"), encoding: .utf8)
                for person in expectation.credit.keys { #expect(attention.contains(person), "\(person)'s credit is not on the Attention page: \(what)") }
            }
            tally["debts carried"] = owed.count
            if payments == nil { tally["debts expired"] = owed.filter { clock >= $0.closedAt + Self.keepUnpaidDays * Self.day }.count }
            tally["payments"] = payments?.count ?? 0
        }
        print("chaos rounds: \(runs) runs, seed \(seed), \(closed) rounds closed: \(tally.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))")
        #expect(closed >= 4, "a month closes at least four of its eight rounds (\(closed))")
        // Debts were carried, expired without a payments source and settled with one.
        #expect(tally["debts expired", default: 0] > 0 && tally["payments", default: 0] > 0, "\(tally)")
    }
}
