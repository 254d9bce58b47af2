import Foundation
import PropertyBased
import Testing

@testable import OrderPress

/// The shortcuts taken for speed give exactly what the general code gives.
@Suite struct TextOrderTests {
    static let pieces = ["a", "B", "é", "e\u{301}", "陳", "林", "小明", " ", "1", "🏴", "Å", "A\u{30A}", "ß", ""]

    /// The one-pass test of a plain path takes what splitting the text took, and never more: a component
    /// ending in a combining mark (`/` + U+0301 is one Character, no separator) is refused, not waved through.
    @Test func aPlainPathIsWhatSplittingItSays() async {
        let parts = ["a", "é", ".", "..", "...", "/", "\0", "\u{301}", "陳", ".a", "a."]
        func byCharacters(_ path: String) -> Bool {
            !path.isEmpty && !path.hasPrefix("/") && !path.contains("\0")
                && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
        }
        await propertyCheck(count: 3000, input: Gen.int(in: 0...(parts.count - 1)).array(of: 0...6)) { picks in
            let path = picks.map { parts[$0] }.joined()
            if ContainedPath.isPlain(path) { #expect(byCharacters(path), "\(Array(path.unicodeScalars))") }
            if !path.contains("\u{301}") { #expect(ContainedPath.isPlain(path) == byCharacters(path), "\(Array(path.unicodeScalars))") }
        }
    }

    /// Byte order and `<` agree on NFC text, which is all the text `Text.normalize` leaves.
    @Test func sortsExactlyAsStringComparisonDoes() async {
        let text = Gen.int(in: 0...(Self.pieces.count - 1)).array(of: 0...4).map {
            $0.map { Self.pieces[$0] }.joined().precomposedStringWithCanonicalMapping
        }
        await propertyCheck(count: 300, input: text.array(of: 0...12)) { texts in
            let people = texts.enumerated().map { (key: $0.element, position: $0.offset) }
            let expected = people.sorted { ($0.key, $0.position) < ($1.key, $1.position) }
            let sorted = TextOrder.sorted(people, keys: { [$0.key] }, by: { ($0.key, $0.position) < ($1.key, $1.position) })
            #expect(sorted.map(\.position) == expected.map(\.position))
        }
    }

    /// On text that is not NFC the check falls back on `<`, which is then no order at all: Swift finds
    /// a composed "éa" neither before, after nor equal to a decomposed "é". Whatever comes out holds
    /// every element once.
    @Test func textInOtherFormsLosesNothing() async {
        let text = Gen.int(in: 0...(Self.pieces.count - 1)).array(of: 0...4).map { $0.map { Self.pieces[$0] }.joined() }
        await propertyCheck(count: 300, input: text.array(of: 0...12)) { texts in
            let people = texts.enumerated().map { (key: $0.element, position: $0.offset) }
            let sorted = TextOrder.sorted(people, keys: { [$0.key] }, by: { ($0.key, $0.position) < ($1.key, $1.position) })
            #expect(sorted.map(\.position).sorted() == Array(texts.indices))
        }
    }

    /// A price made only of digits and a point reads, and prints, exactly as through every rule.
    @Test func plainDigitPricesReadAsTheGeneralRulesReadThem() async {
        let characters = Array("0123456789.,-+e ")
        let text = Gen.int(in: 0...(characters.count - 1)).array(of: 0...22).map { String($0.map { characters[$0] }) }
        await propertyCheck(count: 2000, input: text) { text in
            guard let fast = PriceText.plainDigits(text) else { return }
            guard case .success(let general) = PriceText.parseInGeneral(text) else {
                Issue.record("'\(text)' read as \(fast) but the general rules refuse it")
                return
            }
            #expect(fast == general && fast.description == general.description, "'\(text)'")
        }
        for text in ["35", "35.50", "0.5", ".5", "5.", "000000000000123456789012.1000000", "1234567890123", "0.0000001", "0"] {
            let fast = PriceText.plainDigits(text)
            switch PriceText.parseInGeneral(text) {
            case .success(let general): #expect(fast?.description == general.description, "'\(text)'")
            case .failure: #expect(fast == nil, "'\(text)'")
            }
        }
    }

    /// Two arrays made in place by ranges: every element where its index says, each range's result in order.
    @Test(arguments: [0, 1, 7, 10_000])
    func parallelFillOfTwoArraysPutsEveryElementInPlace(count: Int) {
        let (squares, names, ranges) = Parallel.fill(count: count, minimumChunk: 3) { range, put in
            for index in range.reversed() { put(index, index * index, "row \(index)") }
            return range
        }
        #expect(squares == (0..<count).map { $0 * $0 })
        #expect(names == (0..<count).map { "row \($0)" })
        #expect(ranges.flatMap { Array($0) } == Array(0..<count))
        #expect(ranges.count == max(1, min(ProcessInfo.processInfo.activeProcessorCount, count / 3)))
    }

    /// Chunks cover every row once, in order.
    @Test(arguments: [0, 1, 19_999, 40_000, 100_001])
    func parallelChunksCoverEveryRowInOrder(count: Int) {
        let ranges = Parallel.chunks(count: count) { $0 }
        #expect(ranges.flatMap { Array($0) } == Array(0..<count))
        #expect(ranges.count >= 1 && ranges.allSatisfy { $0.count >= min(count, Parallel.minimumChunk) })
    }
}
