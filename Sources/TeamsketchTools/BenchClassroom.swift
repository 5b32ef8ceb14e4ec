import Foundation
import LearnModel
import SchoolClient
import TeamsketchCommandSupport

/// Pupils for the server benchmarks, as a school has them: classes of 24
/// (six groups of four), each pupil with a picture password and signed in
/// on their own device. Every pupil has an account of their own because the
/// server caps what one account may cost (its relayed sessions and
/// sockets, its pushes in flight): a benchmark that worked as one account
/// would measure those caps, not the server.
struct BenchClassroom {
    struct Pupil {
        var token: String
        var account: UUID
    }

    struct Group {
        var classID: SchoolClassID
        var pupils: [Pupil]
    }

    /// The pupils in groups of four (the last may be smaller), each group
    /// of one class.
    let groups: [Group]

    static func make(pupils count: Int, client: SchoolServerClient, teacherToken: String) async throws -> BenchClassroom {
        var groups: [Group] = []
        let run = UUID().uuidString.prefix(6)
        for classNumber in 0..<((count + 23) / 24) {
            let classID = try await client.createClass(named: "Bench \(run) \(classNumber + 1)", token: teacherToken)
            var pupils: [Pupil] = []
            for pupil in 0..<min(24, count - classNumber * 24) {
                let id = try await client.addPupil(named: "Kind \(pupil + 1)", toClass: classID, token: teacherToken)
                try await client.setPictures([0, 1, 2], pupil: id, token: teacherToken)
                guard let account = id.uuid else { throw CLIFailure(message: "the server named a pupil \(id)") }
                pupils.append(Pupil(token: try await client.signInPupil(id: id, pictures: [0, 1, 2]).token, account: account))
            }
            groups += stride(from: 0, to: pupils.count, by: 4).map {
                Group(classID: classID, pupils: Array(pupils[$0..<min($0 + 4, pupils.count)]))
            }
        }
        return BenchClassroom(groups: groups)
    }
}
