import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressNotify
import OrderPressTestSupport

/// The webhook's outbox: linear to add to, sent in bounded batches in order, and safe when two runs
/// overlap (each takes out only what it sent).
@Suite struct NewsOutboxTests {
    static func items(_ count: Int, from first: Int = 0) -> [NewsItem] {
        (first..<(first + count)).map { row in
            NewsItem(
                kind: .deleted, row: row, id: String(row), group: "週五下午茶", person: "Person \(row)", what: "1 × 熟成紅茶 L 半糖 少冰",
                amount: "45 TWD", reasons: [])
        }
    }

    @Test func fiftyThousandItemsGoOutInBoundedBatchesInOrder() {
        let items = Self.items(50_000)
        let start = ContinuousClock.now
        let batches = Webhook.batches(site: "Tea", items: items[...])
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(batches.map(\.count).reduce(0, +) == 50_000)
        #expect(batches.allSatisfy { $0.count <= Webhook.batchItems && $0.body.count <= Webhook.batchBytes })
        // In order: each batch's rows follow the one before.
        var next = 0
        for batch in batches {
            let sent = try? JSONSerialization.jsonObject(with: batch.body) as? [String: Any]
            let rows = (sent?["changes"] as? [[String: Any]])?.compactMap { $0["row"] as? Int } ?? []
            #expect(rows == Array(next..<(next + batch.count)))
            next += batch.count
        }
    }

    @Test func largeItemsMakeSmallerBatchesUnderTheByteBound() {
        var items = Self.items(600)
        for index in items.indices { items[index].person = String(repeating: "名", count: 2_000) }
        let batches = Webhook.batches(site: "Tea", items: items[...])
        #expect(batches.map(\.count).reduce(0, +) == 600)
        #expect(batches.allSatisfy { $0.body.count <= Webhook.batchBytes })
        #expect(batches.count > 2)
    }

    @Test func fiftyThousandItemsAreAddedAndTakenOutInLinearTime() throws {
        let outbox = NewsOutbox(state: TestSupport.temporaryFolder())
        let start = ContinuousClock.now
        let first = try outbox.add(Self.items(25_000))
        let second = try outbox.add(Self.items(25_000, from: 25_000))
        #expect(outbox.load().count == 50_000)
        try outbox.remove(first)
        #expect(outbox.load().map(\.row) == Array(25_000..<50_000))
        try outbox.remove(second)
        #expect(outbox.load().isEmpty)
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(!FileManager.default.fileExists(atPath: outbox.url.path))
    }

    /// One run sends what it read while another adds its own: taking out what was sent leaves the other's.
    @Test func overlappingRunsKeepEachOthersItems() throws {
        let outbox = NewsOutbox(state: TestSupport.temporaryFolder())
        try outbox.add(Self.items(3))
        let read = outbox.contents().entries
        try outbox.add(Self.items(2, from: 10))
        try outbox.remove(Set(read.map(\.number)))
        #expect(outbox.load().map(\.row) == [10, 11])
    }

    /// Many adds from threads at once, each under the lock: none is lost.
    @Test func concurrentAddsLoseNothing() async throws {
        let outbox = NewsOutbox(state: TestSupport.temporaryFolder())
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask { for round in 0..<10 { _ = try? outbox.add(Self.items(1, from: worker * 100 + round)) } }
            }
        }
        #expect(outbox.load().count == 80)
        #expect(Set(outbox.contents().entries.map(\.number)).count == 80)
    }

    /// An outbox an older version wrote (a plain list of items) is still sent.
    @Test func anOlderOutboxIsRead() throws {
        let state = TestSupport.temporaryFolder()
        try JSONOutput.encode(Self.items(2)).write(to: state.appendingPathComponent(NewsOutbox.fileName))
        let outbox = NewsOutbox(state: state)
        #expect(outbox.load().map(\.row) == [0, 1])
        try outbox.add(Self.items(1, from: 5))
        #expect(outbox.contents().entries.map(\.number) == [0, 1, 2])
    }
}
