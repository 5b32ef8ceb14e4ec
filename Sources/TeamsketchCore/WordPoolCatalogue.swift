import Foundation
import LearnModel

/// The word pools Buchstaben Post offers and which one is chosen at first.
/// The built-in pools are put into the store once per run (a pool the
/// teacher deleted stays deleted: the store only adds ids it never had);
/// after that the store's pools are what is offered, imported ones
/// included. Without a store, the built-in files themselves are offered.
@MainActor
public final class WordPoolCatalogue {
    /// What the start screen shows.
    public struct Offer: Equatable, Sendable {
        public var pools: [WordPool]
        /// Chosen when the screen opens: the class's list, else the
        /// built-in pool in the pupil's language, else the first one offered.
        public var chosen: WordPool?
        /// The teacher gave the pupil's class these lists: only they are
        /// offered, since the teacher, not the child, picks the words.
        public var fromTeacher: Bool = false
        /// Built-in files that could not be used and so cost a list.
        public var problems: [ResourceProblem]
    }

    private let builtIn: BuiltInPoolFiles
    private let store: PoolStoreClient?
    private let languages: [String]
    private var seeded = false

    /// `languages`: the pupil's languages, best first (`preferredLanguages`).
    public init(builtIn: BuiltInPoolFiles, store: PoolStoreClient?, languages: [String]) {
        self.builtIn = builtIn
        self.store = store
        self.languages = languages
    }

    /// The offer now: seeds the store the first time (again next time if
    /// that failed), then lists what it holds.
    /// `classID`: the signed-in pupil's class; when the teacher gave it
    /// lists (still in the store), only those are offered.
    public func offer(classID: SchoolClassID? = nil) -> Offer {
        var pools = builtIn.pools
        if let store {
            if !seeded { seeded = (try? store.loadBuiltInIfMissing(builtIn.pools)) != nil }
            if let stored = try? store.pools(), !stored.isEmpty { pools = stored }
            if let classID, let given = try? Set(store.assignedPools(classID)) {
                let forClass = pools.filter { given.contains($0.id) }
                if !forClass.isEmpty {
                    return Offer(pools: forClass, chosen: forClass.first, fromTeacher: true, problems: [])
                }
            }
        }
        return Offer(pools: pools, chosen: Self.chosen(in: pools, languages: languages),
                     problems: builtIn.problems(notOffered: pools))
    }

    public static func chosen(in pools: [WordPool], languages: [String]) -> WordPool? {
        for language in languages {
            if let pool = pools.first(where: { $0.id == BuiltInPools.id(language) }) { return pool }
        }
        return pools.first
    }

    /// The languages the app speaks to this pupil, best first, as gettext
    /// picks them: the locale from LC_ALL, LC_MESSAGES or LANG (the first
    /// one set and not empty); in any locale but C, LANGUAGE's list before
    /// it. English, the app's own language, comes last.
    public static func preferredLanguages(environment: [String: String]) -> [String] {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let locale = value("LC_ALL") ?? value("LC_MESSAGES") ?? value("LANG") ?? "C"
        let isC = locale == "C" || locale == "POSIX" || locale.hasPrefix("C.")
        var names = isC ? [] : (value("LANGUAGE")?.split(separator: ":").map(String.init) ?? [])
        if !isC { names.append(locale) }
        // "de_AT.UTF-8@euro" → "de"
        var languages = names.map { String($0.prefix { $0.isLetter }).lowercased() }.filter { !$0.isEmpty }
        languages.append("en")
        var seen = Set<String>()
        return languages.filter { seen.insert($0).inserted }
    }

    /// A built-in pool is named by its language in that language; the
    /// others by the name they were given.
    public static func title(of pool: WordPool) -> String {
        switch pool.id {
        case BuiltInPools.germanID: "Deutsch"
        case BuiltInPools.englishID: "English"
        default: pool.name
        }
    }
}
