/// A value with its generation (`$value`): a new one whenever the value is set or changed in place.
/// Equal when the values are: the generation says which value this is, not what it holds.
@propertyWrapper
public struct Generational<Value: Equatable & Sendable>: Equatable, Sendable {
    public var wrappedValue: Value {
        didSet { projectedValue = .next() }
    }
    public private(set) var projectedValue: OrdersGeneration

    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
        projectedValue = .next()
    }

    public static func == (left: Generational, right: Generational) -> Bool { left.wrappedValue == right.wrappedValue }
}
