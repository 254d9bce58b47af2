/// Every kind of Markdown page, in one registry. Adding a kind of page is one template
/// (`templates/<template>.md.mustache`), its view model (declared in `templates/models/PageModels.txt`
/// as `struct Name: template`, made by a `PageBuilder` function) and one entry in `all`; `make templates`
/// embeds the template and compiles it to Swift against the model (`<Model>+Generated.swift`), which
/// writes every built-in page: the template is the page's one definition. A kind's pages are typed by
/// its model, so a page handed another model does not compile.
package struct PageKind: Sendable {
    /// The template's name, without `.md.mustache`; templates include each other by it.
    package let template: String
    /// The pages of this kind in a build.
    package let pages: @Sendable (SiteContext) -> [Page]

    /// A kind whose pages render `Model`'s template.
    package init<Model: PageModel>(_ model: Model.Type, pages: @escaping @Sendable (SiteContext) -> [Planned<Model>]) {
        template = Model.template
        self.pages = { context in pages(context).map(Page.init) }
    }

    /// One page of a kind: where it goes (without extension), its title, and its view model, built when rendered.
    package struct Planned<Model: PageModel>: Sendable {
        package var path: String
        package var title: String
        package var model: @Sendable (PageBuilder) -> Model
        /// What the page is made from, for the kinds that declare it (`Dependency`): a page whose
        /// published files were made from the same is kept without building it (`PlanRunner`).
        /// Nil: always made.
        package var dependsOn: Dependency? = nil
    }

    /// A page as the renderer takes it, whatever its kind: its template is its model's.
    package struct Page: Sendable {
        package let template: String
        package let path: String
        package let title: String
        package let model: @Sendable (PageBuilder) -> any PageModel
        package let dependsOn: Dependency?

        package init<Model: PageModel>(_ page: Planned<Model>) {
            (template, path, title, dependsOn) = (Model.template, page.path, page.title, page.dependsOn)
            model = page.model
        }
    }

    /// In this order templates are loaded and partial cycles named.
    static let all: [PageKind] = [
        single(PageModels.IndexPage.self) { $0.configuration.title } model: { $0.index() },
        PageKind(PageModels.GroupPage.self) { context in
            context.aggregation.groups.map { summary in
                Planned(
                    path: "groups/\(context.groupSlugs[summary.group.name]!)", title: summary.group.name,
                    model: { $0.groupPage(summary) }, dependsOn: .group(summary))
            }
        },
        // The pages of a long group's orders after its page (`GroupOrderPages`).
        PageKind(PageModels.GroupOrdersPage.self) { context in
            context.aggregation.groups.flatMap { summary in
                let pages = context.orderPages(summary)
                return (pages.extraPages.map(Array.init) ?? []).map { page in
                    Planned(
                        path: pages.path(ofPage: page), title: context.orderPagesTitle(summary, page: page),
                        model: { $0.groupOrdersPage(summary, page: page) }, dependsOn: .groupOrders(summary, page: page, of: pages))
                }
            }
        },
        PageKind(PageModels.PersonPage.self) { context in
            context.aggregation.people.enumerated().map { index, person in
                Planned(
                    path: "people/\(context.personSlugs[person.key]!)", title: person.name,
                    model: { $0.personPage(person) }, dependsOn: .person(person, at: index))
            } + context.rejected.onlyRejected.map { person in
                // Someone whose only rows were rejected: a page listing them (`PageBuilder.rejectedOnlyPage`).
                Planned(
                    path: "people/\(context.personSlugs[person.key]!)", title: person.name,
                    model: { $0.rejectedOnlyPage(key: person.key, name: person.name) },
                    dependsOn: .rejectedOnly(key: person.key, name: person.name))
            } + context.roundOnly.map { person in
                // Someone only finished rounds name: what they owe, what is owed to them, their rounds.
                Planned(
                    path: "people/\(context.personSlugs[person.key]!)", title: person.name,
                    model: { $0.roundOnlyPage(key: person.key, name: person.name) })
            }
        },
        // The pages of a long person's orders after their page.
        PageKind(PageModels.PersonOrdersPage.self) { context in
            context.aggregation.people.enumerated().flatMap { index, person in
                let pages = context.personPages(person)
                return (pages.extraPages.map(Array.init) ?? []).map { page in
                    Planned(
                        path: pages.path(ofPage: page), title: context.personPagesTitle(person, page: page),
                        model: { $0.personOrdersPage(person, page: page) },
                        dependsOn: .personOrders(person, at: index, page: page, of: pages))
                }
            }
        },
        // Earlier pages of spellings now merged into a person's, pointing to theirs (`SiteSlugs.aliases`).
        PageKind(PageModels.MovedPage.self) { context in
            context.personAliases.compactMap { alias in
                guard let name = context.personName(alias.key), let slug = context.personSlugs[alias.key] else { return nil }
                return Planned(
                    path: "people/\(alias.slug)", title: name,
                    model: { $0.movedPage(name: name, slug: slug) })
            }
        },
        // People and groups whose orders were all deleted, for 30 days (`Tombstones`).
        // A long list goes on pages after the first (`SiteContext.tombstonePages`).
        PageKind(PageModels.TombstonePage.self) { context in
            // Money still open keeps a person's page from the rounds instead (`SiteContext.roundOnly`).
            let roundOnly = Set(context.roundOnly.map(\.key))
            let people = context.tombstones.people.filter { !roundOnly.contains($0.key) }
            return [(people, false), (context.tombstones.groups, true)].flatMap { stones, group in
                stones.flatMap { stone in
                    let pages = context.tombstonePages(stone, group: group)
                    return (1...pages.pageCount).map { page in
                        Planned(
                            path: pages.path(ofPage: page), title: context.tombstoneTitle(stone, group: group, page: page),
                            model: { $0.tombstonePage(stone, group: group, page: page) })
                    }
                }
            }
        },
        listPages(.groups) { $0.groupList(page: $1) },
        listPages(.people) { $0.peopleList(page: $1) },
        single(PageModels.RatesPage.self) { $0.labels["rates"] } model: { $0.rates() },
        single(PageModels.AttentionPage.self) { $0.labels["attention"] } model: { $0.attention() },
        single(PageModels.ChangesPage.self) { $0.labels["changes"] } model: { $0.changes() },
        // Finished rounds, kept in the state and published by every build (`RoundArchive`).
        PageKind(PageModels.ArchivePage.self) { context in
            context.archives.map { archive in
                Planned(path: archive.path, title: "\(archive.group) · \(archive.date)", model: { $0.archive(archive) })
            }
        },
    ]

    package static var templates: [String] { all.map(\.template) }

    /// The pages of a long list after the first, which the index shows; the template is named after the list.
    private static func listPages<Model: PageModel>(
        _ list: ListPages.List, model: @escaping @Sendable (PageBuilder, Int) -> Model
    ) -> PageKind {
        PageKind(Model.self) { context in
            let pages = context.listPages(list)
            return (pages.extraPages.map(Array.init) ?? []).map { page in
                Planned(
                    path: pages.path(ofPage: page),
                    title: context.labels.text(
                        "\(list.rawValue)_page", ["page": String(page), "pages": String(pages.pageCount)]),
                    model: { model($0, page) }, dependsOn: .listPage(list, page: page, of: pages))
            }
        }
    }

    /// A kind with one page, at the top of the site, named after its template.
    private static func single<Model: PageModel>(
        _ model: Model.Type, title: @escaping @Sendable (SiteContext) -> String, model build: @escaping @Sendable (PageBuilder) -> Model
    ) -> PageKind {
        PageKind(model) { context in [Planned(path: Model.template, title: title(context), model: build)] }
    }
}
