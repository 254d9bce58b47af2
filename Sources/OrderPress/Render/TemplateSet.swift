import Foundation
import Mustache

/// The page templates, the HTML layout and the stylesheet: built in, or overridden file by file
/// from the configuration's `templates` folder.
struct TemplateSet: Sendable {
    /// Markdown page templates, by page kind ("index", "group", …).
    let pages: MustacheLibrary
    let layout: MustacheTemplate
    let stylesheet: String

    static let pageKinds = ["index", "group", "person", "rates", "attention", "changes"]

    static func load(overrides folder: URL?) throws(ConfigurationError) -> TemplateSet {
        func source(_ file: String) throws(ConfigurationError) -> (text: String, origin: String) {
            if let folder {
                let url = folder.appendingPathComponent(file)
                if FileManager.default.fileExists(atPath: url.path) {
                    do {
                        return (try String(contentsOf: url, encoding: .utf8), url.path)
                    } catch {
                        throw ConfigurationError(file: url.path, message: "cannot be read (\(IOFailure.reason(error)))")
                    }
                }
            }
            return (DefaultTemplates.files[file]!, "built-in \(file)")
        }
        func compile(_ text: String, origin: String) throws(ConfigurationError) -> MustacheTemplate {
            do {
                return try MustacheTemplate(string: text)
            } catch let error as MustacheTemplate.ParserError {
                throw ConfigurationError(
                    file: origin,
                    message: "line \(error.context.lineNumber), column \(error.context.columnNumber): \(error.error); fix the template")
            } catch {
                throw ConfigurationError(file: origin, message: "\(error); fix the template")
            }
        }

        var pages = MustacheLibrary()
        for kind in pageKinds {
            let (text, origin) = try source("\(kind).md.mustache")
            // Values reach Markdown templates already escaped for Markdown, so the template
            // must not escape them again for HTML.
            pages.register(try compile("{{% CONTENT_TYPE:TEXT}}" + text, origin: origin), named: kind)
        }
        let (layoutText, layoutOrigin) = try source("layout.html.mustache")
        return TemplateSet(
            pages: pages, layout: try compile(layoutText, origin: layoutOrigin), stylesheet: try source("style.css").text)
    }
}
