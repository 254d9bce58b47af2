/// Lengths (in characters) past which text is flagged on the Attention page and shortened on summary pages.
package enum TextLimits {
    package static let person = 30
    package static let item = 60
    package static let option = 30
    package static let note = 500
}
