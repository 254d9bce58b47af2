import Crypto
import Foundation
import Mustache
import OrderPressConfig
import OrderPressSupport

/// The page templates, the HTML layout and the stylesheet: built in, or overridden file by file
/// from the configuration's `templates` folder.
package struct TemplateSet: Sendable {
    /// Markdown page templates, by page kind ("index", "group", …).
    package var pages: MustacheLibrary { compiled.value.pages }
    package var layout: MustacheTemplate { compiled.value.layout }
    /// The two above, parsed by swift-mustache at load when a site overrides any template (so that a broken one
    /// fails at configure), else on first use: the built-in ones are parsed in tests, and a rerun that keeps every
    /// page, or writes them all through `GeneratedPages`, never needs them (parsing them is a visible share
    /// of a small rerun: docs/benchmarks.md).
    private let compiled: CompiledTemplates
    let stylesheet: String
    /// The templates in use that are the built-in ones, byte for byte (also when a site's
    /// `templates` folder holds an unedited copy): those written by the Swift they are compiled to
    /// (`GeneratedPages`, `BuiltInPages`).
    let builtIn: Set<String>
    /// A digest of every template's text: a page made with other templates is made again.
    package let digest: String

    static func load(overrides folder: URL?) throws(ConfigurationError) -> TemplateSet {
        var builtIn = Set<String>()
        var digest = SHA256()
        var overridden = false
        func source(_ file: String) throws(ConfigurationError) -> (text: String, origin: String) {
            let (text, origin) = try read(file)
            digest.update(data: Data("\(file)\u{0}\(text)\u{0}".utf8))
            if text != DefaultTemplates.files[file] {
                overridden = true
            } else if let dot = file.firstIndex(of: ".") {
                builtIn.insert(String(file[..<dot]))
            }
            return (text, origin)
        }
        func read(_ file: String) throws(ConfigurationError) -> (text: String, origin: String) {
            if let folder {
                let url = folder.appendingPathComponent(file)
                if FileManager.default.fileExists(atPath: url.path) {
                    let data: Data
                    do throws(BoundedFile.Failure) {
                        data = try BoundedFile.read(url.path, limit: ConfigurationLoader.maxBytes)
                    } catch {
                        throw ConfigurationError(file: url.path, message: "cannot be read (\(error.reason))")
                    }
                    guard let text = ConfigurationLoader.utf8Text(data) else {
                        throw ConfigurationError(file: url.path, message: "cannot be read (it is not UTF-8 text)")
                    }
                    // An unedited copy of an earlier version's template, as `init` wrote it then, would
                    // keep an upgraded site on the old page (and off its compiled fast path) for good.
                    if FormerTemplates.digests[file]?.contains(ContentDigest(of: data).description) == true {
                        return (DefaultTemplates.files[file]!, "built-in \(file)")
                    }
                    return (text, url.path)
                }
            }
            return (DefaultTemplates.files[file]!, "built-in \(file)")
        }
        var texts: [(kind: String, text: String, origin: String)] = []
        for kind in PageKind.templates {
            let (text, origin) = try source("\(kind).md.mustache")
            texts.append((kind, text, origin))
        }
        let (layoutText, layoutOrigin) = try source("layout.html.mustache")
        let stylesheet = try source("style.css").text
        let pageTexts = texts
        let compileAll: @Sendable () throws(ConfigurationError) -> CompiledTemplates.Compiled = { () throws(ConfigurationError) in
            var pages = MustacheLibrary()
            var includes: [String: [String]] = [:]
            var origins: [String: String] = [:]
            for (kind, text, origin) in pageTexts {
                // Values reach Markdown templates already escaped for Markdown, so the template
                // must not escape them again for HTML.
                let page = try compile(text, contentType: "TEXT", origin: origin, partialsAmong: PageKind.templates)
                pages.register(page.template, named: kind)
                includes[kind] = page.partials
                origins[kind] = origin
            }
            if let cycle = TemplatePartials.cycle(in: includes, order: PageKind.templates) {
                throw ConfigurationError(
                    file: origins[cycle[0]]!,
                    message: "includes itself through partials (\(cycle.joined(separator: " → "))); remove one of these {{> …}} tags")
            }
            // The layout is rendered on its own, without the page templates.
            LayoutHTML.register()
            let layout = try compile(layoutText, contentType: LayoutHTML.name, origin: layoutOrigin, partialsAmong: [])
            return (pages, layout.template)
        }
        let compiled = overridden ? CompiledTemplates(try compileAll()) : CompiledTemplates(builtIn: compileAll)
        return TemplateSet(
            compiled: compiled, stylesheet: stylesheet, builtIn: builtIn.intersection(BuiltInPages.kinds),
            digest: Hex.lowercase(digest.finalize()))
    }

    /// The template and the partials it includes, each one of `templates`.
    /// `contentType` is prepended as a `{{% CONTENT_TYPE:…}}` tag, not counted in error columns.
    private static func compile(
        _ text: String, contentType: String, origin: String, partialsAmong templates: [String]
    ) throws(ConfigurationError) -> (template: MustacheTemplate, partials: [String]) {
        let prefix = "{{% CONTENT_TYPE:\(contentType)}}"
        let scan = TemplatePartials.scan(text)
        // Checked before parsing: swift-mustache parses nested sections recursively.
        guard scan.depth <= TemplatePartials.maximumDepth else {
            throw ConfigurationError(
                file: origin, message: "nests sections more than \(TemplatePartials.maximumDepth) deep; simplify the template")
        }
        let template: MustacheTemplate
        do {
            template = try MustacheTemplate(string: prefix + text)
        } catch let error as MustacheTemplate.ParserError {
            let line = error.context.lineNumber
            throw ConfigurationError(
                file: origin,
                message: "line \(line), column \(error.context.columnNumber - (line == 1 ? prefix.count : 0)): \(error.error); fix the template")
        } catch {
            throw ConfigurationError(file: origin, message: "\(error); fix the template")
        }
        return (template, try scan.includes(among: templates, origin: origin))
    }
}
