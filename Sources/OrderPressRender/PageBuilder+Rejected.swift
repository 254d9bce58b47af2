import OrderPressSupport

/// The rejected rows on person and group pages: so that nobody learns at pickup that
/// their order was never counted.
extension PageBuilder {
    /// "珍珠奶茶 M 半糖 少冰 (週五下午茶, row 10): price must not be negative — not counted; ask 王小明 or
    /// answer the form again", one per rejected row naming the person of `key`, in sheet order.
    func rejectedLines(ofPerson key: String) -> [String] {
        let columns = context.configuration.orderColumns
        return (context.rejected.byPerson[key] ?? []).map { row in
            let what = ([row.value(of: columns.item)] + columns.options.map { row.value(of: $0) })
                .filter { !$0.isEmpty }.map(MarkdownEscaper.escape).joined(separator: " ")
            let group = row.group
            let organizer = context.groupPlace(group).map { context.data.groups[$0].organizer } ?? ""
            return labels.markdown(
                "rejected_line",
                [
                    "item": what.isEmpty ? "–" : what, "group": group.isEmpty ? "–" : MarkdownEscaper.escape(group),
                    "row": String(row.row), "reasons": labels.reasons(of: row),
                    "organizer": organizer.isEmpty ? labels.markdown("the_organizer") : MarkdownEscaper.escape(organizer),
                ])
        }
    }

    /// "2 rows of this group were rejected and are not counted. Rows of: [Ben](…), [Eve](…)", linking the
    /// pages of the people they name (cmark-gfm makes no anchors to link to a row itself; each person's page
    /// lists their rows and what to do); nil when none were. Rows that name nobody are on the Attention page,
    /// which the template links after it.
    func rejectedNotice(ofGroup name: String) -> String? {
        guard let count = context.rejected.countByGroup[name], count > 0 else { return nil }
        let notice = labels.markdown("group_rejected", ["count": String(count)])
        let people = context.rejected.peopleByGroup[name] ?? []
        let links = people.prefix(Self.rejectedPeopleShown).compactMap { person in
            context.personSlugs[person.key].map { "[\(MarkdownEscaper.escape(Text.shortened(person.name, to: TextLimits.person)))](../people/\($0).md)" }
        }
        guard !links.isEmpty else { return notice }
        let more = people.count > Self.rejectedPeopleShown ? [labels.markdown("more_people", ["count": String(people.count - Self.rejectedPeopleShown)])] : []
        return notice + " " + labels.markdown("group_rejected_people", ["people": (links + more).joined(separator: labels["list_separator"])])
    }

    /// How many people a group page's rejected rows notice links at most (the Attention page lists every row).
    static let rejectedPeopleShown = 50
}

extension PageBuilder {
    /// The page of someone known only from rejected rows: nothing counted, nothing to pay, their rows.
    func rejectedOnlyPage(key: String, name: String) -> PageModels.PersonPage {
        let rejected = rejectedLines(ofPerson: key)
        // What a finished round left them owing still shows (`CarriedDebt`).
        let payments = (context.carried[key] ?? []).map(carriedLine)
        let credit = creditLines(ofPerson: key)
        var page = PageModels.PersonPage(
            name: MarkdownEscaper.escape(name), notices: rateNotices, groups: [], ordersPager: nil, totals: [], hasTotals: false,
            // Nothing counted: no "settled" line, which would read as if their order were fine.
            tracksPayments: !payments.isEmpty || !credit.isEmpty, payments: payments + credit, settled: payments.isEmpty,
            hasRejected: !rejected.isEmpty, rejected: rejected)
        addRounds(of: key, to: &page)
        return page
    }
}
