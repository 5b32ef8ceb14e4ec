import Foundation
import LearnModel
import LearnStore
import SchoolClient
import TeamsketchCore

/// The app's tie to the school server: the stored sign-in, the client and
/// the sync service, and the status the home screen shows. Without a
/// sign-in it does nothing and the app works alone.
@MainActor
final class SchoolLink {
    private let signIns: SchoolSignInClient
    private let store: LocalStore?
    private(set) var signIn: SchoolSignIn?
    private(set) var status: SyncStatus = .off
    private var client: SchoolServerClient?
    private var service: SyncService?
    /// Which `start` the running service belongs to.
    private var currentRound: UUID?
    /// Called on the main thread whenever the status changes.
    var onStatus: (SyncStatus) -> Void = { _ in }
    /// Called on the main thread after a sync round pulled changes.
    var onPulled: () -> Void = {}
    /// Called on the main thread when sketches deleted elsewhere were kept
    /// here as copies (this device had drawn in them since it last synced).
    var onKeptCopies: ([LocalStore.KeptCopy]) -> Void = { _ in }
    /// What such a copy is called ("Haus (copy)"), in the pupil's language.
    nonisolated static let copyName: @Sendable (String) -> String = { String(format: `_`("%@ (copy)"), $0) }
    /// Called after every successful sign-in (a teacher's or a pupil's).
    var onSignedIn: (SchoolSignIn) -> Void = { _ in }

    /// The server last signed in to, offered again after signing out.
    private(set) var lastServer: String?
    /// This device's mark, sent when signing in and listing a class's names.
    private let deviceMark: String

    init(signIns: SchoolSignInClient, store: LocalStore?, deviceMark: String) {
        self.signIns = signIns
        self.store = store
        self.deviceMark = deviceMark
    }

    /// Starts syncing if a sign-in is stored and still valid.
    func resume() {
        guard let stored = signIns.load() else { return }
        lastServer = stored.server
        guard stored.isValid(at: Date()) else {
            setStatus(.signedOut)
            return
        }
        start(stored)
    }

    /// Signs the teacher in at the first of `addresses` whose server
    /// answers (`SchoolAddress.candidates`: HTTPS, then HTTP for an address
    /// typed without a scheme, only when nothing there speaks TLS). The
    /// password goes only to a server that answered; `done` gets a message
    /// for the teacher, or nil.
    func signIn(addresses: [URL], name: String, password: String, done: @escaping @MainActor (String?) -> Void) {
        let trusted = ProcessInfo.processInfo.environment["TEAMSKETCH_SCHOOL_CA"]
        var clients: [(URL, SchoolServerClient)] = []
        for address in addresses {
            guard let client = try? SchoolServerClient(address: address, trustedCertificates: trusted, deviceMark: deviceMark)
            else {
                let made = clients.map(\.1)
                Task { for client in made { await client.shutdown() } }
                done(`_`("The school's certificate file cannot be read."))
                return
            }
            clients.append((address, client))
        }
        Task { @MainActor [weak self] in
            // The first that answers; a certificate this computer does not
            // trust stops the search: plain HTTP after it would hand the
            // password to whoever made the TLS fail.
            var answering: (URL, SchoolServerClient)?
            var untrusted = false
            for (address, client) in clients {
                if answering == nil, !untrusted {
                    switch await client.probe() {
                    case .answers: answering = (address, client); continue
                    case .untrustedCertificate: untrusted = true
                    case .noAnswer: break
                    }
                }
                await client.shutdown()
            }
            if untrusted {
                done(`_`("The school server's certificate is not trusted on this computer. Ask the school's IT, or type the address with https:// as the server shows it."))
                return
            }
            guard let (address, client) = answering else {
                let typed = addresses.first?.host ?? ""
                done(String(format: `_`("No school server answers at %@. Type the address the server shows when it starts, for example http://10.0.0.5:8470"), typed))
                return
            }
            do {
                let signedIn = try await client.signInTeacher(name: name, password: password)
                await client.shutdown()
                guard let self else { return }
                let signIn = SchoolSignIn(server: address.absoluteString, trustedCertificates: trusted,
                                          accountID: signedIn.accountID, name: signedIn.name,
                                          isTeacher: signedIn.isTeacher, token: SchoolToken(signedIn.token), expiresAt: signedIn.expiresAt,
                                          classID: signedIn.classID)
                self.adopt(signIn)
                done(nil)
            } catch {
                await client.shutdown()
                done(Self.text(error))
            }
        }
    }

    /// A sign-in made elsewhere (a pupil's pictures): kept, and syncing
    /// starts under it. An earlier sign-in on this device is replaced.
    func adopt(_ signIn: SchoolSignIn) {
        if self.signIn != nil { stopCurrent() }
        try? signIns.save(signIn)
        lastServer = signIn.server
        start(signIn)
        onSignedIn(signIn)
    }

    /// The school client for a server this device knows, for the pupils'
    /// picture sign-in; the caller shuts it down.
    private func client(for server: String, trustedCertificates: String?) -> SchoolServerClient? {
        guard let url = URL(string: server) else { return nil }
        return try? SchoolServerClient(address: url, trustedCertificates: trustedCertificates, deviceMark: deviceMark)
    }

    /// The pupils' picture sign-in at `server`, over a connection of its
    /// own that closing the directory lets go of.
    func pupilDirectory(server: String, trustedCertificates: String?) -> PupilDirectory? {
        guard let client = client(for: server, trustedCertificates: trustedCertificates) else { return nil }
        var directory = client.pupilDirectory(trustedCertificates: trustedCertificates)
        directory.close = { await client.shutdown() }
        return directory
    }

    /// Lets this device list a class's names for the pupils' picture
    /// sign-in, as if a pupil had typed the class's code here; true when
    /// the server took the code.
    func introduceDevice(toClassCode code: String, of signIn: SchoolSignIn) async -> Bool {
        guard let client = client(for: signIn.server, trustedCertificates: signIn.trustedCertificates) else { return false }
        let listed = try? await client.pupilDirectory(trustedCertificates: signIn.trustedCertificates).classes(code)
        await client.shutdown()
        return listed?.isEmpty == false
    }

    func signOut() {
        stopCurrent()
        try? signIns.save(nil)
        setStatus(.off)
    }

    /// Stops syncing and ends the current sign-in on the server.
    private func stopCurrent() {
        currentRound = nil
        let (oldService, oldClient, token) = (service, client, signIn?.token.secret)
        service = nil
        client = nil
        signIn = nil
        Task {
            await oldService?.stop()
            if let token { await oldClient?.signOut(token: token) }
            await oldClient?.shutdown()
        }
    }

    /// The calls of the teacher signed in now, all under that one sign-in:
    /// an operation of several calls (a class list, new pictures for a
    /// class) is never half one teacher's and half another's. Take it anew
    /// for each operation; with no teacher signed in, every call throws
    /// `SchoolOffice.NoTeacher`.
    var office: SchoolOffice {
        guard let signIn, signIn.isTeacher, let client else { return .signedOut }
        let teacher = (client, signIn.token.secret)
        return SchoolOffice.live { teacher }
    }

    /// Where the teacher's roster comes from: the signed-in teacher (by
    /// their token, so another sign-in starts afresh) and every pupil of
    /// their classes.
    var teacherRoster: TeacherRoster.Source {
        TeacherRoster.Source(teacherSignIn: { [weak self] in self?.signIn.flatMap { $0.isTeacher ? $0.token : nil } },
                             ask: { [weak self] in try? await self?.office.roster() })
    }

    /// The signed-in pupil's class as the server lists it for the picture
    /// sign-in (every pupil's account and name), or nil when there is no
    /// such sign-in or the server does not answer.
    func classRoster() async -> [PlayerAccounts.Account]? {
        guard let signIn, !signIn.isTeacher, signIn.isValid(at: Date()), let classID = signIn.classID,
              let client else { return nil }
        guard let pupils = try? await client.listSignInPupils(classID: classID, token: signIn.token.secret) else { return nil }
        return pupils.compactMap { pupil in pupil.id.uuid.map { PlayerAccounts.Account(id: $0, name: pupil.name) } }
    }

    /// Sessions the school server relays for this sign-in's classes; empty
    /// without a sign-in or when the server does not answer (the join
    /// screen asks again in a moment).
    func relayedSessions() async -> [RelayedSession] {
        guard let signIn, signIn.isValid(at: Date()), let client else { return [] }
        return (try? await client.relayedSessions(token: signIn.token.secret)) ?? []
    }

    /// Whether a session hosted here is offered through the server, and
    /// for which class (a teacher's classes are asked for).
    func relayOfferPlan() async -> RelayOfferPlan {
        var classes: [RelayOfferPlan.ClassChoice]?
        if signIn?.isTeacher == true {
            // The relay names a class by its UUID: another id could not be offered.
            classes = await (try? office.classes(false))?.filter { !$0.archived && $0.id.uuid != nil }.map { c in
                RelayOfferPlan.ClassChoice(id: c.id, name: c.name)
            }
        }
        return RelayOfferPlan.make(signIn: signIn, teacherClasses: classes, now: Date())
    }

    /// The settings of a pupil's class as last synced, when a pupil of a
    /// class is signed in here.
    func syncedClassSettings() -> ClassSettingsRecord? {
        guard let classID = signIn?.pupilClassID else { return nil }
        return try? store?.classSettings(classID: classID.text)
    }

    func syncNow() {
        guard let service else { return }
        Task { _ = try? await service.syncOnce() }
    }

    private func start(_ signIn: SchoolSignIn) {
        guard let store, let address = URL(string: signIn.server),
              let client = try? SchoolServerClient(address: address, trustedCertificates: signIn.trustedCertificates, deviceMark: deviceMark)
        else { return }
        self.signIn = signIn
        self.client = client
        // A status counts only from the service of the current sign-in: one
        // stopped a moment ago (another pupil signed in) may still report.
        let round = UUID()
        currentRound = round
        let service = SyncService(store: store, connection: client.connection(token: signIn.token.secret), key: signIn.syncKey,
                                  onStatus: { status in
                                      Task { @MainActor [weak self] in
                                          guard self?.currentRound == round else { return }
                                          self?.setStatus(status)
                                      }
                                  },
                                  onPulled: { _ in
                                      Task { @MainActor [weak self] in
                                          guard self?.currentRound == round else { return }
                                          self?.onPulled()
                                      }
                                  },
                                  copyName: Self.copyName,
                                  onKeptCopies: { kept in
                                      Task { @MainActor [weak self] in self?.onKeptCopies(kept) }
                                  })
        self.service = service
        // The last pupil's line goes at once; this service reports its own.
        setStatus(.off)
        Task { await service.start() }
        if !signIn.isTeacher, signIn.classWatchKey == nil { fetchClassWatchKey(client, round: round) }
    }

    /// A pupil signed in before the server gave out class keys: their
    /// class's key is asked for once, so the groups this laptop hosts let
    /// the teacher's wall watch without asking.
    private func fetchClassWatchKey(_ client: SchoolServerClient, round: UUID) {
        guard let token = signIn?.token.secret else { return }
        Task { @MainActor [weak self] in
            guard let key = try? await client.listClasses(token: token).first?.watchKey,
                  let self, self.currentRound == round, var signIn = self.signIn else { return }
            signIn.classWatchKey = key
            self.signIn = signIn
            try? self.signIns.save(signIn)
        }
    }

    private func setStatus(_ status: SyncStatus) {
        // A status from a service that was stopped meanwhile is old news.
        guard signIn != nil || status == .off || status == .signedOut else { return }
        self.status = status
        onStatus(status)
    }

    private static func text(_ error: any Error) -> String {
        switch error as? SchoolServerClient.SignInFailure {
        case .wrongNameOrPassword?: `_`("That name and password do not match.")
        case .tooManyTries?: `_`("Too many wrong tries. Please wait a few minutes.")
        case .connection?, nil: `_`("The school server does not answer. Check the address.")
        }
    }
}
