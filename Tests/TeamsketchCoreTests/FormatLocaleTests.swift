import Foundation
import Testing
@testable import TeamsketchCore

@Suite struct FormatLocaleTests {
    let moment = Date(timeIntervalSince1970: 1_795_300_000)  // a November evening, 2026

    func written(_ env: [String: String]) -> String {
        let f = FormatLocale.dateFormatter(date: .medium, time: .short, locale: FormatLocale.from(environment: env))
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: moment)
    }

    @Test func aGermanClassroomReadsGermanDates() {
        let german = written(["LANG": "de_DE.UTF-8"])
        #expect(german.contains("2026") && !german.contains("PM") && !german.contains("AM"))
        #expect(german.contains("."), "German writes the day as 26.")
        #expect(written(["LC_ALL": "de_AT.UTF-8@euro"]) == written(["LC_TIME": "de_AT"]))
    }

    @Test func lcAllWinsThenLcTimeThenLang() {
        #expect(FormatLocale.from(environment: ["LC_ALL": "de_DE.UTF-8", "LANG": "en_GB.UTF-8"]).identifier == "de_DE")
        #expect(FormatLocale.from(environment: ["LC_ALL": "", "LC_TIME": "fr_FR", "LANG": "de_DE"]).identifier == "fr_FR")
        #expect(FormatLocale.from(environment: ["LANG": "de_DE.UTF-8"]).identifier == "de_DE")
    }

    @Test func cOrNothingOrNonsenseIsEnglish() {
        for env in [[:], ["LANG": "C.UTF-8"], ["LC_ALL": "POSIX"], ["LANG": "xxxxxxxx_yy"], ["LANG": "../../etc"]] {
            #expect(FormatLocale.from(environment: env).identifier == "en_US_POSIX", "\(env)")
        }
        #expect(written(["LANG": "C.UTF-8"]).contains("PM") || written(["LANG": "C.UTF-8"]).contains("AM"))
    }
}
