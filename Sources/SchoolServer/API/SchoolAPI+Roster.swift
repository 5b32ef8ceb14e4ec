import Foundation
import SchoolServerAPI

/// Who may see a class's names for signing in. Not anyone on the network:
/// a device the class has seen (one of its pupils or its teacher signed in
/// there, remembered by the hash of the mark the device sends), one given
/// the class's code by the teacher, or the class itself signed in. Every
/// code typed counts as a try, like pictures.
extension SchoolAPI {
    func listSignInClasses(_ input: Operations.ListSignInClasses.Input) async throws -> Operations.ListSignInClasses.Output {
        let device = try Self.deviceKey(input.headers.teamsketchDevice)
        try Self.checkTyped(input.query.code)
        var classes = try await device.asyncMap { device in try await database { try await store.classesForSignIn(device: device) } } ?? []
        if let typed = input.query.code {
            let named = try await schoolClass(code: typed, mark: device)
            if let device { try await remember(device: device, forClasses: [named.id], signedIn: false) }
            if !classes.contains(where: { $0.id == named.id }) { classes.append(named) }
        }
        let sorted = classes.sorted { ($0.name.lowercased(), $0.id.key) < ($1.name.lowercased(), $1.id.key) }
        return .ok(.init(body: .json(sorted.map { .init(id: $0.id.key, name: $0.name) })))
    }

    func listSignInPupils(_ input: Operations.ListSignInPupils.Input) async throws -> Operations.ListSignInPupils.Output {
        let classID = try Self.id(input.path.classId)
        let device = try Self.deviceKey(input.headers.teamsketchDevice)
        try Self.checkTyped(input.query.code)
        var allowed = false
        // Someone of the class signed in asks too: a pupil's laptop puts
        // names of a team game to accounts, whatever device it is.
        if RequestInfo.current.token != nil, let account = try? await signedIn() {
            if account.classID == classID {
                allowed = true
            } else if account.role == .teacher {
                allowed = (try? await ownClass(classID, of: account)) != nil
            }
        }
        if !allowed, let device { allowed = try await database { try await store.knows(device: device, inClass: classID) } }
        if !allowed, let typed = input.query.code { allowed = try await schoolClass(code: typed, mark: device).id == classID }
        // A class the device may not see is answered as one that is not
        // there, so ids are not confirmed; an archived class is not there
        // for its pupils.
        guard allowed, let found = try await database({ try await store.schoolClass(classID) }), !found.archived else {
            throw Problem(.notFound, "no such class")
        }
        let pupils = try await database { try await store.pupils(in: classID) }
        return .ok(.init(body: .json(pupils.filter(\.hasPicturePassword).map { .init(id: $0.id.key, name: $0.name) })))
    }

    /// The class a typed code names; 404 when none does. Every code typed
    /// counts as a try of the device (its mark, else its address) and of
    /// its address, as sign-ins do, right ones too: a code seen on the
    /// board must not let one machine register marks without end (each
    /// pushes a real laptop's out of the class's list), and the count is
    /// never per class, so a stranger's wrong codes do not stop a teacher
    /// typing the right one on another device.
    private func schoolClass(code typed: String, mark: String?) async throws -> SchoolClass {
        let now = now
        let address = ClientAddress.key(RequestInfo.current.peerAddress)
        let device = Self.device(mark: mark, address: address)
        if case .wait(let seconds) = throttle.begin(accountKey: Self.classCodeKey, device: device, address: address, usual: true, now: now) {
            metrics.signInFailed(.throttled)
            throw Problem(.tooManyAttempts, "too many class codes; wait a little", retryAfter: seconds)
        }
        guard let code = ClassCode(typed: typed), let found = try await database({ try await store.schoolClass(code: code) }) else {
            metrics.signInFailed(.wrong)
            throw Problem(.notFound, "no class has this code")
        }
        return found
    }

    private static let classCodeKey = "class-code"

    /// A code is what someone typed, but not a page of it: 1 to 40
    /// characters (counted as the spec counts them, in Unicode scalars),
    /// checked whether or not it is needed.
    static func checkTyped(_ code: String?) throws {
        guard let code else { return }
        guard (1...40).contains(code.unicodeScalars.count) else { throw Problem(.badRequest, "a class code is 1 to 40 characters") }
    }

    /// What is kept of a device's mark: its hash, so the database holds
    /// nothing a device could be impersonated with. 400 for a mark that is
    /// not one.
    static func deviceKey(_ mark: String?) throws -> String? {
        guard let mark else { return nil }
        guard (22...64).contains(mark.utf8.count),
              mark.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) else {
            throw Problem(.badRequest, "Teamsketch-Device is 22 to 64 letters, digits, '_' or '-'")
        }
        return sha256Hex(mark)
    }

    /// After a sign-in on a device: a pupil's class has seen it, and so
    /// have a teacher's classes (a teacher signing in on a new kiosk sets
    /// it up for them), archived ones too, so a class restored is offered
    /// where it was. Failing to remember costs the device only a code typed again: the
    /// sign-in it follows stands.
    func remember(device: String?, of account: Account) async {
        guard let device else { return }
        do {
            let classes: [UUID]
            switch account.role {
            case .pupil: classes = account.classID.map { [$0] } ?? []
            case .teacher: classes = try await database { try await store.classes(of: account.id, includingArchived: true).map(\.id) }
            }
            try await remember(device: device, forClasses: classes, signedIn: true)
        } catch {
            logger.warning("a device signed in on was not remembered for its classes: \(error)")
        }
    }

    private func remember(device: String, forClasses classes: [UUID], signedIn: Bool) async throws {
        let now = now
        try await database { try await store.remember(device: device, forClasses: classes, signedIn: signedIn, now: now) }
    }
}
