import Mustache
import OrderPressSupport

/// HTML escaping for the layout's `{{…}}` values, decided per Unicode scalar. swift-mustache's own
/// escaping looks characters up whole, so a quote followed by a combining mark (`"\u{301}`) is one
/// Character that is not in its table and passed through bare: in a custom layout with
/// `content="{{pageTitle}}"`, a person's name could close the attribute and add its own.
struct LayoutHTML: MustacheContentType {
    package static let name = "ORDERPRESS_HTML"

    /// Makes `{{% CONTENT_TYPE:ORDERPRESS_HTML}}` known to the template parser; registering twice is harmless.
    static func register() {
        MustacheContentTypes.register(LayoutHTML(), named: name)
    }

    /// `XMLEscaper`'s escaping, which works per scalar and shows control characters (which HTML
    /// does not allow either) as visible escapes, as the page itself does.
    func escapeText(_ text: String) -> String {
        XMLEscaper.escape(text)
    }
}
