import OrderPressSupport

/// A secret cell's value (an edit code) as validation read it. It only travels to the diff, which
/// keeps nothing but its salted hash; it prints as the mask, so no log or message can show it.
public struct SecretValue: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The normalised cell text; "" for an empty cell, the mask when a cached copy had already hidden it.
    package let text: String

    package init(_ text: String) {
        self.text = text
    }

    /// A cached copy of the sheet keeps secrets masked: this run knows nothing new about them.
    /// Its length first: comparing every edit code with the mask as text was a cost on every row.
    package var isUnknown: Bool { text.utf8.count == SecretMask.text.utf8.count && text == SecretMask.text }

    public var description: String { text.isEmpty ? "" : SecretMask.text }
    public var debugDescription: String { description }
    /// `dump` and the debugger show the mask too.
    public var customMirror: Mirror { Mirror(self, children: []) }
}
