/// Sorting by `String`'s `<` without paying for it at every comparison. `<` orders text by its
/// canonical (NFC) scalars, and for text not known to be ASCII it normalises both sides each time:
/// slow for many CJK names (docs/benchmarks.md). For NFC text (every `Text.normalize`d value) the
/// order of the UTF-8 bytes is the same, so elements are sorted by their bytes, and one linear pass
/// with `<` itself checks the result; if any neighbours are out of order (text that is not NFC), the
/// elements are sorted by `<` as before. Either way the result is exactly `sorted(by:)`'s, on text
/// where `<` is an order at all: across composed and decomposed forms it is not (Swift finds a
/// composed "éa" neither before, after nor equal to a decomposed "é"), which NFC text never meets.
package enum TextOrder {
    /// `elements.sorted(by: areInIncreasingOrder)`, where `areInIncreasingOrder` compares the texts
    /// `keys` gives, in order, and breaks ties however it likes.
    package static func sorted<T>(_ elements: [T], keys: (T) -> [String], by areInIncreasingOrder: (T, T) -> Bool) -> [T] {
        let bytes = elements.map { keys($0).map { Array($0.utf8) } }
        var order = Array(elements.indices)
        order.sort { a, b in
            for (left, right) in zip(bytes[a], bytes[b]) where left != right {
                return left.lexicographicallyPrecedes(right)
            }
            return areInIncreasingOrder(elements[a], elements[b])
        }
        let result = order.map { elements[$0] }
        for index in result.indices.dropFirst() where !areInIncreasingOrder(result[index - 1], result[index]) {
            return elements.sorted(by: areInIncreasingOrder)
        }
        return result
    }
}
