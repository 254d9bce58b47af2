/// The file names of the group and person pages, by group name and by person key. They depend on the
/// validated data alone (the people are those the orders name), so a build makes them while the orders
/// are aggregated: at a million orders, handing out 100,000 people's names is half a second on one core.
struct SiteSlugs: Sendable {
    var groups: [String: String]
    var people: [String: String]

    init(_ data: ValidatedData) {
        groups = Slugger.assign(data.groups.map(\.name), fallback: "group")
        // `Slugger.assign` takes the keys as a set: every person the aggregation lists, whatever their order.
        people = Slugger.assign(data.orders.lazy.map(\.personKey), fallback: "person")
    }
}
