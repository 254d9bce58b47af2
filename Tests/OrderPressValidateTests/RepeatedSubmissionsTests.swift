import Foundation
import Testing

@testable import OrderPressValidate
import OrderPressTestSupport

/// A Form's response sent twice: the same answers on the next sheet row within ten minutes.
@Suite struct RepeatedSubmissionsTests {
    static func order(row: Int, seconds: Double?, person: String = "Amy", sugar: String = "半糖", paid: Bool = false) -> Order {
        Order(
            row: row, id: nil, group: "G", person: person, personKey: PersonKey(person), item: "紅茶", options: [sugar], quantity: 1,
            unitPrice: 35, currency: "TWD", time: seconds.map { Date(timeIntervalSince1970: 1_795_255_200 + $0) }, timeText: "", note: "",
            paid: paid)
    }

    @Test(arguments: [
        // The next row, 40 s later, the paid box ticked on one: flagged on the later row.
        ([order(row: 2, seconds: 0), order(row: 3, seconds: 40, paid: true)], ["3: repeats row 2: the same answers sent 40 s later; if they were sent twice, delete one (both are counted)"]),
        // Ten minutes to the second is still a repeat; a second more is a second order.
        ([order(row: 2, seconds: 0), order(row: 3, seconds: 600)], ["3: repeats row 2: the same answers sent 600 s later; if they were sent twice, delete one (both are counted)"]),
        ([order(row: 2, seconds: 0), order(row: 3, seconds: 601)], []),
        // Not the next row, another answer, another person (case aside), no time, or earlier: not a repeat.
        ([order(row: 2, seconds: 0), order(row: 4, seconds: 5)], []),
        ([order(row: 2, seconds: 0), order(row: 3, seconds: 5, sugar: "微糖")], []),
        ([order(row: 2, seconds: 0), order(row: 3, seconds: 5, person: "Ben")], []),
        ([order(row: 2, seconds: 0), order(row: 3, seconds: 5, person: "AMY")], ["3: repeats row 2: the same answers sent 5 s later; if they were sent twice, delete one (both are counted)"]),
        ([order(row: 2, seconds: nil), order(row: 3, seconds: nil)], []),
        ([order(row: 2, seconds: 60), order(row: 3, seconds: 0)], []),
        // Three in a row: the second and the third.
        ([order(row: 2, seconds: 0), order(row: 3, seconds: 3), order(row: 4, seconds: 9)],
         ["3: repeats row 2: the same answers sent 3 s later; if they were sent twice, delete one (both are counted)",
          "4: repeats row 3: the same answers sent 6 s later; if they were sent twice, delete one (both are counted)"]),
    ])
    func aRepeatIsTheNextRowWithTheSameAnswersWithinTenMinutes(orders: [Order], expected: [String]) {
        let warnings = RepeatedSubmissions.warnings(orders)
        #expect(warnings.map { "\($0.row!): \($0.message)" } == expected)
        #expect(warnings.allSatisfy { $0.reason?.code == .rowRepeated })
    }
}
