/// What a name in a template is, as the generator knows it from the models' declaration.
indirect enum FieldType: Equatable {
    case string, int, bool
    /// `[String: String]`: any key looked up, absent or a String.
    case dictionary
    /// A `PageCell` type, which writes its own bytes.
    case cell(String)
    /// One of the declared structs.
    case structure(String)
    case array(FieldType)
    /// `PageRows<Row>`: rows made one at a time while the page is written.
    case rows(FieldType)
    case optional(FieldType)
    /// The page's own model: its fields, and `labels` beside them.
    case page(String)
    /// `labels`: the catalogue's labels, by name (`GeneratedPages.LabelTable`).
    case labels

    /// A word for messages.
    var noun: String {
        switch self {
        case .array, .rows: "list"
        case .structure: "structure"
        case .dictionary, .labels: "dictionary"
        case .page: "page"
        case .string: "string"
        case .int: "number"
        case .bool: "flag"
        case .cell: "cell"
        case .optional(let inner): inner.noun
        }
    }
}
