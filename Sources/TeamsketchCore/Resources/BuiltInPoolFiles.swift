import Foundation
import LearnModel

/// The built-in word pools found among the resources, and what went wrong
/// with the others. A damaged or missing file costs only its own list.
public struct BuiltInPoolFiles: Sendable {
    public var pools: [WordPool]
    public var problems: [ResourceProblem]

    public init(locator: ResourceLocator) {
        pools = []
        problems = []
        for language in BuiltInPools.languages {
            let resource = BuiltInPools.resourcePath(language)
            do {
                let file = try locator.contents(of: resource)
                do {
                    pools.append(try BuiltInPools.decode(file.data, language: language))
                } catch {
                    problems.append(.damaged(resource: resource, path: file.path, reason: Self.describe(error)))
                }
            } catch {
                problems.append(error)
            }
        }
    }

    /// The problems that cost a list: those whose language has no built-in
    /// pool among `offered`. A file damaged after the store took its copy
    /// costs nothing, because the stored copy is what is offered.
    public func problems(notOffered offered: [WordPool]) -> [ResourceProblem] {
        let ids = Set(offered.map(\.id))
        return zip(BuiltInPools.languages, BuiltInPools.languages.map(BuiltInPools.resourcePath)).compactMap { language, resource in
            ids.contains(BuiltInPools.id(language)) ? nil : problems.first { $0.resource == resource }
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case BuiltInPoolError.wrongLanguage(let expected, let found): "language is \(found), not \(expected)"
        case BuiltInPoolError.noPlayableWords: "no playable word"
        case is DecodingError: "not a word pool (\(error))"
        default: "\(error)"
        }
    }
}
