import Foundation
import Testing
import TeamsketchCore

@Suite struct FirstRunTests {
    let signIn = SchoolSignIn(server: "https://schule.local:8470", accountID: "6a1d9b2e-2222-4c3d-8e4f-5a6b7c8d9e0f",
                              name: "Frau Berg", isTeacher: true, token: "t", expiresAt: Date() + 3600)

    @Test func aFreshLaptopIsAskedOnce() {
        #expect(FirstRun.asks(device: DeviceClassroom(), signIn: nil, kiosk: false))
        var standalone = DeviceClassroom()
        standalone.standalone = true
        #expect(!FirstRun.asks(device: standalone, signIn: nil, kiosk: false))
        #expect(!FirstRun.asks(device: DeviceClassroom(server: "https://schule.local:8470", classID: "c"), signIn: nil,
                               kiosk: false))
    }

    @Test func aLaptopInUseOrAKioskOrADamagedFileIsNotAsked() {
        #expect(!FirstRun.asks(device: DeviceClassroom(pin: TeacherPIN.make("2468")), signIn: nil, kiosk: false))
        #expect(!FirstRun.asks(device: DeviceClassroom(), signIn: signIn, kiosk: false))
        #expect(!FirstRun.asks(device: DeviceClassroom(), signIn: nil, kiosk: true))
        #expect(!FirstRun.asks(device: .damaged, signIn: nil, kiosk: false))
    }

    @Test func theChoiceIsKeptInTheSetUpFileAndAnOlderFileReadsAsNotChosen() throws {
        var device = DeviceClassroom()
        device.standalone = true
        let again = try JSONDecoder().decode(DeviceClassroom.self, from: try JSONEncoder().encode(device))
        #expect(again.standalone)
        let older = try JSONDecoder().decode(DeviceClassroom.self, from: Data(#"{"server":"https://s"}"#.utf8))
        #expect(!older.standalone && older.server == "https://s")
    }

    @MainActor @Test func settingUpForAClassRemembersServerAndClass() throws {
        let prefs = DevicePreferences(client: .inMemory(), classroom: .inMemory(), overrides: SettingsOverrides(), userName: nil)
        try prefs.belongToClass("0A1B2C3D-0000-4000-8000-000000000001", of: signIn)
        #expect(prefs.device.server == signIn.server)
        #expect(prefs.device.classID == "0a1b2c3d-0000-4000-8000-000000000001")
        #expect(!FirstRun.asks(device: prefs.device, signIn: nil, kiosk: false))
        // Set-up left before a class was chosen: asked again.
        let left = DevicePreferences(client: .inMemory(), classroom: .inMemory(), overrides: SettingsOverrides(), userName: nil)
        try left.rememberSchool(signIn)
        #expect(!FirstRun.asks(device: left.device, signIn: nil, kiosk: false))
        try left.forgetSchool()
        #expect(FirstRun.asks(device: left.device, signIn: nil, kiosk: false))
        let other = DevicePreferences(client: .inMemory(), classroom: .inMemory(), overrides: SettingsOverrides(), userName: nil)
        try other.useWithoutServer()
        #expect(!FirstRun.asks(device: other.device, signIn: nil, kiosk: false))
    }
}
