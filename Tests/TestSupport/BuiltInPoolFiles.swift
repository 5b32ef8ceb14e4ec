import Foundation
import LearnModel

/// The repository's own pool files, for tests that play with the real word
/// lists. The app finds them through its resource lookup; tests know where
/// the repository is from this file's path.
public enum RepositoryResources {
    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("resources")

    public static func url(_ relativePath: String) -> URL { directory.appendingPathComponent(relativePath) }
}

extension BuiltInPools {
    public static func german() throws -> WordPool { try load("de") }
    public static func english() throws -> WordPool { try load("en") }
    public static func all() throws -> [WordPool] { try languages.map(load) }

    public static func load(_ language: String) throws -> WordPool {
        try decode(Data(contentsOf: RepositoryResources.url(resourcePath(language))), language: language)
    }
}
