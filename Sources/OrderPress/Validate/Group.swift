import Foundation

/// A group order: one shop, one organiser, one currency.
public struct Group: Sendable, Equatable {
    public var name: String
    public var organizer: String
    public var shop: String
    public var currency: String
    public var deadline: String
}
