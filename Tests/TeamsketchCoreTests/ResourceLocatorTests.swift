import Foundation
import LearnModel
import TeamsketchCore
import TeamsketchTestSupport
import Testing

/// A scratch directory tree, removed when the test ends.
private final class TempTree {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("teamsketch-res-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    @discardableResult
    func write(_ relative: String, _ data: Data) throws -> String {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    func write(_ relative: String, _ text: String) throws { try write(relative, Data(text.utf8)) }

    /// Copies the repository's real resource file.
    func copyRepository(_ relative: String, into dir: String) throws {
        try write(dir + "/" + relative, Data(contentsOf: RepositoryResources.url(relative)))
    }
}

@Suite struct ResourceLocatorTests {
    @Test func searchOrderIsBuildTreeThenDataHomeThenEachDataDir() {
        let locator = ResourceLocator(
            environment: ["XDG_DATA_HOME": "/home/mia/.data", "XDG_DATA_DIRS": "/opt/share:relative/ignored:/usr/share/"],
            executablePath: "/src/teamsketch/.build/x86_64-unknown-linux-gnu/debug/TeamsketchDesktop")
        #expect(locator.directories == [
            "/src/teamsketch/resources",
            "/home/mia/.data/teamsketch",
            "/opt/share/teamsketch",
            "/usr/share/teamsketch",
        ])
    }

    @Test func defaultsFollowTheXDGRulesForAnInstalledBinary() {
        let locator = ResourceLocator(environment: ["HOME": "/home/ben", "XDG_DATA_HOME": "not/absolute"],
                                      executablePath: "/usr/local/bin/TeamsketchDesktop")
        #expect(locator.directories == [
            "/home/ben/.local/share/teamsketch",
            "/usr/local/share/teamsketch",
            "/usr/share/teamsketch",
        ])
    }

    @Test func anInstalledBinaryLooksInItsOwnPrefixBeforeTheDataDirs() {
        let locator = ResourceLocator(environment: ["HOME": "/home/ben", "XDG_DATA_DIRS": "/usr/share"],
                                      executablePath: "/opt/teamsketch/bin/TeamsketchDesktop")
        #expect(locator.directories == [
            "/home/ben/.local/share/teamsketch",
            "/opt/teamsketch/share/teamsketch",
            "/usr/share/teamsketch",
        ])
        #expect(ResourceLocator.installedData(executablePath: "/usr/bin/TeamsketchDesktop") == "/usr/share/teamsketch")
        #expect(ResourceLocator.installedData(executablePath: "/w/repo/.build/debug/TeamsketchDesktop") == nil)
        #expect(ResourceLocator.installedData(executablePath: "bin/TeamsketchDesktop") == nil)
        #expect(ResourceLocator.installedData(executablePath: "/TeamsketchDesktop") == nil)
    }

    @Test func environmentOverrideReplacesTheBuildTree() {
        let locator = ResourceLocator(
            environment: [ResourceLocator.overrideVariable: "/tmp/elsewhere", "HOME": "/h", "XDG_DATA_DIRS": "/d"],
            executablePath: "/src/teamsketch/.build/debug/TeamsketchDesktop")
        #expect(locator.directories == ["/tmp/elsewhere", "/h/.local/share/teamsketch", "/d/teamsketch"])
    }

    @Test func buildTreeIsFoundOnlyBelowADotBuildDirectory() {
        #expect(ResourceLocator.buildTreeResources(executablePath: "/w/repo/.build/release/TeamsketchDesktop") == "/w/repo/resources")
        #expect(ResourceLocator.buildTreeResources(executablePath: "/usr/bin/TeamsketchDesktop") == nil)
        #expect(ResourceLocator.buildTreeResources(executablePath: ".build/debug/TeamsketchDesktop") == nil)
    }

    @Test func firstDirectoryHoldingTheFileWinsAndDirectoriesAreNotFiles() throws {
        let tree = try TempTree()
        try tree.write("a/style/teamsketch.css", "a")
        try tree.write("b/style/teamsketch.css", "b")
        try tree.write("b/sounds/snap.wav/keep", "a directory named like the file")
        let locator = ResourceLocator(directories: [tree.root + "/missing", tree.root + "/a", tree.root + "/b"])
        #expect(locator.path(for: "style/teamsketch.css") == tree.root + "/a/style/teamsketch.css")
        #expect(locator.path(for: "sounds/snap.wav") == nil)
        #expect(throws: ResourceProblem.missing(resource: "sounds/snap.wav", searched: locator.directories)) {
            try locator.contents(of: "sounds/snap.wav")
        }
    }

    @Test func problemsNameTheResourceAndWhereItWasLooked() {
        let missing = ResourceProblem.missing(resource: "pools/de.json", searched: ["/a", "/b"])
        #expect(missing.resource == "pools/de.json")
        #expect(missing.logLine.contains("pools/de.json") && missing.logLine.contains("/a, /b"))
        let damaged = ResourceProblem.damaged(resource: "pools/en.json", path: "/a/pools/en.json", reason: "empty")
        #expect(damaged.logLine.contains("/a/pools/en.json") && damaged.logLine.contains("damaged"))
    }
}

@Suite struct BuiltInPoolFilesTests {
    @Test func repositoryPoolsAreFoundAndDecoded() throws {
        let found = BuiltInPoolFiles(locator: ResourceLocator(directories: [RepositoryResources.directory.path]))
        #expect(found.problems == [])
        #expect(found.pools.map(\.id) == [BuiltInPools.germanID, BuiltInPools.englishID])
        #expect(found.pools == (try BuiltInPools.all()))
    }

    @Test func aDamagedFileCostsOnlyItsOwnList() throws {
        let tree = try TempTree()
        try tree.copyRepository("pools/de.json", into: "res")
        let bad = try tree.write("res/pools/en.json", Data("{\"id\": \"builtin.en\", \"name\": ".utf8))
        let found = BuiltInPoolFiles(locator: ResourceLocator(directories: [tree.root + "/res"]))
        #expect(found.pools.map(\.id) == [BuiltInPools.germanID])
        #expect(found.problems.count == 1)
        guard case .damaged(let resource, let path, _) = found.problems.first else {
            Issue.record("expected a damaged file, got \(found.problems)")
            return
        }
        #expect(resource == "pools/en.json" && path == bad)
        #expect(found.problems(notOffered: found.pools) == found.problems)
    }

    @Test func aPoolInTheWrongLanguageOrWithoutWordsIsDamaged() throws {
        let tree = try TempTree()
        let german = try Data(contentsOf: RepositoryResources.url("pools/de.json"))
        try tree.write("res/pools/en.json", german)
        let empty = WordPool(id: BuiltInPools.germanID, name: "Leer", language: "de", items: [])
        try tree.write("res/pools/de.json", JSONEncoder().encode(empty))
        let found = BuiltInPoolFiles(locator: ResourceLocator(directories: [tree.root + "/res"]))
        #expect(found.pools.isEmpty)
        #expect(found.problems.map(\.resource) == ["pools/de.json", "pools/en.json"])
        #expect(found.problems.allSatisfy { if case .damaged = $0 { true } else { false } })
    }

    @Test func aMissingFileIsNotReportedWhenTheStoreStillOffersItsList() throws {
        let tree = try TempTree()
        try tree.copyRepository("pools/de.json", into: "res")
        let found = BuiltInPoolFiles(locator: ResourceLocator(directories: [tree.root + "/res"]))
        #expect(found.problems.map(\.resource) == ["pools/en.json"])
        #expect(found.problems(notOffered: try BuiltInPools.all()) == [])
        #expect(found.problems(notOffered: found.pools).map(\.resource) == ["pools/en.json"])
    }
}

@Suite struct GameSoundFilesTests {
    @Test func everySoundIsAWAVFileInTheRepository() {
        let found = GameSoundFiles(locator: ResourceLocator(directories: [RepositoryResources.directory.path]))
        #expect(found.problems == [])
        #expect(Set(found.paths.keys) == Set(GameSound.allCases))
    }

    @Test func missingAndDamagedSoundsAreLeftOutAndTheRestPlay() throws {
        let tree = try TempTree()
        for sound in GameSound.allCases where sound != .snap && sound != .word {
            try tree.write("res/" + sound.resourcePath, Data(contentsOf: RepositoryResources.url(sound.resourcePath)))
        }
        try tree.write("res/" + GameSound.word.resourcePath, "<html>not a sound</html> padded to more than a header's length")
        let found = GameSoundFiles(locator: ResourceLocator(directories: [tree.root + "/res"]))
        #expect(found.paths[.snap] == nil && found.paths[.word] == nil)
        #expect(found.paths[.round] == tree.root + "/res/sounds/round.wav")
        #expect(found.problems.map(\.resource) == ["sounds/snap.wav", "sounds/word.wav"])
        if case .missing = found.problems[0] {} else { Issue.record("snap should be missing") }
        if case .damaged = found.problems[1] {} else { Issue.record("word should be damaged") }
    }
}

@Suite struct StyleSheetFileTests {
    @Test func theRepositoryStyleSheetIsFound() {
        let locator = ResourceLocator(directories: [RepositoryResources.directory.path])
        #expect(StyleSheetFile.locate(locator) == .success(RepositoryResources.url(StyleSheetFile.resourcePath).path))
    }

    @Test func missingEmptyOrBinaryStyleSheetsAreReported() throws {
        let tree = try TempTree()
        let locator = ResourceLocator(directories: [tree.root])
        #expect(StyleSheetFile.locate(locator) == .failure(.missing(resource: StyleSheetFile.resourcePath, searched: [tree.root])))
        try tree.write(StyleSheetFile.resourcePath, "  \n")
        guard case .failure(.damaged(_, _, let reason)) = StyleSheetFile.locate(locator) else {
            Issue.record("an empty style sheet should be damaged")
            return
        }
        #expect(reason == "empty")
        try tree.write(StyleSheetFile.resourcePath, Data([0xff, 0xfe, 0x00, 0xc3]))
        guard case .failure(.damaged) = StyleSheetFile.locate(locator) else {
            Issue.record("a binary style sheet should be damaged")
            return
        }
    }

    @Test func iconThemeDirectoryIsTheOneHoldingTheIcon() throws {
        let tree = try TempTree()
        try tree.write("b/" + AppIconFiles.scalable, "<svg/>")
        let locator = ResourceLocator(directories: [tree.root + "/a", tree.root + "/b"])
        #expect(AppIconFiles.themeDirectory(locator) == tree.root + "/b/icons")
        #expect(AppIconFiles.themeDirectory(ResourceLocator(directories: [tree.root + "/a"])) == nil)
    }
}
