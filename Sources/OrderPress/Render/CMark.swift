import CCmarkGFM
import Foundation

/// Renders GitHub-Flavored Markdown to HTML with cmark-gfm. Every C call of OrderPress is in this file.
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
        let arena = PageArena.current
        defer { arena.reset() }
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

/// The memory of one page's parse and render, one arena per thread. cmark-gfm allocates each node,
/// buffer and string through `cmark_mem` and frees them one by one; in this process, with two
/// threads on a heap fragmented by everything else a build keeps, glibc's malloc and free were
/// almost half of cmark-gfm's time (perf at 100,000 orders: 355 of 748 samples). cmark-gfm's own
/// arena (`cmark_get_arena_mem_allocator`) is a single global one, unsafe for parallel parses.
/// Here allocations are bumped out of 1 MiB blocks, the latest one grows in place (cmark's
/// buffers grow by reallocation), frees do nothing, and `reset` drops the page's memory at once.
private final class PageArena {
    /// The allocator cmark-gfm is handed: plain C functions, so they find the arena through the thread.
    nonisolated(unsafe) static let memory: UnsafeMutablePointer<cmark_mem> = {
        let memory = UnsafeMutablePointer<cmark_mem>.allocate(capacity: 1)
        memory.initialize(
            to: cmark_mem(
                calloc: { count, size in
                    let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
                    precondition(!overflow, "cmark-gfm asked for more memory than exists")
                    let pointer = PageArena.current.allocate(bytes)
                    memset(pointer, 0, bytes)
                    return pointer
                },
                realloc: { pointer, size in PageArena.current.reallocate(pointer, size) },
                free: { _ in }))
        return memory
    }()

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // A thread that ends gives its arena back.
        pthread_key_create(&key) { stored in stored.map { Unmanaged<PageArena>.fromOpaque($0).release() } }
        return key
    }()

    static var current: PageArena {
        if let stored = pthread_getspecific(key) { return Unmanaged<PageArena>.fromOpaque(stored).takeUnretainedValue() }
        let arena = PageArena()
        pthread_setspecific(key, Unmanaged.passRetained(arena).toOpaque())
        return arena
    }

    private static let blockSize = 1 << 20
    /// Each allocation is preceded by its size, for `reallocate`; 16 bytes keep the alignment malloc gives.
    private static let header = 16

    private var blocks: [(start: UnsafeMutableRawPointer, size: Int)] = []
    private var used = 0
    /// The newest allocation, which can grow in place.
    private var latest: UnsafeMutableRawPointer?

    deinit {
        for block in blocks { block.start.deallocate() }
    }

    private static func footprint(_ size: Int) -> Int { header + (size + 15) & ~15 }

    func allocate(_ size: Int) -> UnsafeMutableRawPointer {
        let needed = Self.footprint(size)
        if blocks.isEmpty || used + needed > blocks[blocks.count - 1].size {
            let size = max(Self.blockSize, needed)
            blocks.append((UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16), size))
            used = 0
        }
        let start = blocks[blocks.count - 1].start + used
        start.storeBytes(of: size, as: Int.self)
        used += needed
        latest = start + Self.header
        return start + Self.header
    }

    func reallocate(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer {
        guard let pointer else { return allocate(size) }
        let old = (pointer - Self.header).load(as: Int.self)
        if pointer == latest, used - Self.footprint(old) + Self.footprint(size) <= blocks[blocks.count - 1].size {
            used += Self.footprint(size) - Self.footprint(old)
            (pointer - Self.header).storeBytes(of: size, as: Int.self)
            return pointer
        }
        let moved = allocate(size)
        moved.copyMemory(from: pointer, byteCount: min(old, size))
        return moved
    }

    /// Forgets every allocation; keeps one ordinary block for the next page.
    func reset() {
        let kept = blocks.first { $0.size == Self.blockSize }
        for block in blocks where block.start != kept?.start { block.start.deallocate() }
        blocks = kept.map { [$0] } ?? []
        used = 0
        latest = nil
    }
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
