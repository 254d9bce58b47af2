import OrderPressConfig

/// The partials that templates include, checked when they load. swift-mustache does not guard
/// against recursion: a partial that includes itself, directly or through others, renders until
/// the stack overflows (a segfault), and a partial naming no template renders as nothing.
///
/// Its parsed tokens are not public, so the tags are read from the text here. Changing the
/// delimiters (`{{=<% %>=}}`) is refused rather than followed: with the standard `{{ }}`, a tag
/// starts at each `{{` and ends at the next `}}` (neither can be part of a name), so this scan sees
/// exactly the tags swift-mustache's parser sees, without a second copy of its delimiter rules.
enum TemplatePartials {
    /// The deepest nesting of sections a template may have: swift-mustache parses and renders
    /// sections recursively, and a page needs a handful.
    static let maximumDepth = 100

    /// What a template's tags include: partial names, in order of appearance.
    struct Scan {
        var partials: [String] = []
        /// The first tag the check cannot follow, quoted as written, and why.
        var refused: (tag: String, reason: String)?
        var depth = 0

        /// The partials, once every one is known to be one of `templates`; otherwise why not.
        func includes(among templates: [String], origin: String) throws(ConfigurationError) -> [String] {
            if let refused {
                throw ConfigurationError(file: origin, message: "\(refused.tag) is not supported: \(refused.reason); fix the template")
            }
            if let unknown = partials.first(where: { !templates.contains($0) }) {
                throw ConfigurationError(
                    file: origin,
                    message: templates.isEmpty
                        ? "{{> \(unknown)}}: the layout cannot include partials; remove the tag"
                        : "{{> \(unknown)}} names no template; a partial is one of \(templates.joined(separator: ", "))")
            }
            return partials
        }
    }

    static func scan(_ text: String) -> Scan {
        let characters = Array(text)
        var scan = Scan()
        var depth = 0
        var index = 0
        func starts(_ token: String, at position: Int) -> Bool {
            var position = position
            for character in token {
                guard position < characters.count, characters[position] == character else { return false }
                position += 1
            }
            return true
        }
        while index < characters.count {
            guard starts("{{", at: index) else {
                index += 1
                continue
            }
            let start = index
            index += 2
            var end = index
            while end < characters.count, !starts("}}", at: end) { end += 1 }
            let body = String(characters[index..<min(end, characters.count)])
            index = min(end + 2, characters.count)
            let tag = String(characters[start..<index])
            switch body.first {
            case ">", "<":
                let name = body.dropFirst().trimmingCharacters(in: .whitespaces)
                if name.hasPrefix("*") {
                    scan.refused = scan.refused ?? (tag, "a dynamic partial takes its name from the data, so it could include its own template")
                } else {
                    scan.partials.append(name)
                }
                if body.first == "<" { depth += 1 }
            case "=":
                scan.refused = scan.refused ?? (tag, "OrderPress templates keep the {{ }} delimiters")
            case "#", "^", "$":
                depth += 1
            case "/":
                depth -= 1
            default:
                break
            }
            scan.depth = max(scan.depth, depth)
        }
        return scan
    }

    /// A loop of inclusions, as names from the first template back to it (`["index", "group",
    /// "index"]`), found by depth-first search from each template in `order`; nil when there is none.
    static func cycle(in includes: [String: [String]], order: [String]) -> [String]? {
        var done = Set<String>()
        func visit(_ name: String, path: [String]) -> [String]? {
            if let loop = path.firstIndex(of: name) { return Array(path[loop...]) + [name] }
            guard !done.contains(name) else { return nil }
            for next in includes[name] ?? [] {
                if let cycle = visit(next, path: path + [name]) { return cycle }
            }
            done.insert(name)
            return nil
        }
        for name in order {
            if let cycle = visit(name, path: []) { return cycle }
        }
        return nil
    }
}
