/// Lengths (in characters) past which text is flagged on the Attention page and shortened on summary pages.
enum TextLimits {
    static let person = 30
    static let item = 60
    static let option = 30
    static let note = 500
}
