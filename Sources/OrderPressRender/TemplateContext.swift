/// Turns a view model into the dictionaries and arrays that swift-mustache looks values up in.
/// The engine would otherwise reflect the model with `Mirror` on every single variable lookup,
/// which dominated rendering large sites; here each value is reflected once. A cell (`PageCell`) is
/// its text, and rows made as the page is written (`PageRows`) an array, as the Strings and arrays
/// of the models before them were.
enum TemplateContext {
    package static func make(_ value: Any) -> Any {
        switch value {
        case is String, is Int, is Bool:
            return value
        case let cell as any PageCell:
            return cell.description
        case let rows as any TemplateRows:
            return rows.templateValues
        case let array as [Any]:
            return array.map(make)
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                return mirror.children.first.map { make($0.value) } as Any
            }
            guard mirror.displayStyle == .struct else { return value }
            var fields: [String: Any] = [:]
            for child in mirror.children {
                guard let label = child.label else { continue }
                let field = Mirror(reflecting: child.value)
                if field.displayStyle == .optional {
                    // A nil field is left out, so that `{{#field}}` sections skip it.
                    if let wrapped = field.children.first { fields[label] = make(wrapped.value) }
                } else {
                    fields[label] = make(child.value)
                }
            }
            return fields
        }
    }
}
