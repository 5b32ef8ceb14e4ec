import Foundation
import LearnModel

/// Saving a word list as CSV where the teacher says; `done` gets the
/// file's path once it is written.
@MainActor
enum WordListExport {
    static func ask(_ pool: WordPool, nav: any Navigator, done: @escaping @MainActor (String) -> Void) {
        FileChooser.ask(parent: nav.window, title: `_`("Export words"), save: true, acceptLabel: `_`("Export"),
                        suggestedName: pool.name + ".csv",
                        filters: [.init(name: `_`("Word lists (CSV)"), patterns: ["*.csv"])]) { [weak nav] path in
            do {
                try WordPoolCSV.exportData(pool.items).write(to: URL(fileURLWithPath: path), options: .atomic)
                done(path)
            } catch {
                nav?.showError(`_`("The word list could not be written."), error)
            }
        }
    }
}
