/// One reason a row was rejected, or one warning: its stable `code`, the values its sentence names
/// (a column, the cell as written) and the English sentence the terminal and `summary.json` show, made from
/// the catalogue's English text by `Reason(_:_:)` (`Catalogue/Reason+Catalogue.swift`).
/// Pages show the code's text in the site's language (`ReasonCatalogue`) with the values put in, escaped.
public struct Reason: Sendable, Equatable, Codable {
    public var code: ReasonCode
    public var values: [String: String]
    public var english: String

    public init(_ code: ReasonCode, _ values: [String: String] = [:], english: String) {
        self.code = code
        self.values = values
        self.english = english
    }
}
