import LearnModel

/// Every word the gallery's pages say, in English and German. One switch
/// holds both, so the compiler refuses a text without its translation.
enum WebText: CaseIterable {
    case title, signIn, teacherSignIn, name, password, signInButton, iAmAPupil, chooseClass, noClasses
    case whoAreYou, noPupils, pickPictures, picked, notThosePictures, wrongNameOrPassword, tooManyTries
    case mySketches, noSketches, signOut, downloadPNG, downloadPDF, back, myClasses, noTeacherClasses
    case pupils, noPupilSketches, notFound, notYours, formExpired, unavailable, language, createdOn
    case startAgain, archived
    case grades, grade, forTeam, game, rounds, wordsFinished, lettersSent, lettersReceived, wrongPlacements
    case secondsPerWord, noGrades, teacherSays
    case myPage, weekOf, gameOverTime, noRounds, downloadGrades, downloadGames, downloadPupilData, myClass, sketchCount
    case earlierGrades, deletedSketches, restore, deletedOn, nothingDeleted, cannotRestore
    case olderSketches, allSketches, diskFull, classCode, showClass, unknownClassCode, askForClassCode
    case teacherAccounts, myPassword, currentPassword, newPassword, newPasswordAgain, changePassword, passwordChanged
    case wrongCurrentPassword, passwordRule, passwordsDiffer, teachers, admin, newPasswordFor, setPassword, passwordSet
    case addTeacher, firstPassword, teacherAdded, teacherExists, nameRule
    case tasks, noTasks, drawTask, mathsTask, dueOn, doneBy, pupil, doneColumn, notYet, rightAnswers, seconds
    case wrongAnswers, mostOftenWrong, downloadAnswers, openSketch

    var words: (en: String, de: String) {
        switch self {
        case .title: ("Teamsketch gallery", "Teamsketch-Galerie")
        case .signIn: ("Sign in", "Anmelden")
        case .teacherSignIn: ("Teachers", "Lehrkräfte")
        case .name: ("Name", "Name")
        case .password: ("Password", "Passwort")
        case .signInButton: ("Sign in", "Anmelden")
        case .iAmAPupil: ("I am a pupil", "Ich bin ein Kind")
        case .chooseClass: ("Which is your class?", "Welche ist deine Klasse?")
        case .noClasses: ("There are no classes yet.", "Es gibt noch keine Klassen.")
        case .whoAreYou: ("Who are you?", "Wer bist du?")
        case .noPupils: ("Nobody in this class has pictures yet.", "In dieser Klasse hat noch niemand Bilder.")
        case .pickPictures: ("Tap your three pictures", "Tippe deine drei Bilder an")
        case .picked: ("Chosen", "Gewählt")
        case .notThosePictures: ("Those were not your pictures. Try again.", "Das waren nicht deine Bilder. Versuch es noch einmal.")
        case .wrongNameOrPassword: ("That name and password do not match.", "Name und Passwort passen nicht zusammen.")
        case .tooManyTries: ("Too many wrong tries. Please wait a few minutes.", "Zu viele falsche Versuche. Bitte warte ein paar Minuten.")
        case .mySketches: ("My sketches", "Meine Bilder")
        case .noSketches: ("No sketches yet.", "Noch keine Bilder.")
        case .signOut: ("Sign out", "Abmelden")
        case .downloadPNG: ("Download picture (PNG)", "Bild herunterladen (PNG)")
        case .downloadPDF: ("Download PDF", "PDF herunterladen")
        case .back: ("Back", "Zurück")
        case .myClasses: ("My classes", "Meine Klassen")
        case .noTeacherClasses: ("You have no classes yet. Make them in the teacher's window.",
                                 "Sie haben noch keine Klassen. Legen Sie sie im Lehrkraft-Fenster an.")
        case .pupils: ("Pupils", "Kinder")
        case .noPupilSketches: ("No sketches yet.", "Noch keine Bilder.")
        case .notFound: ("There is nothing here.", "Hier gibt es nichts.")
        case .notYours: ("This belongs to someone else.", "Das gehört jemand anderem.")
        case .formExpired: ("The page was too old. Please try again.", "Die Seite war zu alt. Bitte noch einmal versuchen.")
        case .unavailable: ("The school server cannot answer just now. Try again soon.",
                            "Der Schulserver kann gerade nicht antworten. Bitte gleich noch einmal versuchen.")
        case .diskFull: ("The school server's disk is full: nothing new can be saved until space is freed. Everything saved before is still here.",
                         "Die Festplatte des Schulservers ist voll: Neues kann erst wieder gespeichert werden, wenn Platz frei ist. Alles Gespeicherte ist noch da.")
        case .classCode: ("Class code", "Klassen-Code")
        case .showClass: ("Show the class", "Klasse zeigen")
        case .unknownClassCode: ("That is not a class code. Please ask your teacher.",
                                 "Das ist kein Klassen-Code. Bitte frag deine Lehrerin oder deinen Lehrer.")
        case .askForClassCode: ("Ask your teacher for the class code.", "Frag deine Lehrerin oder deinen Lehrer nach dem Klassen-Code.")
        case .language: ("Language", "Sprache")
        case .createdOn: ("Drawn on", "Gemalt am")
        case .startAgain: ("Start again", "Neu anfangen")
        case .archived: ("archived", "archiviert")
        case .grades: ("Grades and comments", "Noten und Kommentare")
        case .grade: ("Grade", "Note")
        case .forTeam: ("for the team", "für das Team")
        case .game: ("Buchstaben Post", "Buchstaben Post")
        case .rounds: ("Rounds", "Runden")
        case .wordsFinished: ("Words finished", "Fertige Wörter")
        case .lettersSent: ("Letters sent", "Buchstaben geschickt")
        case .lettersReceived: ("Letters received", "Buchstaben bekommen")
        case .wrongPlacements: ("Wrong placements", "Falsch gelegt")
        case .secondsPerWord: ("Seconds per word", "Sekunden pro Wort")
        case .noGrades: ("No grades yet.", "Noch keine Noten.")
        case .teacherSays: ("What your teacher says", "Was deine Lehrerin oder dein Lehrer sagt")
        case .myPage: ("My page", "Meine Seite")
        case .weekOf: ("Week of", "Woche ab")
        case .gameOverTime: ("Week by week", "Woche für Woche")
        case .noRounds: ("No rounds played yet.", "Noch keine Runden gespielt.")
        case .downloadGrades: ("Grades as a spreadsheet (CSV)", "Noten als Tabelle (CSV)")
        case .downloadGames: ("Buchstaben Post as a spreadsheet (CSV)", "Buchstaben Post als Tabelle (CSV)")
        case .downloadPupilData: ("Everything the school holds of this pupil (zip)", "Alle Daten dieses Kindes (ZIP)")
        case .myClass: ("Class", "Klasse")
        case .sketchCount: ("Sketches", "Bilder")
        case .earlierGrades: ("Before", "Vorher")
        case .deletedSketches: ("Deleted sketches", "Gelöschte Bilder")
        case .restore: ("Restore", "Wiederherstellen")
        case .deletedOn: ("Deleted", "Gelöscht")
        case .nothingDeleted: ("Nothing was deleted in the last \(SketchDeletion.undoDays) days.",
                               "In den letzten \(SketchDeletion.undoDays) Tagen wurde nichts gelöscht.")
        case .cannotRestore: ("This sketch cannot be restored any more.", "Dieses Bild kann nicht mehr wiederhergestellt werden.")
        case .olderSketches: ("Older sketches", "Ältere Bilder")
        case .allSketches: ("All sketches", "Alle Bilder")
        case .teacherAccounts: ("Teacher accounts", "Lehrkräfte")
        case .myPassword: ("Change my password", "Mein Passwort ändern")
        case .currentPassword: ("Current password", "Jetziges Passwort")
        case .newPassword: ("New password", "Neues Passwort")
        case .newPasswordAgain: ("New password again", "Neues Passwort noch einmal")
        case .changePassword: ("Change password", "Passwort ändern")
        case .passwordChanged: ("Your password is changed. Your other sign-ins have ended.",
                                "Ihr Passwort ist geändert. Ihre anderen Anmeldungen sind beendet.")
        case .wrongCurrentPassword: ("That is not your current password.", "Das ist nicht Ihr jetziges Passwort.")
        case .passwordRule: ("A password has \(NewTeacherPassword.minCharacters) to \(NewTeacherPassword.maxCharacters) characters.",
                             "Ein Passwort hat \(NewTeacherPassword.minCharacters) bis \(NewTeacherPassword.maxCharacters) Zeichen.")
        case .passwordsDiffer: ("The two new passwords are not the same.", "Die beiden neuen Passwörter sind nicht gleich.")
        case .teachers: ("Teachers", "Lehrkräfte der Schule")
        case .admin: ("admin", "Verwaltung")
        case .newPasswordFor: ("New password for", "Neues Passwort für")
        case .setPassword: ("Set password", "Passwort setzen")
        case .passwordSet: ("The new password is set; the teacher is signed out everywhere.",
                            "Das neue Passwort ist gesetzt; die Lehrkraft ist überall abgemeldet.")
        case .addTeacher: ("Add a teacher", "Lehrkraft anlegen")
        case .firstPassword: ("First password", "Erstes Passwort")
        case .teacherAdded: ("The teacher can sign in now. Tell them their first password.",
                             "Die Lehrkraft kann sich jetzt anmelden. Sagen Sie ihr das erste Passwort.")
        case .teacherExists: ("There is already a teacher of that name, or the school has as many teachers as it may.",
                              "Es gibt schon eine Lehrkraft mit diesem Namen, oder die Schule hat so viele Lehrkräfte, wie sie haben darf.")
        case .nameRule: ("A name has 1 to 64 characters.", "Ein Name hat 1 bis 64 Zeichen.")
        case .tasks: ("Tasks", "Aufgaben")
        case .noTasks: ("No tasks set yet.", "Noch keine Aufgaben gestellt.")
        case .drawTask: ("Draw", "Malen")
        case .mathsTask: ("Maths", "Rechnen")
        case .dueOn: ("due", "bis")
        case .doneBy: ("Done by", "Erledigt von")
        case .pupil: ("Pupil", "Kind")
        case .doneColumn: ("Done", "Erledigt")
        case .notYet: ("not yet", "noch nicht")
        case .rightAnswers: ("Right at once", "Gleich richtig")
        case .seconds: ("Seconds", "Sekunden")
        case .wrongAnswers: ("Wrong at first", "Zuerst falsch")
        case .mostOftenWrong: ("Most often wrong", "Am häufigsten falsch")
        case .downloadAnswers: ("Answers as a spreadsheet", "Antworten als Tabelle")
        case .openSketch: ("Open the sketch", "Bild öffnen")
        }
    }

    func text(_ language: WebLanguage) -> String { language.text(of: words) }

    /// The pictures of a picture password, named for the images' alt text.
    static func picture(_ picture: SessionSign.Picture, _ language: WebLanguage) -> String {
        let names: (en: String, de: String) = switch picture {
        case .sun: ("sun", "Sonne")
        case .moon: ("moon", "Mond")
        case .star: ("star", "Stern")
        case .heart: ("heart", "Herz")
        case .tree: ("tree", "Baum")
        case .flower: ("flower", "Blume")
        case .fish: ("fish", "Fisch")
        case .house: ("house", "Haus")
        case .boat: ("boat", "Boot")
        case .apple: ("apple", "Apfel")
        case .cat: ("cat", "Katze")
        case .mushroom: ("mushroom", "Pilz")
        case .umbrella: ("umbrella", "Schirm")
        case .balloon: ("balloon", "Ballon")
        case .car: ("car", "Auto")
        case .snail: ("snail", "Schnecke")
        }
        return language == .de ? names.de : names.en
    }

    /// All texts of a language by name, for the templates.
    static func all(_ language: WebLanguage) -> [String: String] {
        var texts: [String: String] = [:]
        for text in allCases { texts[String(describing: text)] = text.text(language) }
        return texts
    }
}
