import Foundation
import LearnModel
import Testing

@Suite struct ActivityCatalogueTests {
    @Test func eachActivityIsListedOnceUnderEveryName() {
        let all = ActivityCatalogue.all
        #expect(Set(all.map(\.setting)) == Set(ClassSettingsRecord.Activity.allCases), "every setting has its activity")
        #expect(Set(all.map(\.kind)).count == all.count)
        let kioskNames = all.flatMap { [$0.kioskName] + $0.kioskAliases }
        #expect(Set(kioskNames).count == kioskNames.count, "no kiosk name means two activities")
        for entry in all {
            #expect(ActivityCatalogue.entry(entry.setting) == entry)
            #expect(ActivityCatalogue.entry(entry.kind) == entry)
            #expect(ActivityCatalogue.entry(kioskName: entry.kioskName) == entry)
            for alias in entry.kioskAliases { #expect(ActivityCatalogue.entry(kioskName: alias) == entry) }
            #expect(!entry.icon.isEmpty)
        }
    }

    @Test func theCatalogueSaysWhatEachActivityDeclaresToTheSession() {
        #expect(ActivityCatalogue.teamSketch.kind == SketchActivity.kind)
        #expect(ActivityCatalogue.teamSketch.startRule == SketchActivity.startRule)
        #expect(ActivityCatalogue.wordPost.kind == WordPostActivity.kind)
        #expect(ActivityCatalogue.wordPost.startRule.mayPlayAlone, "a child may practise the word game alone")
        #expect(!ActivityCatalogue.teamSketch.startRule.mayPlayAlone)
        #expect(ActivityCatalogue.entry(kioskName: "chess") == nil)
        #expect(ActivityCatalogue.entry(SessionActivity(rawValue: "chess")!) == nil)
    }
}
