import Foundation
import LearnModel

/// What becomes of one pushed change.
public enum ChangeDecision: Sendable, Equatable {
    /// New: store it, with who besides its author may see it, and update
    /// what the server keeps about its record.
    case store(ChangeAudience, ChangeEffect)
    /// Stored already (another member of a team sketch pushed the same op,
    /// or an answer was lost): nothing to store, and nothing it grants.
    case duplicate
    /// Never storable: the device drops it and keeps its own copy.
    case reject(PushRejection)
}

/// Who may see a change besides its author and the author's teacher.
public struct ChangeAudience: Sendable, Equatable {
    /// The co-authors of this sketch (and their teachers).
    public var sketchID: String?
    /// The pupils of this class (and its teacher).
    public var classID: String?
    /// This account (and their teacher).
    public var subjectID: String?

    public init(sketchID: String? = nil, classID: String? = nil, subjectID: String? = nil) {
        self.sketchID = sketchID; self.classID = classID; self.subjectID = subjectID
    }
}

/// What a stored change does to the records the server keeps besides the
/// log (for listing, rendering and the next decisions).
public enum ChangeEffect: Sendable, Equatable {
    case none
    /// A change of the sketch: `change` describes it (its creation, a
    /// rename, its deletion, a member named) when not an op; `started` when
    /// it is the first the server hears of the sketch.
    case sketch(id: String, change: SketchChange?, started: SketchStart?)
    case claimPool(id: String)
    case assignPool(id: String, classID: String, assigned: Bool)
    /// The pusher's grade (`id`); `record` becomes its current state
    /// unless a later edit is kept already.
    case grade(id: String, record: GradeRecord)
    /// A round of the game, filed under the pupil who played it.
    case result(player: String, stat: WordPostRoundStat)
    /// The account's profile is now this change; classmates of `classID`
    /// see it too.
    case profile(accountID: String, classID: String?)
    /// The assignment `id` of the class, for these pupils (nil: all), set
    /// by its teacher.
    case assignment(id: String, classID: String, pupils: [String]?, deleted: Bool)
}

/// Who started a sketch the server did not know, and whether in a LAN
/// session.
public struct SketchStart: Sendable, Equatable {
    public var creator: String
    public var team: Bool
}

public struct PushRejection: Sendable, Equatable, Error {
    public enum Code: String, Sendable { case badRequest, forbidden, conflict }
    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
}

/// Who may write what, decided without a database (the facts are read
/// first). The rules:
/// - A sketch is drawn in by its members: whoever started it, and in a
///   team sketch (drawn in a LAN session) the accounts named as members,
///   each a pupil of the creator's class (or of the class the creating
///   teacher teaches). The host's laptop names everyone it let in, a
///   member's laptop itself: a team's id is told only to those the host
///   let in, never broadcast. A sketch drawn alone takes no members.
///   Teachers of a member draw, and grade, too.
/// - Only who started a sketch, or their teacher, renames, deletes or
///   restores it; a deletion is taken back within `SketchDeletion.undoDays`.
/// - A sketch's creation may name someone else as its creator only when
///   drawn in a team (every member's laptop pushes the host's creation):
///   a host the pusher belongs with (a classmate, their class's teacher),
///   or a pupil the pushing teacher teaches. Anyone else starts sketches
///   under their own name, and nothing of a sketch comes before its
///   creation. A team sketch's id is made from its creator's account and a
///   nonce the creation carries (`TeamSketchID`): a member who pushes it
///   first can only name the host, never itself or a classmate, and a
///   creation naming anyone but its pusher needs such an id.
/// - A pool is changed by whoever made it, or by that pupil's teacher; a
///   teacher assigns pools only to their own classes.
/// - Grades and class settings are a teacher's, for their own classes.
/// - A profile is changed by its account or that pupil's teacher.
/// - An assignment is set by a teacher for their own class, or for pupils
///   of it; whoever teaches the class changes it, and it stays with its
///   class.
/// - An answer is its pupil's own: pushed by her, under the id worked out
///   from the assignment and her (`AssignmentAnswer.id`), for an
///   assignment of her class that is for her and not taken back, and if
///   it is a sketch, one she draws in.
/// - A Buchstaben Post result is filed under the pupil who played it (the
///   result names them): the pusher, a classmate (the laptop that hosted a
///   team game), or a pupil the pushing teacher teaches; without a name,
///   under the pusher.
/// - An op id names one change for good: pushed again with other content
///   it is a conflict, never "stored before". Ids a device works out from
///   content are worked out again (`ChangeIdentity`).
public enum ChangeRules {
    public static func decide(_ change: SyncChange, by pusher: PushFacts.Person,
                              facts: inout PushFacts) -> ChangeDecision {
        do {
            let decision = try decideOrThrow(change, by: pusher, facts: &facts)
            // Later changes of the batch under the same id are this one's
            // copies or conflicts, as if it were stored already.
            if case .store = decision {
                facts.storedOps[change.opId] = .init(entity: change.entity, entityKey: change.entityKey,
                                                     payloadHash: change.payloadHash)
            }
            return decision
        } catch let rejection as PushRejection {
            return .reject(rejection)
        } catch {
            return .reject(PushRejection(.badRequest, "the change cannot be read"))
        }
    }

    private static func decideOrThrow(_ change: SyncChange, by pusher: PushFacts.Person,
                                      facts: inout PushFacts) throws -> ChangeDecision {
        if let stored = facts.storedOps[change.opId], !ChangeIdentity.isSame(change, as: stored) {
            throw PushRejection(.conflict, "this op id was stored with another change")
        }
        let duplicate = facts.storedOps[change.opId] != nil
        switch change.entity {
        case .sketch, .sketchOp:
            let sketchID = try id(change.entityId, "a sketch")
            let sketchUUID = UUID(text: sketchID)!
            var described: SketchChange?
            if change.entity == .sketch {
                described = try decode(SketchChange.self, change.payload, "a sketch change")
                try check(described!)
                switch described!.change {
                case .create: try ChangeIdentity.checkCreation(change.opId, of: sketchUUID)
                case .member: try ChangeIdentity.checkMember(change.opId, described!, of: sketchUUID)
                default: try ChangeIdentity.checkChosen(change.opId)
                }
            } else {
                guard let op = SketchOpPayload.decode(Data(change.payload.utf8)) else {
                    throw PushRejection(.badRequest, "the op cannot be read")
                }
                do { try SketchValidation.check(ops: [op]) } catch {
                    throw PushRejection(.badRequest, "the op is outside the limits: \(error)")
                }
                try ChangeIdentity.checkOp(change.opId, op, in: sketchUUID)
            }
            var started: SketchStart?
            // Worked on a copy, kept in the facts only once every check
            // passed: a refused creation must not let the batch's next ops
            // in as if the sketch were there.
            var sketch: PushFacts.SketchFacts
            if let known = facts.sketches[sketchID] {
                sketch = known
                // Every member's laptop pushes the creation it was given,
                // before the change naming it a member: a copy of a stored
                // creation changes nothing, so it needs no membership.
                let copyOfCreation = duplicate && described?.change == .create
                if !copyOfCreation { try checkWrite(described, to: known, by: pusher, facts: facts) }
                if described?.change == .restore, !duplicate {
                    guard let deletedAt = known.deletedAt else {
                        throw PushRejection(.conflict, "the sketch is not deleted")
                    }
                    guard SketchDeletion.canRestore(deletedAt: deletedAt, now: facts.now) else {
                        throw PushRejection(.conflict, "the sketch was deleted more than \(SketchDeletion.undoDays) days ago")
                    }
                } else if known.deleted, !duplicate, described?.change != .delete {
                    throw PushRejection(.conflict, SyncRefusal.sketchDeleted)
                }
            } else {
                // A laptop pushes a sketch's creation before anything else
                // of it: anything else first would start a sketch under
                // whoever sent it, so it is refused.
                guard let described, described.change == .create else {
                    throw PushRejection(.conflict, "the server has no such sketch: its creation comes first")
                }
                sketch = try start(described, of: sketchUUID, by: pusher, facts: facts)
                started = SketchStart(creator: (sketch.creator ?? pusher).id.key, team: sketch.team)
            }
            if described?.change == .member, let member = described?.member.flatMap(UUID.init(text:)),
               let person = facts.people[member] {
                sketch.add(person)
            }
            if described?.change == .delete { sketch.deletedAt = facts.now }
            if described?.change == .restore { sketch.deletedAt = nil }
            if change.entity == .sketchOp, !duplicate {
                // As many as a sketch may hold on any laptop: more could not
                // be opened, and would only cost the school's disk.
                guard sketch.opCount < Int64(SketchLimits.maxOps) else {
                    throw PushRejection(.conflict, "the sketch holds \(SketchLimits.maxOps) drawing steps, the most a sketch may")
                }
                sketch.opCount += 1
            }
            facts.sketches[sketchID] = sketch
            if duplicate { return .duplicate }
            return .store(ChangeAudience(sketchID: sketchID), .sketch(id: sketchID, change: described, started: started))

        case .pool:
            try ChangeIdentity.checkChosen(change.opId)
            guard !change.entityKey.hasPrefix("builtin.") else {
                throw PushRejection(.badRequest, "built-in word lists come with the app and are not synced")
            }
            let pool = try decode(PoolChange.self, change.payload, "a word list")
            if pool.change == .save {
                guard let items = pool.pool?.items, pool.pool?.id.lowercased() == change.entityKey.lowercased() else {
                    throw PushRejection(.badRequest, "a saved word list carries itself, under its own id")
                }
                guard items.count <= WordPoolLimits.maxWords else {
                    throw PushRejection(.badRequest, "a word list has at most \(WordPoolLimits.maxWords) words")
                }
            }
            if let owner = facts.poolOwners[change.entityKey] {
                guard owner.id == pusher.id || teaches(owner, pusher, facts) else {
                    throw PushRejection(.forbidden, "this is someone else's word list")
                }
            } else {
                facts.poolOwners[change.entityKey] = pusher
            }
            return duplicate ? .duplicate : .store(ChangeAudience(), .claimPool(id: change.entityKey))

        case .poolAssignment:
            try ChangeIdentity.checkChosen(change.opId)
            let assignment = try decode(PoolAssignment.self, change.payload, "a word list's class")
            let classID = try id(assignment.classId, "a class")
            guard !pusher.isPupil, facts.taughtClasses.contains(UUID(text: classID)!) else {
                throw PushRejection(.forbidden, "only the class's teacher gives it word lists")
            }
            guard facts.poolOwners[change.entityKey] != nil else {
                throw PushRejection(.conflict, "the server has no such word list")
            }
            if duplicate { return .duplicate }
            return .store(ChangeAudience(classID: classID),
                          .assignPool(id: change.entityKey, classID: classID, assigned: assignment.assigned))

        case .wordPostRoundStat:
            _ = try id(change.entityId, "a result")
            try ChangeIdentity.checkChosen(change.opId)
            // Totals and the gallery add results up: one a game could not
            // have produced (a day-long round, a count beyond any integer)
            // is refused here, not summed later.
            let result = try decode(WordPostRoundStat.self, change.payload, "a result")
            if let problem = result.problem { throw PushRejection(.badRequest, problem) }
            // Filed under the pupil who played: the laptop that hosted a
            // team game pushes every player's rounds.
            var player = pusher.id
            if let named = result.playerID, named != pusher.id {
                guard let person = facts.people[named],
                      isClassmate(person, of: pusher) || teaches(person, pusher, facts) else {
                    throw PushRejection(.forbidden, "a result is filed under a pupil of the pusher's class")
                }
                player = person.id
            }
            return duplicate ? .duplicate
                : .store(ChangeAudience(subjectID: player.key), .result(player: player.key, stat: result))

        case .grade:
            guard !pusher.isPupil else { throw PushRejection(.forbidden, "only teachers grade") }
            _ = try id(change.entityId, "a grade")
            let grade = try decode(GradeRecord.self, change.payload, "a grade")
            if let problem = grade.problem { throw PushRejection(.badRequest, problem) }
            try ChangeIdentity.checkChosen(change.opId)
            try ChangeIdentity.checkGrade(change.entityKey, grade)
            if let owner = facts.gradeOwners[change.entityKey], owner != pusher.id {
                throw PushRejection(.forbidden, "this is another teacher's grade")
            }
            let targetID = grade.targetId.text
            if let pupilKey = grade.pupilId {
                guard let pupil = pupilKey.uuid.flatMap({ facts.people[$0] }),
                      teaches(pupil, pusher, facts) else {
                    throw PushRejection(.forbidden, "only a pupil's own teacher grades them")
                }
            } else if grade.target == .wordPostGame {
                throw PushRejection(.badRequest, "a game's grade is for one pupil")
            }
            if grade.target == .sketch {
                guard let sketch = facts.sketches[targetID], mayWrite(sketch, pusher, facts) else {
                    throw PushRejection(.forbidden, "only the teacher of a sketch's authors grades it")
                }
            }
            facts.gradeOwners[change.entityKey] = pusher.id
            if duplicate { return .duplicate }
            let audience = grade.pupilId.map { ChangeAudience(subjectID: $0.text) }
                ?? ChangeAudience(sketchID: targetID)
            return .store(audience, .grade(id: change.entityKey, record: grade))

        case .erasure:
            throw PushRejection(.forbidden, "only the school server erases an account")

        case .assignment:
            guard !pusher.isPupil else { throw PushRejection(.forbidden, "only teachers set tasks") }
            let assignmentID = try id(change.entityId, "an assignment")
            try ChangeIdentity.checkChosen(change.opId)
            let record = try checked(AssignmentRecord.self, change.payload, "an assignment",
                                     maxBytes: AssignmentRecord.maxPayloadBytes, problem: \.problem)
            let classID = try require(record.classId.uuid, orBadRequest: "an assignment names its class by its id")
            guard facts.taughtClasses.contains(classID) else {
                throw PushRejection(.forbidden, "only the class's teacher sets it tasks")
            }
            if let known = facts.assignments[assignmentID] {
                guard known.classID == classID else {
                    throw PushRejection(.conflict, "an assignment stays with the class it was set for")
                }
            }
            var pupils: Set<UUID>?
            if let named = record.pupils {
                pupils = []
                for pupil in named {
                    guard let id = pupil.uuid, let person = facts.people[id], person.isPupil, person.classID == classID else {
                        throw PushRejection(.forbidden, "an assignment is for pupils of its class")
                    }
                    pupils?.insert(id)
                }
            }
            facts.assignments[assignmentID] = .init(classID: classID, ownerID: facts.assignments[assignmentID]?.ownerID ?? pusher.id,
                                                    pupils: pupils, deleted: record.deleted)
            if duplicate { return .duplicate }
            return .store(ChangeAudience(classID: classID.key),
                          .assignment(id: assignmentID, classID: classID.key, pupils: pupils.map { $0.map(\.key).sorted() },
                                      deleted: record.deleted))

        case .assignmentAnswer:
            guard pusher.isPupil else { throw PushRejection(.forbidden, "an answer is its pupil's own") }
            _ = try id(change.entityId, "an answer")
            try ChangeIdentity.checkChosen(change.opId)
            let answer = try checked(AssignmentAnswer.self, change.payload, "an answer",
                                     maxBytes: AssignmentRecord.maxPayloadBytes, problem: \.problem)
            guard answer.pupilId.uuid == pusher.id else { throw PushRejection(.forbidden, "an answer is its pupil's own") }
            let assignmentID = try id(answer.assignmentId, "an assignment")
            guard change.entityKey == AssignmentAnswer.id(of: UUID(text: assignmentID)!, pupil: pusher.id).key else {
                throw PushRejection(.badRequest, "an answer is kept under its assignment and pupil")
            }
            guard let assignment = facts.assignments[assignmentID] else {
                throw PushRejection(.conflict, "the server has no such assignment")
            }
            guard assignment.classID == pusher.classID, assignment.pupils?.contains(pusher.id) ?? true else {
                throw PushRejection(.forbidden, "this task is not yours")
            }
            guard !assignment.deleted else { throw PushRejection(.conflict, "the teacher took this task back") }
            if case .sketch(let sketchID) = answer.work {
                guard let sketch = facts.sketches[sketchID.key], sketch.members.contains(where: { $0.id == pusher.id }) else {
                    throw PushRejection(.forbidden, "an answer is a sketch its pupil draws in")
                }
            }
            return duplicate ? .duplicate : .store(ChangeAudience(subjectID: pusher.id.key), .none)

        case .classSettings:
            let classID = try id(change.entityId, "a class")
            try ChangeIdentity.checkChosen(change.opId)
            guard !pusher.isPupil, facts.taughtClasses.contains(UUID(text: classID)!) else {
                throw PushRejection(.forbidden, "only the class's teacher sets its settings")
            }
            let settings = try decode(ClassSettingsRecord.self, change.payload, "class settings")
            if let problem = settings.problem { throw PushRejection(.badRequest, problem) }
            return duplicate ? .duplicate : .store(ChangeAudience(classID: classID), .none)

        case .profile:
            let accountID = try id(change.entityId, "an account")
            try ChangeIdentity.checkChosen(change.opId)
            let profile = try checked(ProfileRecord.self, change.payload, "a profile",
                                      maxBytes: ProfileRecord.maxPayloadBytes, problem: \.problem)
            let subject = facts.people[UUID(text: accountID)!]
            guard accountID == pusher.id.key || subject.map({ teaches($0, pusher, facts) }) == true else {
                throw PushRejection(.forbidden, "a profile is changed by its owner or their teacher")
            }
            if duplicate { return .duplicate }
            // Classmates see each other's names and avatars (in the
            // sign-in grid, in lobbies).
            let classID = (accountID == pusher.id.key ? pusher.classID : subject?.classID)?.key
            return .store(ChangeAudience(classID: classID, subjectID: accountID),
                          .profile(accountID: accountID, classID: classID))
        }
    }

    /// The first the server hears of a sketch: its creation, which names
    /// who started it. Someone else is named only in a team sketch, where
    /// every member's laptop pushes the host's creation: the host must be
    /// someone the pusher belongs with (a classmate, the teacher whose
    /// session it was) or a pupil the pushing teacher teaches.
    private static func start(_ described: SketchChange, of sketchID: UUID,
                              by pusher: PushFacts.Person, facts: PushFacts) throws -> PushFacts.SketchFacts {
        let team = described.team == true
        if TeamSketchID.isBound(sketchID) {
            // Every member holds this id and its creation, and any of them
            // may push it first: it must name the one it was made for.
            guard let named = described.creator.flatMap(UUID.init(text:)),
                  let nonce = described.nonce.flatMap(UUID.init(text:)),
                  TeamSketchID.binds(sketchID, creator: named, nonce: nonce) else {
                throw PushRejection(.forbidden, "this team sketch's id does not match the creator and nonce its creation names")
            }
        }
        var creator = pusher
        if let named = described.creator, named.lowercased() != pusher.id.key {
            // Only with an id made for the one named: else anyone could
            // start sketches under a classmate's name, name themselves a
            // member and draw in them.
            guard TeamSketchID.isBound(sketchID) else {
                throw PushRejection(.forbidden, "a sketch is started under another's name only with an id made for them")
            }
            guard team, let person = UUID(text: named).flatMap({ facts.people[$0] }),
                  belongs(pusher, with: person) || teaches(person, pusher, facts) else {
                throw PushRejection(.forbidden, "a sketch is started under the pusher's own name, or a team's under its host's")
            }
            creator = person
        }
        return .init(creator: creator, members: [creator], team: team)
    }

    /// Who may push what to a sketch the server knows: members draw; only
    /// its creator (or their teacher) renames or deletes it; a member is
    /// named by a member, by itself, or by the creator's teacher, and must
    /// belong with the creator.
    private static func checkWrite(_ described: SketchChange?, to sketch: PushFacts.SketchFacts,
                                   by pusher: PushFacts.Person, facts: PushFacts) throws {
        switch described?.change {
        case .rename?, .delete?, .restore?:
            // A sketch whose first author the server no longer knows is
            // its members' to manage.
            let allowed = sketch.creator.map { $0.id == pusher.id || teaches($0, pusher, facts) }
                ?? mayWrite(sketch, pusher, facts)
            guard allowed else {
                throw PushRejection(.forbidden, "only who started a sketch, or their teacher, renames or deletes it")
            }
        case .member?:
            guard sketch.team else {
                throw PushRejection(.forbidden, "a sketch drawn alone takes no members")
            }
            guard let member = described?.member.flatMap(UUID.init(text:)).flatMap({ facts.people[$0] }),
                  let creator = sketch.creator, belongs(member, with: creator) else {
                throw PushRejection(.forbidden, "a sketch's members are pupils of its creator's class")
            }
            guard member.id == pusher.id || mayWrite(sketch, pusher, facts) else { throw someoneElses }
            // Each member named later costs copies of the sketch's history.
            guard sketch.members.count < maxMembers || sketch.members.contains(where: { $0.id == member.id }) else {
                throw PushRejection(.conflict, "a sketch has at most \(maxMembers) members")
            }
        default:
            guard mayWrite(sketch, pusher, facts) else { throw someoneElses }
        }
    }

    private static let someoneElses = PushRejection(.forbidden, "this is someone else's sketch")

    /// More than a LAN session's four drawers with rejoins and late joiners
    /// ever make; a script naming the whole class gets no further.
    static let maxMembers = 12

    /// A member, or the teacher of a pupil member.
    static func mayWrite(_ sketch: PushFacts.SketchFacts, _ pusher: PushFacts.Person, _ facts: PushFacts) -> Bool {
        sketch.members.contains { $0.id == pusher.id || teaches($0, pusher, facts) }
    }

    /// Who may join a team sketch `creator` started: the creator, a pupil
    /// of the same class, or a pupil of the class the creating teacher teaches.
    static func belongs(_ person: PushFacts.Person, with creator: PushFacts.Person) -> Bool {
        if person.id == creator.id { return true }
        guard person.isPupil, let classID = person.classID else { return false }
        return creator.isPupil ? creator.classID == classID : person.teacherID == creator.id
    }

    /// Two pupils of one class.
    static func isClassmate(_ person: PushFacts.Person, of pusher: PushFacts.Person) -> Bool {
        pusher.isPupil && person.isPupil && person.classID != nil && person.classID == pusher.classID
    }

    static func teaches(_ person: PushFacts.Person, _ pusher: PushFacts.Person, _ facts: PushFacts) -> Bool {
        !pusher.isPupil && person.isPupil && person.classID.map(facts.taughtClasses.contains) == true
    }

    private static func check(_ change: SketchChange) throws {
        func name(_ text: String?) throws {
            guard let text, !text.isEmpty, text.unicodeScalars.count <= SketchLimits.maxNameLength else {
                throw PushRejection(.badRequest, "a sketch's name is 1 to \(SketchLimits.maxNameLength) characters")
            }
        }
        switch change.change {
        case .create:
            try name(change.name)
            guard let width = change.width, let height = change.height,
                  SketchLimits.canvasSide.contains(width), SketchLimits.canvasSide.contains(height) else {
                throw PushRejection(.badRequest, "the sheet's size is outside the limits")
            }
            guard let minutes = change.timeLimitMinutes, SketchLimits.timeLimitMinutes.contains(minutes) else {
                throw PushRejection(.badRequest, "the time limit is outside the limits")
            }
            guard let created = change.createdAt, dateRange.contains(created) else {
                throw PushRejection(.badRequest, "the sketch's date is outside the limits")
            }
            guard (change.guides ?? "").count <= 40 else { throw PushRejection(.badRequest, "unknown line guides") }
        case .rename:
            try name(change.name)
        case .thumbnail, .delete, .restore:
            break
        case .member:
            guard change.member.flatMap(UUID.init(text:)) != nil else {
                throw PushRejection(.badRequest, "a member is named by an account id")
            }
        }
    }

    private static let dateRange: ClosedRange<Int64> =
        UnixMilliseconds.milliseconds(SketchLimits.dates.lowerBound)...UnixMilliseconds.milliseconds(SketchLimits.dates.upperBound)

    /// A record of at most `maxBytes` of JSON, read and checked: its size
    /// before it is read, its `problem` after.
    private static func checked<T: Decodable>(_ type: T.Type, _ payload: String, _ what: String, maxBytes: Int,
                                              problem: (T) -> String?) throws -> T {
        guard payload.utf8.count <= maxBytes else {
            throw PushRejection(.badRequest, "\(what) is at most \(maxBytes / 1024) KiB")
        }
        let value = try decode(type, payload, what)
        if let problem = problem(value) { throw PushRejection(.badRequest, problem) }
        return value
    }

    private static func `require`<T>(_ value: T?, orBadRequest message: String) throws -> T {
        guard let value else { throw PushRejection(.badRequest, message) }
        return value
    }

    private static func id(_ text: String, _ what: String) throws -> String {
        guard let id = UUID(text: text) else { throw PushRejection(.badRequest, "\(what) is named by an id") }
        return id.key
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ payload: String, _ what: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(payload.utf8))
        } catch {
            throw PushRejection(.badRequest, "\(what) cannot be read")
        }
    }
}

extension PushFacts.SketchFacts {
    mutating func add(_ person: PushFacts.Person) {
        if !members.contains(where: { $0.id == person.id }) { members.append(person) }
    }
}
