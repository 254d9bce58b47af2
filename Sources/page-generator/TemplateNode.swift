/// A piece of a parsed template.
indirect enum TemplateNode: Equatable {
    case text(String)
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (not).
    case variable(String, escaped: Bool)
    case section(String, [TemplateNode])
    case inverted(String, [TemplateNode])
    case partial(String)
}
