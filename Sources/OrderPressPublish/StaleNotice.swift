import Foundation
import OrderPressConfig
import OrderPressOutput
import OrderPressSupport

/// The "not updated since …" notice that a failing run adds to the index and group pages once the sheet
/// has failed for longer than `[notify] stale_after_minutes`.
///
/// A failing run has no data to render pages from, so the notice is put into the pages the last successful
/// build published: one block after the page's title, in the Markdown and in the HTML, every other byte as
/// it was. Only pages that the last build's manifest lists, and whose bytes (without a notice this failure
/// added before) are still the ones it recorded, are touched; a page someone else changed is left alone.
/// The manifest itself is not changed, so a patched page no longer looks intact to the next build: the
/// next successful build renders it again (no unchanged-rerun shortcut, no kept page), and the notice goes.
/// Its words are made by the notify step (`StaleNotice+Text.swift`); here it only patches published pages.
package struct StaleNotice: Sendable {
    package var markdown: URL
    var site: URL
    var state: URL
    /// The notice as Markdown (one block-quote line), and as the HTML that cmark-gfm makes of it.
    package var markdownBlock: String
    package var htmlBlock: String

    /// A notice with its text made, or as an earlier run put it in (its text kept in the state's failure record).
    package init(_ output: Configuration.OutputPaths, markdown: String, html: String) {
        (self.markdown, site, state) = (output.markdown, output.site, output.state)
        (markdownBlock, htmlBlock) = (markdown, html)
    }

    /// Whether a page gets the notice: every page that shows money — the index, each group's pages
    /// (`groups/<slug>`, and the further pages of a long group's orders, `groups/<slug>--2`) and each
    /// person's page (`people/<slug>`), the one a member opens to see what they owe.
    static func isNoticed(_ path: String, suffix: String) -> Bool {
        if path == "index" + suffix { return true }
        for folder in ["groups/", "people/"] where path.hasPrefix(folder) && path.hasSuffix(suffix) {
            return !path.dropFirst(folder.count).contains("/")
        }
        return false
    }

    /// Puts the notice into each page that should have it, replacing `previous` (the notice an earlier run of
    /// this failure recorded, which reads differently if the configuration changed); writes only pages that change.
    package func apply(replacing previous: StaleNotice?) throws(OutputError) {
        guard let data = try AtomicFile.contents(of: state.appendingPathComponent(Manifest.fileName), below: state, maxBytes: Manifest.maxBytes),
            data.count <= Manifest.maxBytes, let manifest = Manifest.decode(data)
        else { return }
        for (tree, root, suffix) in [(OutputTree.markdown, markdown, ".md"), (.site, site, ".html")] {
            for entry in manifest[tree] where Self.isNoticed(entry.path, suffix: suffix) && Publisher.isSafe(entry.path) {
                let url = root.appendingPathComponent(entry.path, isDirectory: false)
                // A page that is a link (or cannot be read) is skipped alone: OrderPress never writes through
                // a link, and the other pages still say that the site is stale.
                guard let current = try? AtomicFile.contents(of: url, below: root), !Self.isLink(url) else { continue }
                let page = String(decoding: current, as: UTF8.self)
                // This notice (put in by an earlier run of this failure) and any other it recorded come out.
                var pristine = removed(from: page, tree: tree)
                if let previous { pristine = previous.removed(from: pristine, tree: tree) }
                guard ContentDigest(of: Data(pristine.utf8)) == entry.sha256 else { continue }
                let noticed = Data(inserted(into: pristine, tree: tree).utf8)
                if noticed != current { try AtomicFile.write(noticed, to: url, below: root) }
            }
        }
    }

    private static func isLink(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// The page with the notice after its title (the first `# ` line, or `</h1>`), or at the top when
    /// it has none.
    func inserted(into page: String, tree: OutputTree) -> String {
        if tree == .markdown {
            // After the title only when a blank line follows it: else the quote would run on into the next line.
            if page.hasPrefix("# "), let end = page.firstIndex(of: "\n"), page[page.index(after: end)...].hasPrefix("\n") {
                let after = page.index(after: end)
                return String(page[..<after]) + "\n" + markdownBlock + String(page[after...])
            }
            return markdownBlock + "\n" + page
        }
        if let title = page.range(of: "</h1>\n") ?? page.range(of: "<main>\n") ?? page.range(of: "<body>\n") {
            return String(page[..<title.upperBound]) + htmlBlock + String(page[title.upperBound...])
        }
        return htmlBlock + page
    }

    /// The page without this notice, as `inserted` put it in.
    func removed(from page: String, tree: OutputTree) -> String {
        guard tree == .markdown else {
            guard let range = page.range(of: htmlBlock) else { return page }
            return page.replacingCharacters(in: range, with: "")
        }
        if page.hasPrefix(markdownBlock + "\n") { return String(page.dropFirst(markdownBlock.count + 1)) }
        if page.hasPrefix("# "), let end = page.firstIndex(of: "\n") {
            let after = page.index(after: end)
            if page[after...].hasPrefix("\n" + markdownBlock + "\n") {
                return String(page[..<after]) + String(page[after...].dropFirst(1 + markdownBlock.count))
            }
        }
        return page
    }
}
