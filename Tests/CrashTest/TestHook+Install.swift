import OrderPressSupport

extension TestHook {
    /// Called at every point from then on, in this process only.
    static func install(_ hook: @escaping @Sendable (Point) -> Void) {
        slot.current = hook
    }
}
