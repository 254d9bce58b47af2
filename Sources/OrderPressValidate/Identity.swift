import OrderPressSupport

/// A row's identity as a validated row and a snapshot record carry it: its key (what matching compares)
/// and how its text is made — from the row's id or content by the sheet's rule (`RowIdentity`), or as
/// read from the state. The text is made only where it is stored or shown (a record's digest, a save,
/// the history): held for every row, it was a quarter of a gigabyte at a million rows of a Form.
package struct Identity: Sendable {
    package enum Source: Sendable {
        /// `id:` and the row's id, unique in its sheet.
        case id
        /// The row's content, by the sheet's rule.
        case content(RowIdentity)
        /// As read from the state or given.
        case text(String)
    }

    package let source: Source
    package let key: IdentityKey

    package init(text: String) {
        source = .text(text)
        key = IdentityKey(text)
    }

    /// Of a row with `id` (unique when `idCount` is 1) and `values`, by `rule`.
    package init(id: String, idCount: Int, values: [String], rule: RowIdentity) {
        source = Self.isByID(id: id, idCount: idCount) ? .id : .content(rule)
        key = Self.withUTF8(source, id: id, values: values) { IdentityKey(bytes: $0) }
    }

    /// The identity the last snapshot holds of a row made by `rule`, its key as stored (`KnownRows`):
    /// by id when `byID`, else by content. Not hashed again: the row's cells and the rule are the same.
    package init(key: IdentityKey, byID: Bool, rule: RowIdentity) {
        source = byID ? .id : .content(rule)
        self.key = key
    }

    /// Whether a row with `id`, which `idCount` rows use, is identified by it rather than by its content.
    package static func isByID(id: String, idCount: Int) -> Bool { !id.isEmpty && idCount == 1 }

    /// The text, for the row with `id` and `values` it was made from.
    package func text(id: String?, values: [String]) -> String {
        if case .text(let text) = source { return text }
        return withUTF8(id: id, values: values) { String(decoding: $0, as: UTF8.self) }
    }

    package func withUTF8<Result>(id: String?, values: [String], _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        Self.withUTF8(source, id: id ?? "", values: values, body)
    }

    /// How many bytes the text has, without making it.
    package func utf8Count(id: String?, values: [String]) -> Int {
        switch source {
        case .id: Self.idPrefix.utf8.count + (id ?? "").utf8.count
        case .content(let rule): rule.contentSize(of: values)
        case .text(let text): text.utf8.count
        }
    }

    /// Whether it is a row's unique id, not its content.
    package var isID: Bool {
        switch source {
        case .id: true
        case .content: false
        case .text(let text): Text.withUTF8(text, Self.isID)
        }
    }

    /// Whether the text whose UTF-8 bytes are `bytes` is a row's unique id: its bytes, not its characters,
    /// as `init(id:idCount:values:rule:)` makes them (an id may start with a combining mark). Three bytes
    /// compared, not a generic prefix: the state's read asks it of every record.
    package static func isID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == UInt8(ascii: "i") && bytes[1] == UInt8(ascii: "d") && bytes[2] == UInt8(ascii: ":")
    }

    private static let idPrefix = "id:"

    private static func withUTF8<Result>(_ source: Source, id: String, values: [String], _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch source {
        case .id: Text.withUTF8(idPrefix + id, body)
        case .content(let rule): rule.withContent(of: values, body)
        case .text(let text): Text.withUTF8(text, body)
        }
    }
}

/// Equal when their texts are (their keys are the texts' digests), however each is made.
extension Identity: Equatable {
    package static func == (left: Identity, right: Identity) -> Bool { left.key == right.key }
}
