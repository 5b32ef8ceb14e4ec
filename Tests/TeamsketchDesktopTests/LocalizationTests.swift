import Foundation
import TeamsketchCore
import Testing
@testable import TeamsketchDesktop
@testable import TeamsketchDesktopApp

/// Where the app binds its gettext domain: beside the data it finds, so an
/// installed binary under any prefix reads its own catalogue.
@Suite struct LocalizationTests {
    private func tree(_ files: [String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("teamsketch-l10n-\(UUID().uuidString)").path
        for file in files {
            let path = root + "/" + file
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Data("mo".utf8).write(to: URL(fileURLWithPath: path))
        }
        return root
    }

    @Test func anInstalledBinaryReadsTheCatalogueOfItsOwnPrefix() throws {
        let root = try tree(["opt/ts/share/locale/de/LC_MESSAGES/teamsketch.mo",
                             "usr/share/locale/de/LC_MESSAGES/teamsketch.mo"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let locator = ResourceLocator(environment: ["HOME": root + "/home", "XDG_DATA_DIRS": root + "/usr/share"],
                                      executablePath: root + "/opt/ts/bin/TeamsketchDesktop")
        #expect(Localization.catalogueDirectory(environment: [:], executableDirectory: root + "/opt/ts/bin",
                                                locator: locator) == root + "/opt/ts/share/locale")
    }

    @Test func aDataDirWithoutACatalogueIsPassedOver() throws {
        let root = try tree(["usr/share/locale/de/LC_MESSAGES/teamsketch.mo"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let locator = ResourceLocator(directories: [root + "/empty/share/teamsketch", root + "/usr/share/teamsketch"])
        #expect(Localization.catalogueDirectory(environment: [:], executableDirectory: "/nowhere/bin",
                                                locator: locator) == root + "/usr/share/locale")
        #expect(Localization.catalogueDirectory(environment: ["TEAMSKETCH_LOCALEDIR": root + "/usr/share/locale"],
                                                executableDirectory: nil, locator: ResourceLocator(directories: []))
                == root + "/usr/share/locale")
        #expect(Localization.catalogueDirectory(environment: [:], executableDirectory: nil,
                                                locator: ResourceLocator(directories: [])) == "/usr/share/locale")
    }
}
