import Foundation

/// A built-in page's view model: the template it renders, and that template compiled to Swift against
/// its fields. Each model's conformance is generated (`<Model>+Generated.swift`, `make templates`), so
/// a page kind's model is the one its template compiles against, or the registry does not compile
/// (`PageKind`).
package protocol PageModel {
    /// The template's name, without `.md.mustache`.
    static var template: String { get }
    /// The page as the compiled template writes it, with `labels` as `{{labels.…}}`.
    func markdown(labels: GeneratedPages.LabelTable, into out: inout PageBytes)
}

extension PageModel {
    package func markdown(labels: GeneratedPages.LabelTable) -> Data {
        var out = PageBytes()
        markdown(labels: labels, into: &out)
        return out.take()
    }
}
