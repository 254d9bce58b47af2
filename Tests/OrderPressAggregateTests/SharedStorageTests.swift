import Foundation
import Testing

@testable import OrderPressAggregate
import OrderPressTestSupport

/// What a million orders would otherwise allocate a million times is made once and shared: equal
/// option lists, and the converted lists of equal totals. Same values as before, one buffer.
@Suite struct SharedStorageTests {
    static func buffer<T>(_ array: [T]) -> UnsafeRawPointer? {
        array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func ordersWithEqualOptionsShareOneList() throws {
        let sheet = try ValidatorFixtures.sheet([
            ValidatorFixtures.row(id: "1"), ValidatorFixtures.row(id: "2", person: "Ben"),
            ValidatorFixtures.row(id: "3", options: ["M", "無糖", ""]), ValidatorFixtures.row(id: "4", options: ["M", "無糖", ""]),
            ValidatorFixtures.row(id: "5", options: ["", "", ""]),
        ])
        let data = sheet.data
        #expect(data.orders.map(\.options) == [["L", "半糖", "少冰"], ["L", "半糖", "少冰"], ["M", "無糖"], ["M", "無糖"], []])
        #expect(Self.buffer(data.orders[0].options) == Self.buffer(data.orders[1].options))
        #expect(Self.buffer(data.orders[2].options) == Self.buffer(data.orders[3].options))
        #expect(Self.buffer(data.orders[0].options) != Self.buffer(data.orders[2].options))
        #expect(sheet.rows.map { $0.validatedRow?.options ?? [] } == data.orders.map(\.options))
    }

    /// One amount converted through the cache: exactly what the plain conversion gives, and the very
    /// same list for an equal amount (also when it comes as a one-currency sum of parts).
    @Test func equalAmountsShareOneConvertedList() {
        let currencies = ["TWD", "USD", "JPY", "EUR"]
        let table = ConversionCache.Table(converter: ConverterTests.converter, first: ["USD", "TWD"], others: [], display: currencies)
        var cache = ConversionCache(table)
        let converter = ConverterTests.converter
        let first = cache.converted(ConversionCacheTests.sum("55.5"), in: table.number("USD"))
        #expect(first == converter.converted(["USD": Decimal(string: "55.5")!], into: currencies))
        #expect(first.map(\.amount) == [Decimal(string: "1782.9375")!, Decimal(string: "55.5")!, Decimal(string: "8564.76")!, nil])
        let again = cache.converted([(table.number("USD"), ConversionCacheTests.sum("55.50"))])
        #expect(Self.buffer(again) == Self.buffer(first))
        let other = cache.converted(ConversionCacheTests.sum("55.5"), in: table.number("TWD"))
        #expect(other == converter.converted(["TWD": Decimal(string: "55.5")!], into: currencies))
        #expect(Self.buffer(other) != Self.buffer(first))
        // A missing rate too: the same n/a, with the same digits.
        let mixed = cache.converted([(table.number("USD"), ConversionCacheTests.sum("1")), (table.number("TWD"), ConversionCacheTests.sum("32.125"))])
        #expect(mixed == converter.converted(["USD": 1, "TWD": Decimal(string: "32.125")!], into: currencies))
    }

    /// A person's parts of a group's fee and discount are the same, to the byte, in the group's summary
    /// and in the person's, and held in both without a box (`PackedDecimals`): a million (group, person)
    /// pairs at a million Form rows each had one.
    @Test func aPersonsFeeSharesAreTheSameInBothSummaries() throws {
        let sheet = GroupMoneyReferenceTests.Sheet(groups: [[1, 0, 1, 2], [2, 0, 3, 4]], orders: [[0, 0, 0, 0, 0], [0, 2, 1, 1, 1], [1, 3, 3, 0, 0], [1, 0, 0, 2, 1]], settled: false)
        let data = try GroupMoneyReferenceTests.data(sheet)
        let aggregation = Aggregator.aggregate(data, money: GroupMoneyReferenceTests.money)
        var compared = 0
        for group in aggregation.groups {
            for person in group.people {
                guard person.feeShare != 0 || person.discountShare != 0 else { continue }
                let summary = try #require(aggregation.people.first { $0.key == person.key })
                let share = try #require(summary.groupShares.first { $0.group == group.group.name })
                #expect(share.shares == person.shares)
                #expect(ExactSum.sameBytes(share.feeShare, person.feeShare))
                #expect(ExactSum.sameBytes(share.discountShare, person.discountShare))
                compared += 1
            }
        }
        #expect(compared == 4)
    }
}
