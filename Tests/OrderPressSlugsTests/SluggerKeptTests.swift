import Foundation
import PropertyBased
import Testing

@testable import OrderPressValidate
@testable import OrderPressSlugs
import OrderPressTestSupport

/// Slugs kept from the last build (`PageSlugs`) stay with their names; newcomers take suffixes.
@Suite struct SluggerKeptTests {
    @Test func aNewcomerWhoseSlugCollidesGetsTheSuffix() {
        let before = Slugger.assign(["a my"], fallback: "person")
        #expect(before == ["a my": "a-my"])
        // From scratch, "-a my" sorts first and takes the plain slug; with the last build's slugs kept, "a my" keeps it.
        #expect(Slugger.assign(["a my", "-a my"], fallback: "person") == ["-a my": "a-my", "a my": "a-my-\(Slugger.hash("a my", length: 6))"])
        #expect(Slugger.assign(["a my", "-a my"], fallback: "person", kept: before) == ["a my": "a-my", "-a my": "a-my-\(Slugger.hash("-a my", length: 6))"])
    }

    /// A kept slug that could not be the name's (edited or damaged state) is not used: the name gets what a build from scratch gives.
    @Test(arguments: ["../amy", "amy/x", "index", "a--my", "-a-my", "ben", "", "Amy", "amy.html"])
    func aKeptSlugThatDoesNotFitItsNameIsIgnored(_ kept: String) {
        #expect(Slugger.assign(["amy", "amy!"], fallback: "person", kept: ["amy!": kept]) == Slugger.assign(["amy", "amy!"], fallback: "person"))
    }

    @Test func storedSlugsReadBack() {
        let groups = Slugger.assignInOrder(["週五下午茶", "Lunch"], fallback: "group")
        // People are stored by key (`PersonKey`): already folded, they read back as they are.
        let people = Slugger.assignInOrder(["amy", "-amy", "王小明"], fallback: "person")
        let text = PageSlugs.text(groups: groups, people: people)
        let read = PageSlugs(text: text)
        #expect(read == PageSlugs(groups: Dictionary(uniqueKeysWithValues: groups.map { ($0.key, $0.slug) }), people: Dictionary(uniqueKeysWithValues: people.map { ($0.key, $0.slug) })))
        #expect(PageSlugs(text: nil) == nil)
        #expect(PageSlugs(text: "x\ty\tz\np\tonly-two\n\n") == PageSlugs())
    }

    /// A state keyed by the old rule (lower case only) is read by `PersonKey`: spellings that had a page
    /// each are one person, who keeps the first line's slug; the others are aliases, which a state of
    /// this rule then stores as such and reads back.
    @Test func slugsOfTheOldRuleFoldIntoOnePersonWithAliases() {
        let old = "p\tken\tken\np\t伊藤 健\t伊藤-健\np\t伊藤健\t伊藤健\np\tｋｅｎ\tｋｅｎ\n"
        let read = PageSlugs(text: old)
        #expect(read == PageSlugs(people: ["ken": "ken", "伊藤健": "伊藤-健"], aliases: ["ken": ["ｋｅｎ"], "伊藤健": ["伊藤健"]]))
        let stored = PageSlugs.text(groups: [], people: [("ken", "ken"), ("伊藤健", "伊藤-健")], aliases: [("ken", "ｋｅｎ"), ("伊藤健", "伊藤健")])
        #expect(PageSlugs(text: stored) == read)
        // The person's slug made from another spelling still fits their key.
        #expect(Slugger.fits("伊藤-健", base: "伊藤健", fallback: "person"))
        #expect(Slugger.fits("ｋｅｎ", base: "ken", fallback: "person"))
        #expect(!Slugger.fits("ben", base: "ken", fallback: "person"))
    }

    /// The stored text read byte by byte gives what splitting it into lines and fields gives (the way
    /// it was read before), on generated texts of kinds, keys and slugs, tabs, empty fields and lines.
    @Test func storedSlugsReadAsSplittingThemReads() async {
        let pieces = ["g", "p", "x", "gg", "\t", "\t", "\t", "\n", "\n", "", "amy", "週五下午茶", "a-my-3f2a9c", "e\u{301}", " "]
        let texts = Gen.int(in: 0..<pieces.count).array(of: 0...40).array(of: 0...30)
        func split(_ text: String) -> PageSlugs {
            var read = PageSlugs()
            for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
                let fields = line.split(separator: UInt8(ascii: "\t"), maxSplits: 2, omittingEmptySubsequences: false)
                guard fields.count == 3, !fields[1].isEmpty, !fields[2].isEmpty else { continue }
                let (key, slug) = (String(Substring(fields[1])), String(Substring(fields[2])))
                if fields[0].elementsEqual("g".utf8) {
                    read.groups[key] = slug
                } else if fields[0].elementsEqual("p".utf8) {
                    // A person's key folded (`PersonKey`); a second line of one key names an alias.
                    let person = PersonKey(key).text
                    if read.people[person] == nil {
                        read.people[person] = slug
                    } else if read.people[person] != slug, !(read.aliases[person]?.contains(slug) ?? false) {
                        read.aliases[person, default: []].append(slug)
                    }
                }
            }
            return read
        }
        await propertyCheck(count: 500, input: texts) { lists in
            // Mostly well-formed lines, now and then anything.
            let text = lists.map { seeds in
                seeds.count % 3 == 0 ? seeds.map { pieces[$0] }.joined() : "\(seeds.first.map { $0 % 2 == 0 ? "g" : "p" } ?? "p")\t\(seeds.map { pieces[10 + $0 % 5] }.joined())\t\(pieces[10 + seeds.count % 5])\n"
            }.joined()
            #expect(PageSlugs(text: text) == split(text), "\(text.debugDescription)")
        }
    }

    /// Names of one build, then those names with others added and some gone: every name that stays
    /// keeps its slug, all slugs stay distinct and safe, and without kept slugs the result is as before.
    @Test func keptSlugsStayWithTheirNamesWhateverIsAdded() async {
        await propertyCheck(count: 300, input: SluggerTests.collidingNames, SluggerTests.collidingNames) { first, second in
            let before = Slugger.assign(first.0, fallback: "group")
            let names = Array(first.0.prefix(first.0.count / 2)) + second.0
            let after = Slugger.assign(names, fallback: "group", kept: before)
            #expect(Set(after.keys) == Set(names))
            #expect(Set(after.values.map(Slugger.caseFolded)).count == after.count, "\(after)")
            for slug in after.values { #expect(SluggerTests.isSafeFileName(slug), "\(slug)") }
            for name in names where before[name] != nil { #expect(after[name] == before[name], "\(name)") }
            #expect(Slugger.assign(names.shuffled(), fallback: "group", kept: before) == after)
            #expect(Slugger.assign(names, fallback: "group", kept: [:]) == Slugger.assign(names, fallback: "group"))
        }
    }
}
