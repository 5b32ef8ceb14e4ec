/// The titles and yes/no of the gallery's spreadsheets (grades.csv,
/// games.csv, a task's answers.csv). In English they stay the names scripts already read; in
/// German they are what a teacher reads in LibreOffice.
enum SpreadsheetColumn: CaseIterable {
    case pupil, work, team, grade, comment, gradedAt
    case playedAt, word, finished, seconds, lettersSent, lettersReceived, wrongPlacements
    case done, rightAtOnce, questions, wrongAtFirst, sketch
    case yes, no

    var words: (en: String, de: String) {
        switch self {
        case .pupil: ("pupil", "Kind")
        case .work: ("work", "Arbeit")
        case .team: ("team", "Team")
        case .grade: ("grade", "Note")
        case .comment: ("comment", "Kommentar")
        case .gradedAt: ("graded_at", "benotet am")
        case .playedAt: ("played_at", "gespielt am")
        case .word: ("word", "Wort")
        case .finished: ("finished", "fertig")
        case .seconds: ("seconds", "Sekunden")
        case .lettersSent: ("letters_sent", "Buchstaben geschickt")
        case .lettersReceived: ("letters_received", "Buchstaben bekommen")
        case .wrongPlacements: ("wrong_placements", "falsch gelegt")
        case .done: ("done", "erledigt")
        case .rightAtOnce: ("right_at_once", "gleich richtig")
        case .questions: ("questions", "Aufgaben")
        case .wrongAtFirst: ("wrong_at_first", "zuerst falsch")
        case .sketch: ("sketch", "Bild")
        case .yes: ("yes", "ja")
        case .no: ("no", "nein")
        }
    }

    func text(_ language: WebLanguage) -> String { language.text(of: words) }
}
