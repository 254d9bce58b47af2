import CCmarkGFM
import CPageArena
import Foundation

/// Renders GitHub-Flavored Markdown to HTML with cmark-gfm. Every call into cmark-gfm is in this file
/// (its allocator is `CPageArena`); the other C boundaries (SQLite, jemalloc, system calls, `dlsym`) are
/// listed in docs/ARCHITECTURE.md, with the invariants each keeps.
public struct CMark: Sendable {
    /// The syntax extensions attached to each parser, by cmark-gfm name.
    public var extensions: [String]
    public var options: Options
    /// Rewrites relative links to `.md` files into links to `.html` files.
    public var rewritesMarkdownLinks: Bool
    /// Off in tests, for the reference: every parse with every extension, under the lock.
    var parsesTildeFreeUnlocked = true

    public struct Options: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let tablePreferStyleAttributes = Options(rawValue: CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES)
    }

    /// What `cmark-gfm -e table -e strikethrough -e autolink -e tagfilter -e tasklist` does.
    public static let commandLine = CMark(
        extensions: ["table", "strikethrough", "autolink", "tagfilter", "tasklist"], options: [],
        rewritesMarkdownLinks: false)

    /// Site pages: no autolink (no address in the data becomes a link), no raw HTML,
    /// style attributes for table alignment (valid HTML5), `.md` links turned into `.html`.
    public static let site = CMark(
        extensions: ["table", "strikethrough", "tagfilter"], options: [.tablePreferStyleAttributes],
        rewritesMarkdownLinks: true)

    public func html(from markdown: String) -> String {
        String(decoding: html(from: Data(markdown.utf8)), as: UTF8.self)
    }

    /// Bytes in, bytes out, as the cmark-gfm command does: input that is not UTF-8 is cmark's to handle.
    public func html(from markdown: Data) -> Data {
        _ = CMarkRuntime.registered
        // Everything cmark-gfm allocates for this page comes from the thread's arena and goes at
        // once when the HTML has been copied out: no cmark_parser_free or cmark_node_free needed.
        defer { PageArena.reset() }
        guard let parser = cmark_parser_new_with_mem(options.rawValue, PageArena.memory) else { return Data() }
        // cmark-gfm 0.29 edits global character tables while finishing a parse, for the inline
        // extensions with special characters: strikethrough (`~`) and autolink. Parses that attach
        // either take one lock. Strikethrough only ever acts on a `~`, so Markdown without one
        // parses without it, unlocked, in parallel: the same tree (`CMarkTests` compares thousands
        // of parallel parses with serial ones).
        let locked =
            !parsesTildeFreeUnlocked || extensions.contains("autolink")
            || (extensions.contains("strikethrough") && markdown.withUnsafeBytes { bytes in bytes.baseAddress.map { memchr($0, 0x7E, bytes.count) != nil } ?? false })
        for name in extensions where locked || name != "strikethrough" {
            if let syntaxExtension = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, syntaxExtension)
            }
        }
        func parse() -> OpaquePointer? {
            markdown.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress {
                    cmark_parser_feed(parser, base.assumingMemoryBound(to: CChar.self), bytes.count)
                }
            }
            return cmark_parser_finish(parser)
        }
        let document = locked ? CMarkRuntime.parseLock.withLock(parse) : parse()
        guard let document else { return Data() }
        if rewritesMarkdownLinks { rewriteLinks(in: document) }
        guard
            let rendered = cmark_render_html_with_mem(
                document, options.rawValue, cmark_parser_get_syntax_extensions(parser), PageArena.memory)
        else { return Data() }
        return Data(bytes: rendered, count: strlen(rendered))
    }

    private func rewriteLinks(in document: OpaquePointer) {
        guard let iterator = cmark_iter_new(document) else { return }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                cmark_node_get_type(node) == CMARK_NODE_LINK, let url = cmark_node_get_url(node)
            else { continue }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(url).assumingMemoryBound(to: UInt8.self), count: strlen(url))
            if var rewritten = LinkRewriter.htmlTarget(for: bytes) {
                rewritten.append(0)
                _ = rewritten.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { cmark_node_set_url(node, $0.baseAddress) }
                }
            }
        }
    }
}

/// Process-wide cmark-gfm state: extension registration (once, before any concurrency) and the parse lock.
private enum CMarkRuntime {
    static let registered: Void = cmark_gfm_core_extensions_ensure_registered()
    static let parseLock = NSLock()
}

/// cmark-gfm's allocator for site pages: `page_arena.c` bumps every allocation of a page out of the
/// thread's blocks and drops them all at once when the HTML has been copied out.
private enum PageArena {
    nonisolated(unsafe) static let memory: UnsafeMutablePointer<cmark_mem> = {
        let memory = UnsafeMutablePointer<cmark_mem>.allocate(capacity: 1)
        memory.initialize(to: cmark_mem(calloc: page_arena_calloc, realloc: page_arena_realloc, free: page_arena_free))
        return memory
    }()

    static func reset() { page_arena_reset() }
}

/// Turns a relative link to a Markdown page into the matching HTML page.
enum LinkRewriter {
    static func htmlTarget(for url: String) -> String? {
        htmlTarget(for: Array(url.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// On the bytes cmark-gfm holds: every link of a page goes through here.
    static func htmlTarget(for url: some Collection<UInt8>) -> [UInt8]? {
        guard let first = url.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "#"),
            !url.contains(UInt8(ascii: ":"))
        else { return nil }
        let end = url.firstIndex(of: UInt8(ascii: "#")) ?? url.endIndex
        let path = url[..<end]
        guard path.count >= 3, path.suffix(3).elementsEqual(".md".utf8) else { return nil }
        return Array(path.dropLast(3)) + Array(".html".utf8) + Array(url[end...])
    }
}
