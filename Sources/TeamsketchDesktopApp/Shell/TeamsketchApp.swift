import CGtk
import Foundation
import LearnModel
import LearnStore
import TeamsketchCore

package struct AppOptions: Sendable {
    var openFile: String?
    var quitAfterFirstFrame = false
    var selfTestMainActor = false

    package init(openFile: String?, quitAfterFirstFrame: Bool, selfTestMainActor: Bool) {
        self.openFile = openFile
        self.quitAfterFirstFrame = quitAfterFirstFrame
        self.selfTestMainActor = selfTestMainActor
    }
}

/// Set first thing in main.swift; start-up time is measured from here.
package nonisolated(unsafe) var launchInstant = ContinuousClock.now

/// The application shell: one window, a stack of screens, the local store.
@MainActor
package final class TeamsketchApp: Navigator {
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
    private(set) var home: HomeScreen?
    /// The school server, when one is chosen and someone signed in.
    private(set) lazy var school = SchoolLink(signIns: .live(), store: store, deviceMark: DeviceMark.load())
    private lazy var kiosk = KioskMode(app: self)
    /// What the screens use, over the store and the school link. Built on
    /// first use, which must come after the store is opened: built before,
    /// every service would be without a store for the whole run.
    private(set) lazy var services: AppServices = {
        precondition(storeOpened, "the services are built once the store is open")
        return AppServices(store: store, school: school, preferences: preferences)
    }()
    private var storeOpened = false

    /// Pupils' own grades on a sketch (or their game results, `sketch` nil).
    func pupilGrading(sketch: UUID?) -> PupilGrading {
        PupilGrading(book: services.gradeBook, roster: services.teacherRoster, sketch: sketch) { [weak self] in self?.showError($0, $1) }
    }

    private init(options: AppOptions) {
        self.options = options
        preferences = DevicePreferences.live()
        // NON_UNIQUE: several instances on one machine (tests, LAN sessions on loopback).
        app = gtk_application_new(Self.applicationID, G_APPLICATION_NON_UNIQUE)
    }

    package static func run(_ options: AppOptions) -> Int32 {
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
        sketchDesk.persistThumbnail()
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
            self.sketchDesk.persistThumbnail()
            return false
        }
        let home = HomeScreen(nav: self, settings: preferences.settings, profile: preferences.profile)
        self.home = home
        let pages = PageStack(home: home.widget)
        self.pages = pages
        gtk_window_set_child(ts_window(win), pages.widget)
        openStore()
        school.onSignedIn = { [weak self] signIn in logProblems { try self?.preferences.rememberSchool(signIn) } }
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

    private func openStore() {
        store = DeviceStore.open(path: StoreLocation.defaultPath(), window: window)
        storeClient = store.map { StoreClient.live($0, copyName: SchoolLink.copyName) }
        storeOpened = true
    }

    // MARK: navigation

    func showHome() {
        if teacherDoor.isOpen { lockTeacher(); return }
        me.close()
        home?.showMe(preferences.profile, picturesNext: picturesNext)
        sketchDesk.stopOpening()
        leaveCanvas()
        pages?.show(.home)
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

    var isAtHome: Bool { (pages?.visible ?? .home) == .home }

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

    func showNewSketch(together: Bool) {
        let screen = NewSketchScreen(nav: self, settings: preferences.settings, together: together)
        replace(.newSketch, with: screen.widget, owner: screen)
        screen.focusName()
    }

    /// `settingUpClass`: the first start's "This laptop belongs to a
    /// class": once the teacher is signed in, they pick the class.
    func showSchool(settingUpClass: Bool) {
        let screen = SchoolServerScreen(nav: self, link: school.serverScreenLink(preferences: preferences),
                                        settingUpClass: settingUpClass)
        replace(.school, with: screen.widget, owner: screen)
        screen.focus()
    }

    func showFirstRun() {
        let screen = FirstRunScreen(nav: self) { [preferences] in try preferences.useWithoutServer() }
        replace(.firstRun, with: screen.widget, owner: screen)
    }

    // MARK: the teacher's window (TeacherDoor)

    private(set) lazy var teacherDoor = TeacherDoor(app: self)

    func showTeacher() { teacherDoor.knock() }
    func lockTeacher() { teacherDoor.lock() }
    func showTeacherSketches() { teacherDoor.backFromReview() }
    func showSketchReview(_ id: UUID, from section: TeacherScreen.Section = .sketches) {
        teacherDoor.showReview(id, from: section)
    }

    /// A window of this application beside the main one (the class wall).
    func newWindow() -> Widget { gtk_application_window_new(app)! }

    /// After each sync round: the class's settings, when a pupil of a class
    /// is signed in, rule this device.
    func adoptSyncedClassSettings() {
        preferences.adoptClassSettings(school.syncedClassSettings())
        home?.showActivities(preferences.settings)
    }

    // MARK: who is at this device (MeDesk)

    private(set) lazy var me = MeDesk(app: self)

    func showProfile(offline: Bool) { me.show(offline: offline) }
    func pupilSignedIn(_ signIn: SchoolSignIn) { me.pupilSignedIn(signIn) }
    func notMe() { me.notMe() }

    func showGallery() {
        leaveCanvas()
        let who = GalleryScreen.Onlooker(signIn: school.signIn, rememberedServer: preferences.device.server,
                                         profile: preferences.profile)
        let library = services.sketchLibrary, grades = services.gradeBook, asked = pages?.shown
        // Seeing every sketch, the first screenful's missing thumbnails are
        // drawn before the page shows (a pupil's are, once theirs are
        // known); away from the main thread. A tap elsewhere meanwhile wins.
        let atOnce = OwnWork.Listing.decide(signIn: who.signIn, rememberedServer: who.rememberedServer, now: Date()) == .all
            ? SketchLibrary.thumbnailsAtOnce : 0
        Task { @MainActor in
            let listed = await Task.detached(priority: .userInitiated) {
                Result { library.withThumbnails(try library.list(), first: atOnce) }
            }.value
            guard pages?.shown == asked else { return }
            let gallery = GalleryScreen(listed: listed, library: library, grades: grades, who: who, nav: self)
            replace(.gallery, with: gallery.widget, owner: gallery)
        }
    }

    /// The reader for a text on a pupil's screen: silent when the class's
    /// sounds are off; in the language the app speaks.
    var voice: Voice {
        Voice(speech: SpeechClient.choosing(soundsOn: preferences.soundsOn()) { .live(speechPlayer) },
              language: SpeechClient.language(environment: ProcessInfo.processInfo.environment))
    }
    private lazy var speechPlayer = SpeechPlayer()

    /// What the teacher said about one of the pupil's sketches.
    func showFeedback(on sketch: SketchDocument, _ feedback: PupilFeedback) {
        let screen = FeedbackScreen(sketch: sketch, feedback: feedback, nav: self)
        replace(.feedback, with: screen.widget, owner: screen)
    }

    // MARK: LAN sessions

    /// One discovery service for the app: joining browses, hosting announces.
    private(set) lazy var discovery = DiscoveryService()

    func hostSession(_ meta: SketchMeta) { sessionDesk.host(meta) }
    func showJoin(activity: any ActivityLobbyUI) { sessionDesk.showJoin(activity) }
    private lazy var sessionDesk = SessionDesk(app: self)

    // MARK: Buchstaben Post (GameDesk)

    private(set) lazy var gameDesk = GameDesk(app: self)

    func showWordPost() { gameDesk.showStart() }
    func startWordPost(pool: WordPool) { gameDesk.playAlone(pool) }
    func hostWordPost(pool: WordPool) { gameDesk.host(pool) }

    // MARK: the sketch (SketchDesk)

    private(set) lazy var sketchDesk = SketchDesk(app: self)

    func startSketch(_ meta: SketchMeta) { sketchDesk.start(meta) }
    func open(_ doc: SketchDocument) { sketchDesk.open(doc) }
    func openFile(_ path: String) { sketchDesk.openFile(path) }
    func tellKeptCopies(_ kept: [KeptCopy]) { sketchDesk.tellKeptCopies(kept) }
    func leaveCanvas() { sketchDesk.leave() }

    func showError(_ title: String, _ error: any Error) {
        Alert.show(parent: window, title: title, message: String(describing: error))
    }

    func replace(_ page: AppPage, with widget: Widget, owner: AnyObject) {
        pages?.replace(page, with: widget, owner: owner)
    }
}
