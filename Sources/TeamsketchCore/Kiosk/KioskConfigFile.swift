import Foundation
import LearnModel

/// The kiosk's settings as a text file an admin writes by hand:
/// `/etc/teamsketch/kiosk.conf` for the machine, and the same keys in
/// `$XDG_CONFIG_HOME/teamsketch/kiosk.conf` for one user account, which win
/// key by key (the teacher's window writes this one).
///
/// ```
/// # Teamsketch on the corridor's touchscreen
/// fullscreen = yes
/// quit-needs-pin = yes
/// activities = team-sketch, word-post
/// idle-minutes = 10
/// sounds = no
/// ```
///
/// `#` starts a comment, blank lines and a `[kiosk]` heading are allowed.
/// A line that cannot be read is reported and skipped; the rest applies.
public struct KioskConfigFile: Equatable, Sendable {
    public var fullscreen: Bool?
    public var quitNeedsPIN: Bool?
    public var activities: Set<ClassSettingsRecord.Activity>?
    public var idleMinutes: Int?
    public var sounds: Bool?

    /// Whether saving this would lock the kiosk (closing needs the PIN)
    /// on a computer with no PIN: nobody could then close it or open the
    /// teacher's window here, so the PIN is chosen first.
    public func locksWithoutPIN(hasPIN: Bool) -> Bool { quitNeedsPIN == true && !hasPIN }

    /// Admins' files are small; anything bigger is not one.
    public static let maxBytes = 64 * 1024
    static let maxLines = 1_000

    public init(fullscreen: Bool? = nil, quitNeedsPIN: Bool? = nil, activities: Set<ClassSettingsRecord.Activity>? = nil,
                idleMinutes: Int? = nil, sounds: Bool? = nil) {
        self.fullscreen = fullscreen
        self.quitNeedsPIN = quitNeedsPIN
        self.activities = activities
        self.idleMinutes = idleMinutes
        self.sounds = sounds
    }

    /// The file's settings and a line for each thing that could not be read
    /// ("line 3: idle-minutes is 0 to 240").
    public static func parse(_ text: String) -> (file: KioskConfigFile, problems: [String]) {
        guard text.utf8.count <= maxBytes else { return (KioskConfigFile(), ["the file is larger than 64 KiB"]) }
        var file = KioskConfigFile()
        var problems: [String] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(maxLines).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if line.isEmpty || line.lowercased() == "[kiosk]" { continue }
            func problem(_ what: String) { problems.append("line \(number + 1): \(what)") }
            guard let equals = line.firstIndex(of: "=") else {
                problem("not `key = value`")
                continue
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces).lowercased()
            switch key {
            case "fullscreen":
                if let on = flag(value) { file.fullscreen = on } else { problem("fullscreen is yes or no") }
            case "quit-needs-pin":
                if let on = flag(value) { file.quitNeedsPIN = on } else { problem("quit-needs-pin is yes or no") }
            case "sounds":
                if let on = flag(value) { file.sounds = on } else { problem("sounds is yes or no") }
            case "idle-minutes":
                if let minutes = Int(value), KioskSettings.idleMinutesRange.contains(minutes) {
                    file.idleMinutes = minutes
                } else {
                    problem("idle-minutes is \(KioskSettings.idleMinutesRange.lowerBound) to \(KioskSettings.idleMinutesRange.upperBound)")
                }
            case "activities":
                let names = value.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
                let found = names.compactMap(activity)
                if found.count == names.count, !found.isEmpty {
                    file.activities = Set(found)
                } else {
                    problem("activities are team-sketch and/or word-post")
                }
            default:
                problem("\(key) is not a kiosk setting")
            }
        }
        return (file, problems)
    }

    /// The file as the teacher's window writes it: only what is set.
    public var text: String {
        var lines = ["# Written by Teamsketch's teacher window; the same keys as /etc/teamsketch/kiosk.conf."]
        if let fullscreen { lines.append("fullscreen = \(fullscreen ? "yes" : "no")") }
        if let quitNeedsPIN { lines.append("quit-needs-pin = \(quitNeedsPIN ? "yes" : "no")") }
        if let activities {
            let names = ClassSettingsRecord.Activity.allCases.filter(activities.contains).map(Self.name(of:))
            lines.append("activities = \(names.joined(separator: ", "))")
        }
        if let idleMinutes { lines.append("idle-minutes = \(idleMinutes)") }
        if let sounds { lines.append("sounds = \(sounds ? "yes" : "no")") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `over` wins for every key it sets.
    public func overridden(by over: KioskConfigFile) -> KioskConfigFile {
        KioskConfigFile(fullscreen: over.fullscreen ?? fullscreen, quitNeedsPIN: over.quitNeedsPIN ?? quitNeedsPIN,
                        activities: over.activities ?? activities, idleMinutes: over.idleMinutes ?? idleMinutes,
                        sounds: over.sounds ?? sounds)
    }

    public var settings: KioskSettings {
        KioskSettings(fullscreen: fullscreen ?? false, quitNeedsPIN: quitNeedsPIN ?? false, activities: activities,
                      idleMinutes: idleMinutes ?? 0, sounds: sounds)
    }

    private static func flag(_ value: String) -> Bool? {
        switch value {
        case "yes", "true", "on", "1": true
        case "no", "false", "off", "0": false
        default: nil
        }
    }

    private static func activity(_ name: String) -> ClassSettingsRecord.Activity? {
        ActivityCatalogue.entry(kioskName: name)?.setting
    }

    private static func name(of activity: ClassSettingsRecord.Activity) -> String {
        ActivityCatalogue.entry(activity).kioskName
    }
}
