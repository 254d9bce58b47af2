import Foundation
import Testing
import OrderPressTestSupport


/// Issue 34 Deliver 1, the settling part, through the built binary with a pinned clock: a `[payments]`
/// source pays off debts carried from finished rounds (RoundCloseTests' Monday: Tea closes at 09:30 with
/// Cat owing Amy 45 TWD, while Cat still orders lunch), and without one `keep_unpaid_days` drops them.
@Suite struct PaymentsBinaryTests {
    typealias Round = RoundCloseTests
    static let lunch = Round.lunch + ["8,Lunch,Cat,魚排飯,1,105,FALSE", "9,Lunch,Amy,雞腿飯,1,110,FALSE"]
    static let paymentsHeader = "person,amount,currency,group,time\n"
    /// The day after, 09:00 in Taipei.
    static let tomorrow = Round.nine + 86_400

    /// Tea closed at 11:00 with Cat's 45 TWD carried; `rounds` and `extra` go into the configuration's
    /// `[rounds]` table and after it.
    static func closedSite(rounds: String = "", extra: String = "") throws -> URL {
        let site = TestSupport.temporaryFolder()
        TestSupport.write(
            [
                "orderpress.toml": RoundsTests.configuration(extra: rounds + "\n" + extra),
                "groups.csv": Round.groups(teaDeadline: "2026-11-23 09:30"),
                "orders.csv": Round.orders(Round.tea + lunch),
                "payments.csv": paymentsHeader,
            ], in: site)
        for epoch in [Round.nine, Round.tenOFive] { #expect(try Round.build(site, at: epoch).status == 0) }
        try Round.write(site, "orders.csv", Round.orders(lunch))
        let closed = try Round.build(site, at: Round.eleven)
        #expect(closed.status == 0, "\(closed)")
        return site
    }

    static let withPayments = "[payments]\npath = \"payments.csv\""

    /// Each person's `carried` in summary.json as "round group amount currency [paid]", and `credit`.
    static func summary(_ site: URL) throws -> (carried: [String: String], credit: [String: [String: String]], warnings: [[String: Any]]) {
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(Round.read(site, "site/summary.json").utf8)) as? [String: Any])
        let people = try #require(summary["people"] as? [[String: Any]])
        var (carried, credit) = ([String: String](), [String: [String: String]]())
        for person in people {
            let name = person["name"] as! String
            if let debts = person["carried"] as? [[String: String]] {
                carried[name] = debts.map { "\($0["round"]!) \($0["group"]!) \($0["amount"]!) \($0["currency"]!)" + ($0["paid"].map { " paid \($0)" } ?? "") }
                    .joined(separator: ";")
            }
            if let amounts = person["credit"] as? [String: String] { credit[name] = amounts }
        }
        return (carried, credit, summary["warnings"] as? [[String: Any]] ?? [])
    }

    static func modificationDates(_ site: URL) throws -> [String: Date] {
        let output = site.appendingPathComponent("output")
        return try TestSupport.files(in: output).reduce(into: [:]) { dates, path in
            dates[path] = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)[.modificationDate] as? Date
        }
    }

    /// A partial payment reduces the debt (person matched by `PersonKey`: "cat" is Cat), an unchanged rerun
    /// writes nothing, and a changed payment renders again: paid in full and 25 more, the debt goes and the
    /// 25 TWD are shown as credit, never lost.
    @Test func aPaymentPaysOffACarriedDebtAndAChangedOneRendersAgain() throws {
        let site = try Self.closedSite(extra: Self.withPayments)
        // Dan, who orders nothing now, is listed for what he carries (CarriedDebtPagesTests).
        #expect(try Self.summary(site).carried == ["Cat": "2026-11-23 Tea 45 TWD", "Dan": "2026-11-23 Tea 40 TWD"])

        try Round.write(site, "payments.csv", Self.paymentsHeader + "cat,20,,Tea,2026-11-23 18:00\n")
        let paid = try Round.build(site, at: Self.tomorrow)
        #expect(paid.status == 0, "\(paid)")
        let cat = try Round.read(site, "markdown/people/cat.md")
        #expect(cat.contains("- **25 TWD to Amy for Tea · 2026-11-23 · 20 of 45 TWD paid · [Archive](../archive/tea/2026-11-23.md)**"), "\(cat)")
        #expect(try Self.summary(site).carried == ["Cat": "2026-11-23 Tea 25 TWD paid 20", "Dan": "2026-11-23 Tea 40 TWD"])

        // The same payments again: nothing is written.
        let before = try Self.modificationDates(site)
        Thread.sleep(forTimeInterval: 1.1)
        let rerun = try Round.build(site, at: Self.tomorrow + 60)
        #expect(rerun.status == 0 && rerun.stdout.isEmpty, "\(rerun)")
        #expect(try Self.modificationDates(site) == before)

        try Round.write(site, "payments.csv", Self.paymentsHeader + "cat,20,,Tea,\nＣａｔ,50,TWD,,\n")
        #expect(try Round.build(site, at: Self.tomorrow + 120).status == 0)
        let settled = try Round.read(site, "markdown/people/cat.md")
        #expect(!settled.contains("for Tea"), "\(settled)")
        #expect(settled.contains("- **Paid 25 TWD more than owed: kept as credit toward a later round**"), "\(settled)")
        #expect(settled.contains("- **105 TWD to Eve for Lunch**"), "\(settled)")
        let summary = try Self.summary(site)
        #expect(summary.carried == ["Dan": "2026-11-23 Tea 40 TWD"] && summary.credit == ["Cat": ["TWD": "25"]], "\(summary)")
        // Said on the Attention page too, and so is a payment by someone who owes nothing and has no page.
        #expect(summary.warnings.compactMap { $0["code"] as? String == "payment_credit" ? $0["message"] as? String : nil } == [
            "payments: cat paid 25 TWD more than they owed from finished rounds; it is kept as credit toward a later round (correct the payment row to hand it back)"
        ])
        try Round.write(site, "payments.csv", Self.paymentsHeader + "Cat,45,,,\nZoe,10,,,\n")
        #expect(try Round.build(site, at: Self.tomorrow + 180).status == 0)
        let attention = try Round.read(site, "markdown/attention.md").replacingOccurrences(of: "\\", with: "")
        #expect(attention.contains("payments: Zoe paid 10 TWD more than they owed from finished rounds"), "\(attention)")
        #expect(!attention.contains("Cat paid"))
    }

    /// A payments row that cannot be used is not counted and is listed on the Attention page and in
    /// summary.json's warnings with `source` "payments", naming the payments row and why.
    @Test func aRejectedPaymentRowIsListedAndNotCounted() throws {
        let site = try Self.closedSite(extra: Self.withPayments)
        try Round.write(site, "payments.csv", Self.paymentsHeader + "Cat,-5,,,\n,10,,,\nCat,¥30,,,\nCat,4,XYZ,,\nCat,3,,,\n")
        #expect(try Round.build(site, at: Self.tomorrow).status == 0)
        #expect(try Self.summary(site).carried == ["Cat": "2026-11-23 Tea 42 TWD paid 3", "Dan": "2026-11-23 Tea 40 TWD"])
        let warnings = try Self.summary(site).warnings.filter { $0["source"] as? String == "payments" }
        let messages = warnings.map { $0["message"] as! String }
        #expect(
            messages == [
                "payments row 2: amount '-5' must not be negative (a refund is a smaller payment); this payment is not counted",
                "payments row 3: person is missing (column 'person'); this payment is not counted",
                "payments row 4: amount '¥30' is marked ¥, which is not TWD, the payment's currency; write the currency in the currency column; this payment is not counted",
                "payments row 5: unknown currency 'XYZ'; this payment is not counted",
            ], "\(messages)")
        #expect(warnings.map { $0["code"] as! String } == ["payment_amount_invalid", "payment_person_missing", "payment_amount_sign_contradicts", "payment_currency_unknown"])
        // Escaped for Markdown: every punctuation mark behind a backslash.
        let attention = try Round.read(site, "markdown/attention.md").replacingOccurrences(of: "\\", with: "")
        #expect(attention.contains("payments row 5: unknown currency 'XYZ'; this payment is not counted"), "\(attention)")
    }

    /// A payments sheet without its amount column stops the build before anything is published (65).
    @Test func aPaymentsSheetWithoutItsAmountColumnStopsTheBuild() throws {
        let site = try Self.closedSite(extra: Self.withPayments)
        try Round.write(site, "payments.csv", "person,paid\nCat,45\n")
        let run = try Round.build(site, at: Self.tomorrow)
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("payments: column 'amount' (amount) is not in the sheet"), "\(run.stderr)")
        #expect(try Self.summary(site).carried == ["Cat": "2026-11-23 Tea 45 TWD", "Dan": "2026-11-23 Tea 40 TWD"])
    }

    /// Without a payments source a carried debt is listed `keep_unpaid_days` after its round closed, then
    /// dropped by an unchanged rerun; that rebuild equals a build from scratch at that time.
    @Test func withoutPaymentsADebtIsDroppedAfterKeepUnpaidDays() throws {
        let site = try Self.closedSite(rounds: "keep_unpaid_days = 2")
        let closedAt = Round.eleven
        #expect(try Round.build(site, at: closedAt + 2 * 86_400 - 60).status == 0)
        #expect(try Round.read(site, "markdown/people/cat.md").contains("45 TWD to Amy for Tea"))
        let expired = try Round.build(site, at: closedAt + 2 * 86_400 + 60)
        #expect(expired.status == 0, "\(expired)")
        let page = try Round.read(site, "markdown/people/cat.md")
        #expect(!page.contains("for Tea") && page.contains("105 TWD to Eve for Lunch"), "\(page)")
        #expect(try Self.summary(site).carried.isEmpty)

        // A build from scratch at that time, from the same sources and state, makes the same pages.
        let clean = TestSupport.temporaryFolder()
        for name in ["orderpress.toml", "groups.csv", "orders.csv", "payments.csv"] {
            try FileManager.default.copyItem(at: site.appendingPathComponent(name), to: clean.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: clean.appendingPathComponent("output"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: site.appendingPathComponent("output/state"), to: clean.appendingPathComponent("output/state"))
        #expect(try Round.build(clean, at: closedAt + 2 * 86_400 + 60).status == 0)
        for path in TestSupport.files(in: site.appendingPathComponent("output/markdown")) where !path.hasPrefix("changes") {
            #expect(try Round.read(clean, "markdown/\(path)") == Round.read(site, "markdown/\(path)"), "\(path)")
        }
    }

    @Test(arguments: [
        ("0", "'rounds.keep_unpaid_days' must be a whole number from 1 to 3650 (found 0)"),
        ("3651", "'rounds.keep_unpaid_days' must be a whole number from 1 to 3650 (found 3651)"),
        ("\"90\"", "rounds.keep_unpaid_days"),
    ])
    func keepUnpaidDaysOutOfRangeIsAConfigurationError(value: String, message: String) throws {
        let site = TestSupport.temporaryFolder()
        TestSupport.write(
            [
                "orderpress.toml": RoundsTests.configuration(extra: "keep_unpaid_days = \(value)"),
                "groups.csv": Round.groups(teaDeadline: "2026-11-23 09:30"), "orders.csv": Round.orders(Round.tea),
            ], in: site)
        let run = try Round.build(site, at: Round.nine)
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
