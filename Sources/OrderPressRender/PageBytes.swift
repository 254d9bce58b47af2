import Foundation
import OrderPressSupport

/// A page being written as UTF-8 by the compiled templates (`GeneratedPages`): their text as static
/// strings, the models' values as they are (Markdown values arrive escaped) or escaped for HTML, and
/// the cells (`PageCell`) that write themselves: user text escaped for Markdown on the way in.
package struct PageBytes: ~Copyable {
    /// Handed to `Data` without a copy when the page is done.
    private var buffer = ByteBuffer()

    package init() {}

    /// The page, which leaves this empty.
    mutating func take() -> Data { buffer.take() }

    /// A template's own text.
    package mutating func text(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(UnsafeRawBufferPointer($0)) }
    }

    /// A value as swift-mustache's `String(describing:)` shows it, unescaped.
    package mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(UnsafeRawBufferPointer($0)) }
    }

    package mutating func write(_ number: Int) {
        DecimalText.withInteger(number) { buffer.append(UnsafeRawBufferPointer($0)) }
    }

    package mutating func write(_ flag: Bool) { text(flag ? "true" : "false") }

    /// Bytes made elsewhere (a time written on the stack), as they are.
    package mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(UnsafeRawBufferPointer(bytes)) }

    /// User text, escaped for Markdown as `MarkdownEscaper.escape` escapes it, without making the escaped String.
    mutating func escaped(_ text: String) {
        MarkdownEscaper.withEscaped(text) { buffer.append(UnsafeRawBufferPointer($0)) }
    }

    /// A value escaped as `LayoutHTML` escapes `{{…}}` in the layout.
    package mutating func html(_ text: String) { write(XMLEscaper.escape(text)) }

    package mutating func html(_ number: Int) { write(number) }

    package mutating func html(_ flag: Bool) { write(flag) }
}
