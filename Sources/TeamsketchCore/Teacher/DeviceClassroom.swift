import Foundation
import LearnModel

/// What the teacher set up on this device when there is no school server:
/// the PIN that opens the teacher's window, and the classroom settings the
/// pupils' screens obey. With a server, the class's settings come by sync
/// instead and take precedence.
public struct DeviceClassroom: Codable, Equatable, Sendable {
    public var pin: TeacherPIN?
    /// Wrong PIN tries and how long the next must wait.
    public var gate: TeacherPINGate?
    public var settings: ClassSettingsRecord?
    /// The school server this device last signed in to (a teacher's or a
    /// pupil's sign-in), so pupils can sign in with pictures after sign-outs
    /// and restarts.
    public var server: String?
    public var trustedCertificates: String?
    /// The class a pupil last signed in from (or the one the teacher set
    /// this laptop up for): the sign-in starts there.
    public var classID: SchoolClassID?
    /// Someone chose "Use without a server" when the app first started.
    public var standalone = false
    /// The file is there but could not be read (damaged, or written by a
    /// newer version): nobody may choose a new PIN then, or a pupil could
    /// take over the teacher's window by breaking the file.
    public var unreadable = false

    enum CodingKeys: String, CodingKey { case pin, gate, settings, server, trustedCertificates, classID, standalone }

    public init(pin: TeacherPIN? = nil, settings: ClassSettingsRecord? = nil, server: String? = nil,
                trustedCertificates: String? = nil, classID: SchoolClassID? = nil) {
        self.pin = pin
        self.settings = settings
        self.server = server
        self.trustedCertificates = trustedCertificates
        self.classID = classID
    }

    /// Each part on its own: settings from a newer version (an activity
    /// this one does not know) do not cost the PIN.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pin = try? c.decodeIfPresent(TeacherPIN.self, forKey: .pin)
        gate = try? c.decodeIfPresent(TeacherPINGate.self, forKey: .gate)
        settings = try? c.decodeIfPresent(ClassSettingsRecord.self, forKey: .settings)
        server = try? c.decodeIfPresent(String.self, forKey: .server)
        trustedCertificates = try? c.decodeIfPresent(String.self, forKey: .trustedCertificates)
        classID = try? c.decodeIfPresent(SchoolClassID.self, forKey: .classID)
        standalone = (try? c.decodeIfPresent(Bool.self, forKey: .standalone)) ?? false
    }

    public static let damaged: DeviceClassroom = {
        var d = DeviceClassroom()
        d.unreadable = true
        return d
    }()
}

/// Where the device's classroom set-up lives:
/// `$XDG_CONFIG_HOME/teamsketch/classroom.json`, readable by its owner only;
/// `inMemory` for tests.
public struct DeviceClassroomClient: Sendable {
    public var load: @Sendable () -> DeviceClassroom
    public var save: @Sendable (DeviceClassroom) throws -> Void

    public init(load: @escaping @Sendable () -> DeviceClassroom, save: @escaping @Sendable (DeviceClassroom) throws -> Void) {
        self.load = load
        self.save = save
    }

    /// No file is no set-up. A file larger than any set-up, or one that does
    /// not parse, reads as `damaged`: the defaults apply, and the teacher's
    /// window opens only to a teacher signed in to the school server.
    public static let maxFileBytes = 64 * 1024

    public static func live(environment: [String: String] = ProcessInfo.processInfo.environment) -> DeviceClassroomClient {
        let path = (ProfileClient.profilePath(environment: environment) as NSString)
            .deletingLastPathComponent + "/classroom.json"
        return DeviceClassroomClient(
            load: {
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return DeviceClassroom() }
                guard let size = attributes[.size] as? Int, size <= maxFileBytes,
                      let data = FileManager.default.contents(atPath: path),
                      let set = try? JSONDecoder().decode(DeviceClassroom.self, from: data) else { return .damaged }
                return set
            },
            save: { classroom in
                try PrivateFile.write(try JSONEncoder().encode(classroom), to: path)
            })
    }

    public static func inMemory(_ initial: DeviceClassroom = DeviceClassroom()) -> DeviceClassroomClient {
        let box = LockedValue(initial)
        return DeviceClassroomClient(load: { box.value }, save: { box.value = $0 })
    }
}
