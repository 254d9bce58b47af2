/// Every kind of Markdown page, in one registry. Adding a kind of page is one template
/// (`templates/<template>.md.mustache`), its view model (a `PageModels` struct marked
/// `/// Template: …`, made by a `PageBuilder` function) and one entry in `all`; `make templates`
/// embeds the template and compiles it to Swift (`GeneratedPages`), which writes every built-in page,
/// group and person pages too: the template is the page's one definition.
struct PageKind: Sendable {
    /// The template's name, without `.md.mustache`; templates include each other by it.
    let template: String
    /// The pages of this kind in a build.
    let pages: @Sendable (SiteContext) -> [Page]

    /// One page: where it goes (without extension), its title, and its view model, built when rendered.
    struct Page: Sendable {
        var template: String
        var path: String
        var title: String
        var model: @Sendable (PageBuilder) -> Any
        /// What the page is made from, for the kinds that declare it (`Dependency`): a page whose
        /// published files were made from the same is kept without building it (`PlanRunner`).
        /// Nil: always made.
        var dependsOn: Dependency? = nil
    }

    /// In this order templates are loaded and partial cycles named.
    static let all: [PageKind] = [
        single("index") { $0.configuration.title } model: { $0.index() },
        PageKind(template: "group") { context in
            context.aggregation.groups.map { summary in
                Page(
                    template: "group", path: "groups/\(context.groupSlugs[summary.group.name]!)", title: summary.group.name,
                    model: { $0.groupPage(summary) }, dependsOn: .group(summary))
            }
        },
        // The pages of a long group's orders after its page (`GroupOrderPages`).
        PageKind(template: "group_orders") { context in
            context.aggregation.groups.flatMap { summary in
                let pages = context.orderPages(summary)
                return (pages.extraPages.map(Array.init) ?? []).map { page in
                    Page(
                        template: "group_orders", path: pages.path(ofPage: page), title: context.orderPagesTitle(summary, page: page),
                        model: { $0.groupOrdersPage(summary, page: page) }, dependsOn: .groupOrders(summary, page: page, of: pages))
                }
            }
        },
        PageKind(template: "person") { context in
            context.aggregation.people.enumerated().map { index, person in
                Page(
                    template: "person", path: "people/\(context.personSlugs[person.key]!)", title: person.name,
                    model: { $0.personPage(person) }, dependsOn: .person(person, at: index))
            } + context.rejected.onlyRejected.map { person in
                // Someone whose only rows were rejected: a page listing them (`PageBuilder.rejectedOnlyPage`).
                Page(
                    template: "person", path: "people/\(context.personSlugs[person.key]!)", title: person.name,
                    model: { $0.rejectedOnlyPage(key: person.key, name: person.name) },
                    dependsOn: .rejectedOnly(key: person.key, name: person.name))
            } + context.roundOnly.map { person in
                // Someone only finished rounds name: what they owe, what is owed to them, their rounds.
                Page(
                    template: "person", path: "people/\(context.personSlugs[person.key]!)", title: person.name,
                    model: { $0.roundOnlyPage(key: person.key, name: person.name) })
            }
        },
        // The pages of a long person's orders after their page.
        PageKind(template: "person_orders") { context in
            context.aggregation.people.enumerated().flatMap { index, person in
                let pages = context.personPages(person)
                return (pages.extraPages.map(Array.init) ?? []).map { page in
                    Page(
                        template: "person_orders", path: pages.path(ofPage: page), title: context.personPagesTitle(person, page: page),
                        model: { $0.personOrdersPage(person, page: page) },
                        dependsOn: .personOrders(person, at: index, page: page, of: pages))
                }
            }
        },
        // Earlier pages of spellings now merged into a person's, pointing to theirs (`SiteSlugs.aliases`).
        PageKind(template: "moved") { context in
            context.personAliases.compactMap { alias in
                guard let name = context.personName(alias.key), let slug = context.personSlugs[alias.key] else { return nil }
                return Page(
                    template: "moved", path: "people/\(alias.slug)", title: name,
                    model: { $0.movedPage(name: name, slug: slug) })
            }
        },
        // People and groups whose orders were all deleted, for 30 days (`Tombstones`).
        // A long list goes on pages after the first (`SiteContext.tombstonePages`).
        PageKind(template: "tombstone") { context in
            // Money still open keeps a person's page from the rounds instead (`SiteContext.roundOnly`).
            let roundOnly = Set(context.roundOnly.map(\.key))
            let people = context.tombstones.people.filter { !roundOnly.contains($0.key) }
            return [(people, false), (context.tombstones.groups, true)].flatMap { stones, group in
                stones.flatMap { stone in
                    let pages = context.tombstonePages(stone, group: group)
                    return (1...pages.pageCount).map { page in
                        Page(
                            template: "tombstone", path: pages.path(ofPage: page), title: context.tombstoneTitle(stone, group: group, page: page),
                            model: { $0.tombstonePage(stone, group: group, page: page) })
                    }
                }
            }
        },
        listPages(.groups) { $0.groupList(page: $1) },
        listPages(.people) { $0.peopleList(page: $1) },
        single("rates") { $0.labels["rates"] } model: { $0.rates() },
        single("attention") { $0.labels["attention"] } model: { $0.attention() },
        single("changes") { $0.labels["changes"] } model: { $0.changes() },
        // Finished rounds, kept in the state and published by every build (`RoundArchive`).
        PageKind(template: "archive") { context in
            context.archives.map { archive in
                Page(template: "archive", path: archive.path, title: "\(archive.group) · \(archive.date)", model: { $0.archive(archive) })
            }
        },
    ]

    static var templates: [String] { all.map(\.template) }

    /// The pages of a long list after the first, which the index shows; the template is named after the list.
    private static func listPages(
        _ list: ListPages.List, model: @escaping @Sendable (PageBuilder, Int) -> Any
    ) -> PageKind {
        PageKind(template: list.rawValue) { context in
            let pages = context.listPages(list)
            return (pages.extraPages.map(Array.init) ?? []).map { page in
                Page(
                    template: list.rawValue, path: pages.path(ofPage: page),
                    title: context.labels.text(
                        "\(list.rawValue)_page", ["page": String(page), "pages": String(pages.pageCount)]),
                    model: { model($0, page) }, dependsOn: .listPage(list, page: page, of: pages))
            }
        }
    }

    /// A kind with one page, at the top of the site, named after its template.
    private static func single(
        _ template: String, title: @escaping @Sendable (SiteContext) -> String, model: @escaping @Sendable (PageBuilder) -> Any
    ) -> PageKind {
        PageKind(template: template) { context in [Page(template: template, path: template, title: title(context), model: model)] }
    }
}
