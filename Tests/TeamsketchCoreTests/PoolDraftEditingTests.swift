import Foundation
import LearnModel
import Testing
@testable import TeamsketchCore

/// The word list as a long list edited in place: rows added up to the
/// file's cap, removed and put back, replaced by a file's words, and the bad
/// ones found by index wherever they are.
@Suite struct PoolDraftEditingTests {
    private func words(_ n: Int) -> [WordItem] {
        (0..<n).map { WordItem(word: "wort\($0)", hint: "Hinweis", priority: 1 + $0 % 5) }
    }

    @Test func aRowIsAddedOnlyWhileTheListIsBelowTheFilesCap() {
        var draft = PoolDraft(newIn: "de", name: "Lang")
        #expect(draft.rows.count == 1)
        let added = draft.addRow()
        #expect(added)
        #expect(draft.rows.count == 2 && draft.rows[1] == PoolDraft.Row())
        draft.replaceRows(with: words(PoolDraft.maxRows))
        #expect(PoolDraft.maxRows == WordPoolCSV.maxRows)
        let addedToFull = draft.addRow()
        #expect(!addedToFull, "a full list takes no more rows")
        #expect(draft.rows.count == PoolDraft.maxRows)
        let putBack = draft.restore(PoolDraft.Row(word: "mehr"), at: 0)
        #expect(putBack == nil, "nor a row put back")
    }

    @Test func aFilesWordsBecomeRowsButNeverMoreThanTheCap() {
        var draft = PoolDraft(newIn: "de", name: "Lang")
        draft.replaceRows(with: words(PoolDraft.maxRows + 250))
        #expect(draft.rows.count == PoolDraft.maxRows)
        #expect(draft.rows[301] == PoolDraft.Row(word: "wort301", hint: "Hinweis", priority: "2"))
        #expect(draft.pool?.items.count == PoolDraft.maxRows)
    }

    @Test func aRemovedRowComesBackWhereItWasOrAtTheEnd() {
        var draft = PoolDraft(newIn: "de", name: "Tiere")
        draft.replaceRows(with: words(5))
        let removed = draft.removeRow(at: 2)
        #expect(removed?.word == "wort2")
        #expect(draft.rows.map(\.word) == ["wort0", "wort1", "wort3", "wort4"])
        let none = draft.removeRow(at: 9)
        #expect(none == nil)
        let back = draft.restore(removed!, at: 2)
        #expect(back == 2)
        #expect(draft.rows.map(\.word) == ["wort0", "wort1", "wort2", "wort3", "wort4"])
        _ = draft.removeRow(at: 4)
        _ = draft.removeRow(at: 3)
        let atEnd = draft.restore(PoolDraft.Row(word: "wort4"), at: 4)
        #expect(atEnd == 3, "the list got shorter: at its end")
    }

    @Test func aBadRowFarDownAThousandWordListIsFoundByItsIndex() {
        var draft = PoolDraft(newIn: "de", name: "Lang")
        draft.replaceRows(with: words(1_000))
        #expect(draft.badRows.isEmpty && draft.pool != nil)
        draft.rows[640].hint = "wort640 am Ende"
        draft.rows[870].word = "wort12"
        #expect(draft.badRows == [640: .hintContainsWord, 870: .duplicateWord(firstLine: 13)])
        #expect(draft.pool == nil, "not saved while a row is not a word")
        draft.rows[640].hint = "am Ende"
        draft.rows[870].word = "Zebra"
        #expect(draft.badRows.isEmpty)
        #expect(draft.pool?.items[870] == WordItem(word: "Zebra", hint: "Hinweis", priority: 1 + 870 % 5))
    }

    @Test func checkingAFullListIsQuickEnoughForEveryKeystroke() {
        var draft = PoolDraft(newIn: "de", name: "Lang")
        draft.replaceRows(with: words(PoolDraft.maxRows))
        let start = Date()
        #expect(draft.badRows.isEmpty)
        // The editor checks after a pause in typing; even so a full list
        // must be checked well inside a frame or two.
        #expect(Date().timeIntervalSince(start) < 0.5)
    }
}
