import PropertyBased
import Testing

@testable import OrderPressFetch

/// A table's cells as bytes in one buffer (`CellStore`): every cell reads back as the bytes it was given,
/// empty ones included, however the store was put together (cells appended, dropped, copied from another).
@Suite struct CellStoreTests {
    static let pieces = ["", "a", "熟成紅茶", "2026/11/20 上午 8:00:00", "\"", "line\nbreak", "👩‍👩‍👧", "e\u{301}", String(repeating: "x", count: 40)]

    static let texts = Generator<[String], Shrink.None<[String]>> { rng in
        (0..<Int.random(in: 0...30, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
    }

    static func bytes(_ store: CellStore) -> [[UInt8]] {
        (0..<store.count).map { store.withUTF8($0) { Array($0) } }
    }

    @Test func everyCellReadsAsItsBytes() async {
        await propertyCheck(count: 500, input: Self.texts) { texts in
            let store = CellStore(texts)
            #expect(store.count == texts.count)
            #expect(Self.bytes(store) == texts.map { Array($0.utf8) })
            #expect((0..<store.count).map(store.text).map { Array($0.utf8) } == texts.map { Array($0.utf8) })
            store.withView { view in
                #expect(view.count == texts.count)
                #expect((0..<view.count).map { Array(view[$0]) } == texts.map { Array($0.utf8) })
            }
        }
    }

    @Test func cellsCopiedFromAnotherStoreAndDroppedReadAsTheirBytes() async {
        let cases = Generator<([String], [String], Int, Int), Shrink.None<([String], [String], Int, Int)>> { rng in
            let first = Self.texts.run(using: &rng), second = Self.texts.run(using: &rng)
            let lower = Int.random(in: 0...second.count, using: &rng)
            return (first, second, lower, Int.random(in: lower...second.count, using: &rng))
        }
        await propertyCheck(count: 500, input: cases) { first, second, lower, upper in
            var store = CellStore(first)
            store.append(CellStore(second), cells: lower..<upper)
            #expect(Self.bytes(store) == (first + second[lower..<upper]).map { Array($0.utf8) })
            store.appendEmpty(count: 2)
            store.removeLast(2 + upper - lower)
            #expect(store == CellStore(first))
        }
    }

    /// Ends are kept in four bytes, counting each further unit of bytes apart: a store whose unit is a few
    /// bytes reads every cell as the bytes it was given, whatever it was made of, as a store that never wraps.
    @Test func cellsPastEachUnitReadAsTheirBytes() async {
        typealias Case = (unitBits: Int, otherBits: Int, first: [String], second: [String], lower: Int, upper: Int, empty: Int)
        let cases = Generator<Case, Shrink.None<Case>> { rng in
            let first = Self.texts.run(using: &rng), second = Self.texts.run(using: &rng)
            let lower = Int.random(in: 0...second.count, using: &rng)
            let upper = Int.random(in: lower...second.count, using: &rng)
            return (Int.random(in: 1...7, using: &rng), Int.random(in: 0...7, using: &rng), first, second, lower, upper, Int.random(in: 0...3, using: &rng))
        }
        await propertyCheck(count: 1000, input: cases) { unitBits, otherBits, first, second, lower, upper, empty in
            func made(_ texts: [String], unitBits: Int?) -> CellStore {
                var store = unitBits.map { CellStore(unitBits: $0) } ?? CellStore()
                for text in texts { store.append(text) }
                return store
            }
            var store = made(first, unitBits: unitBits)
            // The other store's ends wrap as often, otherwise, or never (0).
            store.append(made(second, unitBits: otherBits == 0 ? nil : otherBits), cells: lower..<upper)
            store.appendEmpty(count: empty)
            let expected = (first + second[lower..<upper] + Array(repeating: "", count: empty)).map { Array($0.utf8) }
            #expect(Self.bytes(store) == expected)
            store.withView { view in
                #expect((0..<view.count).map { Array(view[$0]) } == expected)
                if !expected.isEmpty { #expect(Array(view.bytes(0..<view.count)) == expected.flatMap { $0 }) }
            }
            store.removeLast(empty + upper - lower)
            #expect(store == made(first, unitBits: unitBits))
            #expect(Self.bytes(store) == first.map { Array($0.utf8) })
        }
    }

    @Test func aTableReadsItsCellsFromTheStore() {
        let table = SourceTable(name: "orders", headers: ["a", "b", "c"], rows: [.init(number: 2, cells: ["1", "熟成紅茶"]), .init(number: 4, cells: ["x", "", "y", "dropped"])])
        #expect(table.rows == [.init(number: 2, cells: ["1", "熟成紅茶", ""]), .init(number: 4, cells: ["x", "", "y"])])
        #expect(table.cell(1, 2) == "y")
        #expect(table.withUTF8(0, 1) { Array($0) } == Array("熟成紅茶".utf8))
        #expect(table.withCells { $0.text(3) } == "x")
    }
}
