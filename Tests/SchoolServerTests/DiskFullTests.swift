import Foundation
import HTTPTypes
import Logging
import TeamsketchTestSupport
import Testing
@testable import SchoolServer

/// The server's disk fills up under it — a real tmpfs, filled to the last
/// byte by another program: new work is refused with 507 and said in the
/// log, signing in and reading go on, and work is stored again once space
/// returns. (PostgreSQL keeps its files on its own server; its "disk full"
/// error is mapped to the same 507.)
@Suite(.serialized, .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
struct DiskFullTests {
    @Test func aFullDiskRefusesNewWorkButNotSigningInOrReadingAndRecovers() async throws {
        let disk = try await TinyDisk(kilobytes: 16 * 1024)
        let location = DatabaseLocation.sqlite(path: disk.path + "/teamsketch.sqlite")
        var server = TestServer(.sqlite)
        server.database = { clock in try await location.open(logger: Logger(label: "test"), clock: clock) }
        server.configuration.disk.reserve = 2 << 20
        server.configuration.disk.ballast = 1 << 20
        try await server.run { api in
            let ballast = disk.path + "/" + DiskRoom.ballastName
            #expect(FileManager.default.fileExists(atPath: ballast), "the ballast is made at start")
            let (_, berg) = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"])
            let mia = klass.pupils["Mia"]!
            let sketch = UUID()
            #expect(try await api.push([Changes.create(sketch), Changes.stroke(sketch)], token: mia.token).accepted.count == 2)

            // Another program takes every byte.
            let filler = disk.fill()
            let push = try await api.call(.post, "/sync/push", token: mia.token, json: ["changes": [Changes.stroke(sketch, x: 300)]])
            #expect(push.status.code == 507 && push.problemCode == "diskFull", "\(push.status)")
            #expect(!FileManager.default.fileExists(atPath: ballast), "the ballast is given up for sign-ins")
            let newPupil = try await api.call(.post, "/classes/\(klass.id)/pupils", token: berg, json: ["name": "Ole"])
            #expect(newPupil.status.code == 507)

            // Signing in and reading go on.
            let teacher = try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "correct horse"])
            #expect(teacher.status == .created)
            let pupil = try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia.id, "pictures": [1, 2, 3]])
            #expect(pupil.status == .created)
            let listed = try await api.call(.get, "/sketches", token: mia.token).array
            #expect(listed.first?["opCount"] as? Int == 1)
            #expect(try await api.call(.get, "/sketches/\(sketch.uuidString.lowercased())/thumbnail", token: berg).status == .ok)
            #expect(try await api.pullAll(token: berg).count >= 2)

            // Space returns: the same push is stored, the ballast made again.
            try FileManager.default.removeItem(atPath: filler)
            #expect(try await api.push([Changes.stroke(sketch, x: 300)], token: mia.token).accepted.count == 1)
            #expect(FileManager.default.fileExists(atPath: ballast))
        }
    }
}
