@testable import OrderPressValidate

/// Tests write a person's key as the name it folds from: `personKey: "amy"`.
extension PersonKey: ExpressibleByStringLiteral {
    public init(stringLiteral name: String) {
        self.init(name)
    }
}
