import Foundation
import SchoolServerAPI

/// The end of a school year. A teacher archives a class when the year is
/// over; the school's admin decides how long an archived class is kept;
/// after that the server erases it with its pupils, as removing each
/// pupil would, so nothing of a child stays longer than the school said.
extension SchoolAPI {
    /// At least a month: a class archived by mistake can still come back.
    static let retentionDays = 30...3650

    func getRetention(_ input: Operations.GetRetention.Input) async throws -> Operations.GetRetention.Output {
        _ = try await signedInTeacher()
        return .ok(.init(body: .json(.init(days: try await database { try await store.archiveRetentionDays() }))))
    }

    func setRetention(_ input: Operations.SetRetention.Input) async throws -> Operations.SetRetention.Output {
        let admin = try await signedInAdmin()
        let body = switch input.body { case .json(let body): body }
        if let days = body.days, !Self.retentionDays.contains(days) {
            throw Problem(.badRequest, "an archived class is kept 30 to 3650 days")
        }
        try await database { try await store.setArchiveRetention(days: body.days) }
        logger.notice("retention of archived classes set", metadata: ["days": "\(body.days.map(String.init) ?? "none")",
                                                                      "admin": "\(admin.id.key)"])
        return .ok(.init(body: .json(.init(days: body.days))))
    }

    /// Erases every class archived for longer than the school keeps them,
    /// pupil by pupil (each under their push turn, each told to the
    /// class's devices), then the class. The period is read again before
    /// each class, so an admin who changes their mind stops the rest.
    /// Returns how many classes went. Run once an hour by
    /// `RetentionSweeper`, and by tests with their clock.
    @discardableResult
    func eraseClassesPastRetention() async throws -> Int {
        let now = now
        guard let days = try await database({ try await store.archiveRetentionDays() }) else { return 0 }
        var erased = 0
        for schoolClass in try await database({ try await store.classesPastRetention(days: days, now: now) }) {
            guard let still = try await database({ try await store.archiveRetentionDays() }) else { break }
            let before = AccountStore.archivedBefore(days: still, now: now)
            let leaving = AccountStore.ClassLeaving(classID: schoolClass.id, pupils: schoolClass.pupils, archivedBefore: before)
            for pupil in schoolClass.pupils {
                _ = try await erase(pupil, by: schoolClass.teacher, leaving: leaving)
            }
            if try await database({ try await store.dropClass(schoolClass.id, archivedBefore: before) }) {
                erased += 1
                logger.notice("archived class erased after its retention",
                              metadata: ["class": "\(schoolClass.id.key)", "pupils": "\(schoolClass.pupils.count)"])
            }
        }
        return erased
    }
}
