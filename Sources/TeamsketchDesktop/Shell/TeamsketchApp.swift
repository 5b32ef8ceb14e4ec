import CGtk
import Foundation
import LearnModel
import LearnStore
import TeamsketchCore

struct AppOptions: Sendable {
    var openFile: String?
    var quitAfterFirstFrame = false
    var selfTestMainActor = false
}

/// Set first thing in main.swift; start-up time is measured from here.
nonisolated(unsafe) var launchInstant = ContinuousClock.now

/// The application shell: one window, a stack of screens, the local store.
@MainActor
final class TeamsketchApp: Navigator {
    static let applicationID = AppIconFiles.applicationID

    let options: AppOptions
    private let app: UnsafeMutablePointer<GtkApplication>
    private(set) var window: Widget?
    private(set) var pages: PageStack?
    private(set) var store: LocalStore?
    /// The store as the app core sees it.
    private(set) var storeClient: StoreClient?
    /// The word lists the game offers; the built-in files are read and
    /// stored once per run, on first use.
    private(set) lazy var wordPools = WordPoolCatalogue(
        builtIn: BuiltInPoolFiles(locator: AppResources.locator), store: store.map(PoolStoreClient.live),
        languages: WordPoolCatalogue.preferredLanguages(environment: ProcessInfo.processInfo.environment))
    /// The pupil's profile and the classroom settings, read once at start.
    let preferences: DevicePreferences
    let files = SketchFileClient.live
    private var exitStatus: Int32 = 0
    private var canvasScreen: CanvasScreen?
    private var toldCopies = Set<UUID>()
    /// The file being read, if any; a newer open or going home replaces it.
    private var pendingOpening: SketchFileOpening?
    private(set) var home: HomeScreen?
    /// The school server, when one is chosen and someone signed in.
    private(set) lazy var school = SchoolLink(signIns: .live(), store: store, deviceMark: DeviceMark.load())
    private lazy var kiosk = KioskMode(app: self)
    /// What a service calls after a change other devices must hear of.
    private var askForSync: @Sendable () -> Void {
        let school = school
        return { [weak school] in Task { @MainActor in school?.syncNow() } }
    }
    /// The teacher's grades; after each one kept, a sync round.
    private(set) lazy var gradeBook = store.map { GradeBook.live($0, kept: askForSync) } ?? .unavailable
    /// The sketches kept here; throwing one away or bringing it back
    /// starts a sync round.
    private(set) lazy var sketchLibrary = store.map { SketchLibrary.live($0, changed: askForSync) } ?? .unavailable
    /// The teacher's word lists and the settings of their classes; each
    /// change starts a sync round.
    private(set) lazy var wordLists = store.map { WordListShelf.live($0, changed: askForSync) } ?? .unavailable
    private(set) lazy var classSettings = store.map { ClassSettingsBook.live($0, changed: askForSync) } ?? .unavailable
    /// The signed-in teacher's calls to the school server.
    var schoolOffice: SchoolOffice { school.office }
    /// The signed-in teacher's pupils, shared by every grade screen.
    private(set) lazy var teacherRoster = TeacherRoster(school.teacherRoster)

    /// Pupils' own grades on a sketch (or their game results, `sketch` nil).
    func pupilGrading(sketch: UUID?) -> PupilGrading {
        PupilGrading(book: gradeBook, roster: teacherRoster, sketch: sketch) { [weak self] in self?.showError($0, $1) }
    }

    private init(options: AppOptions) {
        self.options = options
        preferences = DevicePreferences.live()
        // NON_UNIQUE: several instances on one machine (tests, LAN sessions on loopback).
        app = gtk_application_new(Self.applicationID, G_APPLICATION_NON_UNIQUE)
    }

    static func run(_ options: AppOptions) -> Int32 {
        Localization.setUp()
        MainQueueBridge.install()
        let shell = TeamsketchApp(options: options)
        Signal.connect(UnsafeMutableRawPointer(shell.app), "activate") { shell.activate() }
        let status = g_application_run(ts_gapplication(shell.app), 0, nil)
        g_object_unref(shell.app)
        return status != 0 ? status : shell.exitStatus
    }

    func quit(status: Int32 = 0) {
        exitStatus = status
        canvasScreen?.persistThumbnail()
        g_application_quit(ts_gapplication(app))
    }

    private func activate() {
        Style.install()
        let win = gtk_application_window_new(app)!
        window = win
        gtk_window_set_title(ts_window(win), `_`("Teamsketch"))
        gtk_window_set_default_size(ts_window(win), 1100, 760)
        Signal.connectBool(UI.raw(win), "close-request") { [weak self] in
            guard let self else { return false }
            // A kiosk closes only for the teacher: the PIN is asked for, and
            // once the teacher's window is open, closing works.
            guard self.kiosk.mayClose(teacherUnlocked: self.teacherDoor.isOpen) else {
                self.showTeacher()
                return true
            }
            self.canvasScreen?.persistThumbnail()
            return false
        }
        let home = HomeScreen(app: self)
        self.home = home
        let pages = PageStack(home: home.widget)
        self.pages = pages
        gtk_window_set_child(ts_window(win), pages.widget)
        openStore()
        school.onSignedIn = { [weak self] signIn in
            do {
                try self?.preferences.rememberSchool(signIn)
            } catch {
                FileHandle.standardError.write(Data("teamsketch: \(error)\n".utf8))
            }
        }
        school.onStatus = { [weak self] status in
            self?.home?.showSyncStatus(status)
            if case .synced = status { self?.adoptSyncedClassSettings() }
            (self?.pages?[.school] as? SchoolServerScreen)?.showStatus(status)
        }
        school.onPulled = { [weak self] in (self?.pages?[.teacher] as? TeacherScreen)?.pulled() }
        school.onKeptCopies = { [weak self] kept in self?.tellKeptCopies(kept) }
        school.resume()
        adoptSyncedClassSettings()
        home.showMe(preferences.profile, picturesNext: picturesNext)
        if let file = options.openFile {
            openFile(file)
        } else if FirstRun.asks(device: preferences.device, signIn: school.signIn, kiosk: preferences.kiosk != KioskSettings()) {
            showFirstRun()
        } else {
            PageStack.log(.home)
        }
        for problem in preferences.kioskProblems {
            FileHandle.standardError.write(Data("teamsketch: kiosk: \(problem)\n".utf8))
        }
        kiosk.attach(to: win)
        MainLoopWatch.start()
        // Before present: presenting maps the window at once.
        if options.quitAfterFirstFrame { reportFirstFrame(win) }
        gtk_window_present(ts_window(win))

        if options.selfTestMainActor { selfTestMainActor() }
    }

    // MARK: store

    private func openStore() {
        let path = StoreLocation.defaultPath()
        do {
            store = try LocalStore(path: path)
        } catch {
            store = try? LocalStore.inMemory()
            FileHandle.standardError.write(Data("teamsketch: store \(path): \(error)\n".utf8))
            Alert.show(parent: window, title: `_`("Your saved sketches could not be opened"),
                       message: String(format: `_`("The file %@ is damaged or belongs to another program. It was not changed.\n\nYou can still draw, but sketches are kept only until Teamsketch is closed. Please ask your teacher to look at the file."), path))
        }
        storeClient = store.map { StoreClient.live($0, copyName: SchoolLink.copyName) }
    }

    // MARK: navigation

    func showHome() {
        if teacherDoor.isOpen { lockTeacher(); return }
        closeProfile()
        home?.showMe(preferences.profile, picturesNext: picturesNext)
        pendingOpening?.cancel()
        pendingOpening = nil
        leaveCanvas()
        show(.home)
    }

    /// Whether "Me" leads to the pupils' picture sign-in now. To be asked
    /// only once the store is open (nothing checks it): the school link is
    /// made on first use, with the store there is then, and without one it
    /// never syncs.
    var picturesNext: Bool {
        if case .pictureSignIn = MeRoute.decide(signIn: school.signIn, rememberedServer: preferences.device.server,
                                                 now: Date()) { return true }
        return false
    }

    var isAtHome: Bool {
        (pages?.visible ?? .home) == .home
    }

    /// The kiosk's machine was left alone: a session this device is in is
    /// left (a host ends it, the sketch stays saved, as drawn), the teacher's
    /// window is locked, and the start screen waits for the next child.
    func returnHomeForNextChild() {
        // The lobby's and the join screen's session is the one the canvas or
        // the game shows, so leaving those leaves every session.
        let screens = [AppPage.lobby, .join].compactMap { self.pages?[$0] as? any LeavesForNextChild }
        Task { @MainActor in
            for screen in screens { await screen.leaveForNextChild() }
            showHome()
        }
    }

    func showNewSketch(together: Bool = false) {
        let screen = NewSketchScreen(app: self, together: together)
        replace(.newSketch, with: screen.widget, owner: screen)
        screen.focusName()
    }

    /// `settingUpClass`: the first start's "This laptop belongs to a
    /// class": once the teacher is signed in, they pick the class.
    func showSchool(settingUpClass: Bool = false) {
        let screen = SchoolServerScreen(app: self, settingUpClass: settingUpClass)
        replace(.school, with: screen.widget, owner: screen)
        screen.focus()
    }

    func showFirstRun() {
        let screen = FirstRunScreen(app: self)
        replace(.firstRun, with: screen.widget, owner: screen)
    }

    // MARK: the teacher's window (TeacherDoor)

    private(set) lazy var teacherDoor = TeacherDoor(app: self)

    func showTeacher() { teacherDoor.knock() }
    func lockTeacher() { teacherDoor.lock() }
    func unlockTeacher(pin: String, answer: @escaping @MainActor (TeacherPINGate.Answer) -> Void) {
        teacherDoor.unlock(pin: pin, answer: answer)
    }
    func chooseTeacherPIN(_ pin: String) { teacherDoor.choosePIN(pin) }
    func showTeacherSketches() { teacherDoor.backFromReview() }
    func showClassWall() { teacherDoor.showClassWall() }
    func closeClassWall() { teacherDoor.closeClassWall() }
    func showSketchReview(_ id: UUID, from section: TeacherScreen.Section = .sketches) {
        teacherDoor.showReview(id, from: section)
    }
    func setKiosk(_ file: KioskConfigFile) { teacherDoor.setKiosk(file) }

    /// A window of this application beside the main one (the class wall).
    func newWindow() -> Widget { gtk_application_window_new(app)! }

    /// The teacher changed this computer's settings: the start screen
    /// follows at once; an open sketch keeps its tools until reopened.
    func setDeviceSettings(_ settings: ClassroomSettings) {
        do {
            try preferences.setDeviceSettings(settings)
        } catch {
            showError(`_`("The settings could not be saved."), error)
        }
        home?.showActivities(preferences.settings)
    }

    /// After each sync round: the class's settings, when a pupil of a class
    /// is signed in, rule this device.
    private func adoptSyncedClassSettings() {
        preferences.adoptClassSettings(school.syncedClassSettings())
        home?.showActivities(preferences.settings)
    }

    /// "Me": where it leads is the core's decision (`MeRoute`).
    func showProfile(offline: Bool = false) {
        leaveCanvas()
        closeProfile()
        let route = offline ? .profile(signedInPupil: false)
            : MeRoute.decide(signIn: school.signIn, rememberedServer: preferences.device.server, now: Date())
        switch route {
        case .profile(let signedInPupil):
            let screen = ProfileScreen(app: self, signedInPupil: signedInPupil)
            replace(.profile, with: screen.widget, owner: screen)
        case .pictureSignIn(let server):
            let screen = PupilSignInScreen(app: self, server: server,
                                           trustedCertificates: preferences.device.trustedCertificates,
                                           rememberedClass: preferences.device.classID)
            replace(.profile, with: screen.widget, owner: screen)
        }
    }

    private func closeProfile() {
        (pages?[.profile] as? ProfileScreen)?.close()
        (pages?[.profile] as? PupilSignInScreen)?.close()
        pages?.forget(.profile)
    }

    /// A pupil signed in with their pictures (`PupilIdentity`); their
    /// class's settings apply.
    func pupilSignedIn(_ signIn: SchoolSignIn) {
        school.adopt(signIn)
        log { try identity.pupilSignedIn(signIn) }
        adoptSyncedClassSettings()
        showHome()
    }

    /// "Not me": the pupil signed in here leaves; the next one signs in.
    func notMe() {
        school.signOut()
        preferences.adoptClassSettings(nil)
        log { try identity.notMe() }
        showProfile()
    }

    /// The pupil's new name and picture from "Me" (`PupilIdentity.save`).
    func saveIdentity(name: String, avatarPNG: Data?) throws {
        try identity.save(name: name, avatarPNG: avatarPNG, signIn: school.signIn, now: Date())
    }

    /// Who draws here, and what a sign-in or a new name changes.
    private(set) lazy var identity = PupilIdentity.live(preferences, store: store, changed: askForSync)

    /// A failure only the log needs to hear of (the person goes on as before).
    private func log(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            FileHandle.standardError.write(Data("teamsketch: \(error)\n".utf8))
        }
    }

    func showGallery() {
        leaveCanvas()
        let who = GalleryScreen.Onlooker(signIn: school.signIn, rememberedServer: preferences.device.server,
                                         profile: preferences.profile)
        let gallery = GalleryScreen(library: sketchLibrary, grades: gradeBook, who: who, nav: self)
        replace(.gallery, with: gallery.widget, owner: gallery)
    }

    /// The reader for a text on a pupil's screen: silent when the class's
    /// sounds are off.
    var speech: SpeechClient {
        SpeechClient.choosing(soundsOn: preferences.soundsOn()) { .live(speechPlayer) }
    }
    private lazy var speechPlayer = SpeechPlayer()

    /// The language the app speaks, for the voice reading its own words.
    var speechLanguage: String { SpeechClient.language(environment: ProcessInfo.processInfo.environment) }

    /// What the teacher said about one of the pupil's sketches.
    func showFeedback(on sketch: SketchDocument, _ feedback: PupilFeedback) {
        let screen = FeedbackScreen(app: self, sketch: sketch, feedback: feedback)
        replace(.feedback, with: screen.widget, owner: screen)
    }

    // MARK: LAN sessions

    /// One discovery service for the app: joining browses, hosting announces.
    private(set) lazy var discovery = DiscoveryService()

    /// Opens a lobby for a shared sketch, under this device's classroom
    /// settings (which every member's app then obeys).
    func hostSession(_ meta: SketchMeta) {
        let settings = preferences.settings
        let session = SessionController(app: self)
        let screen = HostLobbyScreen(app: self, session: session)
        replace(.lobby, with: screen.widget, owner: screen)
        let params = SessionParams(name: meta.name, guides: meta.guides, timeLimitMinutes: meta.timeLimitMinutes)
        let name = preferences.profile.name
        Task { @MainActor in
            do {
                try await session.host(params: params, settings: settings.sessionSettings, name: name)
                screen.hosting()
            } catch {
                showError(`_`("The session could not be opened."), error)
                showHome()
            }
        }
    }

    func showJoin(activity: any ActivityLobbyUI = SketchLobbyUI()) {
        leaveCanvas()
        let screen = JoinScreen(app: self, activity: activity)
        replace(.join, with: screen.widget, owner: screen)
        screen.focusCode()
    }

    /// The shared canvas once the host starts (for members and the host).
    func openShared(_ session: SessionController, meta: SketchMeta) {
        // Stop looking for sessions; a host keeps announcing so latecomers
        // can still find it, until its session ends.
        discovery.stop()
        leaveCanvas()
        let doc = SketchDocument(meta: meta)
        // The session stores what it applies; the screen keeps the thumbnail.
        let screen = CanvasScreen(app: self, document: doc, saver: session.saver, session: session)
        session.canvas = screen
        canvasScreen = screen
        replace(.canvas, with: screen.widget, owner: screen)
    }

    // MARK: Buchstaben Post

    func showWordPost() {
        leaveCanvas()
        let screen = WordPostStartScreen(app: self)
        replace(.wordPostStart, with: screen.widget, owner: screen)
    }

    func startWordPost(pool: WordPool) {
        let name = preferences.profile.name
        let screen = WordPostScreen.solo(app: self, pool: pool, name: name, sounds: preferences.soundClient { .live() },
                                         previouslyFinished: gameAccounts.finishedWords(of: name))
        screen.stats = RoundStatsRecorder(seat: .solo, store: storeClient, accounts: gameAccounts.accounts())
        replace(.wordPost, with: screen.widget, owner: screen)
        gtk_widget_grab_focus(screen.board.widget)
    }

    func hostWordPost(pool: WordPool) {
        gameAccounts.refreshClassRoster()
        let controller = WordPostController(app: self)
        let screen = HostLobbyScreen(app: self, session: controller)
        replace(.lobby, with: screen.widget, owner: screen)
        let name = preferences.profile.name
        let finished = gameAccounts.finishedWords(of: name)
        Task { @MainActor in
            do {
                try await controller.host(pool: pool, name: name, previouslyFinished: finished)
                screen.hosting()
            } catch {
                showError(`_`("The game could not be opened."), error)
                showHome()
            }
        }
    }

    /// The school account signed in on this laptop, if any.
    var schoolAccount: UUID? { school.signIn.flatMap { UUID(uuidString: $0.accountID) } }

    /// Whose results each player's are, and the words they already finished.
    private lazy var gameAccounts = GameAccounts.live(store: store, signIn: { [weak self] in self?.school.signIn },
                                                      classRoster: { [weak self] in await self?.school.classRoster() })

    /// The game screen of a LAN game, once the first state arrives.
    func openWordPostShared(game: WordPostGame, me: PlayerID, names: [PlayerID: String],
                            link: WordPostScreen.GameLink, isHost: Bool, soundsOn: Bool) -> WordPostScreen {
        let screen = WordPostScreen(app: self, game: game, me: me, sounds: sounds(on: soundsOn))
        screen.names = names
        screen.link = link
        screen.stats = RoundStatsRecorder(seat: isHost ? .host : .member, store: storeClient,
                                          accounts: isHost ? gameAccounts.accounts() : PlayerAccounts())
        screen.refresh()
        replace(.wordPost, with: screen.widget, owner: screen)
        gtk_widget_grab_focus(screen.board.widget)
        return screen
    }

    private func sounds(on: Bool) -> SoundClient {
        SoundClient.choosing(soundsOn: on) { .live() }
    }

    /// In a LAN game the host's choice (from the lobby) counts, unless the
    /// environment fixes sounds on this machine; the core decides.
    func gameSoundsOn(hostChoice: Bool?) -> Bool {
        preferences.soundsOn(hostChoice: hostChoice)
    }

    /// The name typed on the Join screen becomes the pupil's name here
    /// (a pupil signed in keeps their account's name).
    func rename(to name: String) {
        log { try identity.typedName(name, signIn: school.signIn) }
    }

    func startSketch(_ meta: SketchMeta) {
        let saver = storeClient.map { SketchSaver(store: $0, sketch: meta) }
        if let failure = saver?.ensureStored() {
            return showError(`_`("The sketch could not be created."), failure)
        }
        open(SketchDocument(meta: meta), saver: saver)
    }

    /// A sketch just loaded from the store: all its ops are stored.
    func open(_ doc: SketchDocument) {
        open(doc, saver: storeClient.map { SketchSaver(store: $0, sketch: doc.meta, storedOps: doc.ops.count) })
    }

    private func open(_ doc: SketchDocument, saver: SketchSaver?) {
        leaveCanvas()
        let screen = CanvasScreen(app: self, document: doc, saver: saver)
        canvasScreen = screen
        replace(.canvas, with: screen.widget, owner: screen)
    }

    /// Imports a .xopp or .teamsketch file into the store and opens it. The
    /// file is read away from the main thread; a read that takes a moment
    /// shows its progress and a Stop button. The sketch is on screen first;
    /// storing thousands of strokes runs beside it.
    func openFile(_ path: String) {
        let fileName = (path as NSString).lastPathComponent
        let opening = SketchFileOpening(path: path)
        var screen: OpeningScreen?
        Task { @MainActor in
            try? await Task.sleep(for: SketchFileOpening.progressDelay)
            guard !opening.isCancelled, screen == nil, self.pendingOpening === opening else { return }
            let s = OpeningScreen(fileName: fileName) { [weak self] in
                opening.cancel()
                self?.showHome()
            }
            if let step = opening.lastStep { s.show(step) }
            screen = s
            self.replace(.opening, with: s.widget, owner: s)
        }
        // A newer file replaces one still being read: its read stops.
        pendingOpening?.cancel()
        pendingOpening = opening
        Task { @MainActor in
            let outcome = await opening.run { step in screen?.show(step) }
            guard pendingOpening === opening else { return }
            pendingOpening = nil
            switch outcome {
            case .cancelled:
                return
            case .failed(let error):
                if screen != nil { showHome() }
                showError(String(format: `_`("%@ could not be opened."), fileName), error)
            case .opened(let document, let leftOut):
                guard let storeClient else {
                    open(document, saver: nil)
                    return reportLeftOut(leftOut, fileName: fileName)
                }
                let (doc, saver) = SketchSaver.forImport(document, store: storeClient)
                open(doc, saver: saver)
                reportLeftOut(leftOut, fileName: fileName)
                if let failure = await saver.storeImported() {
                    showError(String(format: `_`("%@ could not be saved."), fileName), failure)
                }
            }
        }
    }

    /// An imported file held what the sketch cannot (texts, images, other
    /// pages…): the person is told what, once the sketch is on screen.
    private func reportLeftOut(_ leftOut: ImportLeftOut, fileName: String) {
        guard let sentence = ImportLeftOutText.sentence(leftOut) else { return }
        Alert.show(parent: window, title: String(format: `_`("Not everything in %@ could be imported."), fileName),
                   message: sentence)
    }

    /// A sketch could not be saved: said once per sketch (the saver reports
    /// only its first failure).
    func reportSaveFailure(_ failure: SketchSaveError) {
        showError(`_`("Your drawing could not be saved."), failure)
    }

    /// A sketch was deleted on another device while this one had drawn in
    /// it: the drawing is kept, and the person is told under which name.
    func tellKeptCopies(_ kept: [LocalStore.KeptCopy]) {
        for copy in kept { canvasScreen?.follow(copy) }
        // The open editor may have told of a copy before the sync's news
        // arrived; each copy is told once.
        let kept = kept.filter { toldCopies.insert($0.copyID).inserted }
        guard !kept.isEmpty else { return }
        let lines = kept.map { String(format: `_`("“%@” was deleted on another device. What was drawn here is kept as “%@”."),
                                      $0.original, $0.copy) }
        Alert.show(parent: window, title: `_`("Your drawing is kept"), message: lines.joined(separator: "\n"))
    }

    func showError(_ title: String, _ error: any Error) {
        Alert.show(parent: window, title: title, message: String(describing: error))
    }

    func leaveCanvas() {
        canvasScreen?.close()
        canvasScreen = nil
    }

    private func show(_ page: AppPage) {
        pages?.show(page)
    }

    func replace(_ page: AppPage, with widget: Widget, owner: AnyObject) {
        pages?.replace(page, with: widget, owner: owner)
    }
}
