import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressRender
import OrderPressTestSupport

@Suite struct OrdersCSVTests {
    @Test(arguments: [
        ("=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"), ("+1", "'+1"), ("-ice", "'-ice"),
        ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "'\rx"), ("\nx", "'\nx"), ("  =1+1", "'  =1+1"),
        ("＝1+1", "'＝1+1"), ("＋1", "'＋1"), ("－1", "'－1"), ("＠x", "'＠x"),
        ("35", "35"), ("1-2", "1-2"), ("a=b", "a=b"), ("", ""), ("半糖 少冰", "半糖 少冰"),
    ])
    func prefixesCellsThatStartLikeAFormula(cell: String, written: String) {
        #expect(OrdersCSV.neutralized(cell) == written)
    }

    /// Per scalar: a comma or a quote carrying a combining mark is still a comma or a quote to a CSV reader.
    @Test(arguments: [
        ("plain", "plain"), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("two\r\nlines", "\"two\r\nlines\""),
        ("a,\u{301}b", "\"a,\u{301}b\""), ("x\"\u{301}", "\"x\"\"\u{301}\""), ("lf\n", "\"lf\n\""),
    ])
    func quotesPerScalar(cell: String, written: String) {
        #expect(OrdersCSV.quoted(cell) == written)
    }

    /// Cell text that quoting and neutralising must tell apart: formula starts (ASCII and
    /// full-width) behind spaces, their near neighbours in UTF-8 (`＞` EF BC 9E, `ｅ` EF BD 85),
    /// commas and quotes alone and with a combining mark, line breaks, NUL, CJK and emoji.
    static func text(_ rng: inout some RandomNumberGenerator) -> String {
        let pieces = [
            "=", "+", "-", "@", "\t", "\r", "\n", "＝", "＋", "－", "＠", "＞", "ｅ", " ", "  ", ",", "\"", ",\u{301}", "\"\u{301}",
            "'", "\u{0}", "a", "35", "熟成紅茶", "🧋", "e\u{301}", "\u{202E}", "|",
        ]
        return (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    /// Orders of every shape a row shows: hostile text in every text cell, no options to several
    /// (empty and all-space ones too), negative and huge numbers, prices beyond 64 bits and with
    /// trailing zeros, times from before year 0 to past 9999 or only as text, in zones with
    /// half- and three-quarter-hour and daylight-saving offsets.
    static let orders = Generator<(Order, TimeZone), Shrink.None<(Order, TimeZone)>> { rng in
        var significand = Decimal(UInt64.random(in: 0...UInt64.max >> Int.random(in: 0...63, using: &rng), using: &rng))
        if Int.random(in: 0..<6, using: &rng) == 0 { significand *= Decimal(UInt64.random(in: 1...UInt64.max, using: &rng)) }
        let price = Decimal(
            sign: Int.random(in: 0..<6, using: &rng) == 0 ? .minus : .plus, exponent: Int.random(in: -8...4, using: &rng),
            significand: significand)
        let seconds = [Int.random(in: 0...4_102_444_800, using: &rng), Int.random(in: -70_000_000_000...300_000_000_000, using: &rng)]
        let order = Order(
            row: [Int.random(in: 2...1_000_000, using: &rng), -7, Int.max, Int.min].randomElement(using: &rng)!,
            id: Bool.random(using: &rng) ? text(&rng) : nil, group: text(&rng), person: text(&rng), personKey: "",
            item: text(&rng), options: (0..<Int.random(in: 0...3, using: &rng)).map { _ in [text(&rng), "", " "].randomElement(using: &rng)! },
            quantity: [1, 2, 12, 0, -3, Int.random(in: 1...1_000_000, using: &rng)].randomElement(using: &rng)!, unitPrice: price,
            currency: ["TWD", "", "=X", text(&rng)].randomElement(using: &rng)!,
            time: Bool.random(using: &rng) ? Date(timeIntervalSince1970: TimeInterval(seconds.randomElement(using: &rng)!)) : nil,
            timeText: text(&rng), note: text(&rng), paid: Bool.random(using: &rng))
        let zone = ["UTC", "Asia/Taipei", "America/New_York", "Asia/Kathmandu", "Australia/Lord_Howe"].randomElement(using: &rng)!
        return (order, TimeZone(identifier: zone)!)
    }

    /// Rows written byte by byte, by one writer (which remembers amounts), are the rows made of a
    /// String per cell, neutralised, quoted and joined; some orders repeat an earlier price, some with its quantity.
    @Test func rowWriterWritesWhatTheCellsWrite() async {
        let rows = Generator<([Order], TimeZone), Shrink.None<([Order], TimeZone)>> { rng in
            var orders: [Order] = []
            var zone = TimeZone(identifier: "UTC")!
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                var (order, orderZone) = Self.orders.run(using: &rng)
                if let earlier = orders.randomElement(using: &rng), Bool.random(using: &rng) {
                    order.unitPrice = earlier.unitPrice
                    if Bool.random(using: &rng) { order.quantity = earlier.quantity }
                }
                orders.append(order)
                zone = orderZone
            }
            return (orders, zone)
        }
        await propertyCheck(count: 1000, input: rows) { orders, zone in
            var writer = OrdersCSV.RowWriter(timeZone: zone)
            var bytes: [UInt8] = [7]
            for order in orders { writer.write(order, to: &bytes) }
            #expect(bytes == [7] + orders.flatMap { Self.referenceRow($0, timeZone: zone) }, "\(orders)")
        }
    }

    /// A row as the file wrote it before `RowWriter`: a String per cell, neutralised, quoted and joined.
    private static func referenceRow(_ order: Order, timeZone: TimeZone) -> [UInt8] {
        OrdersCSV.row([
            String(order.row), order.id ?? "", order.group, order.person, order.item,
            order.options.joined(separator: " "), String(order.quantity), DecimalText.exact(order.unitPrice),
            order.currency, DecimalText.exact(order.amount),
            order.time.map { Timestamp.display($0, timeZone: timeZone) } ?? order.timeText, order.note, "", "",
        ])
    }

}
