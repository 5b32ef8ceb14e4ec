import Foundation
import LearnModel
import TeamsketchCore
import Testing

@Suite struct ReplayPlayerTests {
    let t0 = Date(timeIntervalSince1970: 1_750_000_000)

    func dot(_ author: String, at t: Double) -> SketchOp {
        .addStroke(Stroke(author: author, color: PenColor.red.rgba, width: 4, start: Point(t, t), segments: [],
                          startedAt: t0.addingTimeInterval(t), endedAt: t0.addingTimeInterval(t)))
    }

    func player(_ ops: [SketchOp]) -> ReplayPlayer {
        ReplayPlayer(timeline: ReplayTimeline(document: SketchDocument(meta: SketchMeta(name: "R"), ops: ops)))
    }

    @Test func playingMovesAtTheChosenSpeedAndStopsAtTheEnd() {
        var p = player([dot("Mia", at: 0), dot("Mia", at: 1), dot("Ole", at: 2)])
        #expect(p.length == 2)
        p.tick(1)
        #expect(p.position == 0, "paused: the clock does not move")
        p.play()
        p.tick(0.5)
        #expect(p.position == 0.5)
        #expect(p.frame().strokes.count == 1)
        p.speed = 2
        p.tick(0.5)
        #expect(p.position == 1.5)
        #expect(p.frame().strokes.count == 2)
        p.tick(10)
        #expect(p.isAtEnd && !p.isPlaying)
        #expect(p.frame().strokes.count == 3)
        p.play()
        #expect(p.position == 0, "play at the end starts again")
        p.speed = .nan
        #expect(p.speed == 1)
        p.tick(.infinity)
        #expect(p.position == 0)
    }

    @Test func longPausesAreShortenedButNothingShowsEarly() {
        var p = player([dot("Mia", at: 0), dot("Ole", at: 600)])
        #expect(p.length == ReplayPlayer.longestPause, "ten minutes of thinking take two seconds")
        p.scrub(to: 0.5)
        #expect(p.frame().strokes.count == 1, "Ole's dot comes at the end of the pause, not during it")
        p.scrub(to: 1)
        #expect(p.frame().strokes.count == 2)
    }

    @Test func aConflictJumpShowsTheSketchJustAfterThatOp() {
        let doc = SketchDocument(meta: SketchMeta(name: "R"), ops: [dot("Mia", at: 0), dot("Ole", at: 1), dot("Ole", at: 2)])
        let erase = SketchOp.eraseStroke(id: doc.strokes[0].id, by: "Ole", at: t0.addingTimeInterval(3))
        var p = player(doc.ops + [erase, dot("Mia", at: 4)])
        p.play()
        p.jump(toStep: 3)
        #expect(!p.isPlaying)
        #expect(p.replayTime(ofStep: 3) == p.position, "a moment's time in a list is where the jump lands")
        #expect(p.frame().strokes.map(\.author) == ["Ole", "Ole"], "the erase just happened; Mia's next dot not yet")
        p.jump(toStep: 99)
        #expect(p.isAtEnd)
        p.scrub(to: -4)
        #expect(p.position == 0)
        #expect(p.frame(authors: ["Ole"]).strokes.isEmpty)
    }

    @Test func anEmptySketchIsAtItsEndAtOnce() {
        var p = player([])
        #expect(p.length == 0 && p.isAtEnd && p.fraction == 1)
        p.play()
        p.tick(1)
        #expect(p.frame().strokes.isEmpty)
    }
}

@Suite struct SketchListFilterTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    var calendar: Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }

    func item(_ name: String, daysAgo: Double, _ authors: Set<String>?) -> TeacherSketchItem {
        TeacherSketchItem(id: UUID(), name: name, modifiedAt: now.addingTimeInterval(-daysAgo * 86_400), authors: authors)
    }

    @Test func newestFirstAndFilteredByPupilTimeAndKind() {
        let old = item("old", daysAgo: 30, ["Mia"])
        let team = item("team", daysAgo: 2, ["Mia", "Ole"])
        let solo = item("solo", daysAgo: 0, ["Ole"])
        let unknown = item("loading", daysAgo: 1, nil)
        let all = [old, team, solo, unknown]
        #expect(SketchListFilter().apply(all, now: now, calendar: calendar).map(\.name) == ["solo", "loading", "team", "old"])
        #expect(SketchListFilter(pupil: "Mia").apply(all, now: now, calendar: calendar).map(\.name) == ["team", "old"])
        #expect(SketchListFilter(period: .today).apply(all, now: now, calendar: calendar).map(\.name) == ["solo"])
        #expect(SketchListFilter(period: .week).apply(all, now: now, calendar: calendar).map(\.name) == ["solo", "loading", "team"])
        #expect(SketchListFilter(kind: .team).apply(all, now: now, calendar: calendar).map(\.name) == ["team"])
        #expect(SketchListFilter(kind: .alone).apply(all, now: now, calendar: calendar).map(\.name) == ["solo", "old"])
        #expect(SketchListFilter.pupils(in: all) == ["Mia", "Ole"])
    }

    @Test func aClassHoldsTheSketchesOneOfItsPupilsDrewIn() {
        let mixed = item("mixed", daysAgo: 0, ["Mia", "Ben"])
        let nextDoor = item("4a", daysAgo: 1, ["Ben"])
        let unknown = item("loading", daysAgo: 2, nil)
        let all = [mixed, nextDoor, unknown]
        // The roster writes "mia " where the sketch says "Mia": the same pupil.
        var filter = SketchListFilter(classPupils: ["mia ", "Ole"])
        #expect(filter.apply(all, now: now, calendar: calendar).map(\.name) == ["mixed"])
        filter.classPupils = ["Ben"]
        #expect(filter.apply(all, now: now, calendar: calendar).map(\.name) == ["mixed", "4a"])
        filter.classPupils = nil
        #expect(filter.apply(all, now: now, calendar: calendar).count == 3)
    }
}

@Suite struct AuthorColorsTests {
    @Test func pupilsGetDistinctColoursInNameOrderEveryTime() {
        let a = AuthorColors.assign(["Ole", "Mia", "Ben"])
        #expect(a == AuthorColors.assign(["Mia", "Ben", "Ole", "Mia"]))
        #expect(Set(a.values.map { "\($0)" }).count == 3)
        #expect(a["Ben"] == PenColor.darkBlue.rgba)
        let s = Stroke(author: "Mia", color: PenColor.yellow.rgba, width: 2, start: Point(0, 0), segments: [],
                       startedAt: Date(), endedAt: Date())
        #expect(AuthorColors.recolor([s], with: a)[0].color == a["Mia"])
    }
}

@Suite struct PoolDraftTests {
    @Test func aListBecomesAPoolOnlyWhenEveryRowIsAWord() throws {
        var draft = PoolDraft(newIn: "de", name: "Tiere")
        draft.rows = [.init(word: " Katze ", hint: "miaut", priority: ""), .init(word: "Hund", hint: "bellt", priority: "5")]
        let pool = try #require(draft.pool)
        #expect(pool.items == [WordItem(word: "Katze", hint: "miaut"), WordItem(word: "Hund", hint: "bellt", priority: 5)])
        #expect(pool.language == "de" && pool.name == "Tiere")

        draft.rows.append(.init(word: "Katze", hint: "schnurrt", priority: ""))
        draft.rows.append(.init(word: "Maus", hint: "die Maus piept", priority: "101"))
        #expect(draft.pool == nil)
        #expect(draft.problems.map(\.row) == [2, 3])
        #expect(draft.problems.map(\.reason) == [.duplicateWord(firstLine: 1), .hintContainsWord])
        draft.rows[3].hint = "piept"
        #expect(draft.problems.map(\.reason) == [.duplicateWord(firstLine: 1), .badPriority("101")])
        draft.rows.removeLast(2)
        draft.name = "  "
        #expect(draft.pool == nil, "a list needs a name")
    }

    @Test func editingAPoolKeepsItsIdSoTheSavedOneReplacesIt() throws {
        let pool = WordPool(id: "abc", name: "Obst", language: "en", items: [WordItem(word: "apple", hint: "red")])
        var draft = PoolDraft(pool: pool)
        #expect(draft.rows == [.init(word: "apple", hint: "red", priority: "1")])
        draft.rows[0].hint = "green or red"
        #expect(draft.pool?.id == "abc")
    }

    @Test func aDealShowsEachPlayersWordWithTheLettersToSendLeftOut() throws {
        let pool = WordPool(id: "p", name: "P", language: "de", items: ["Haus", "Baum", "Ball", "Auto"].map {
            WordItem(word: $0, hint: "ein Ding")
        })
        let dealt = DealPreview.firstRound(of: pool, players: 3, seed: 7, at: Date(timeIntervalSince1970: 1_000))
        #expect(dealt.count == 3)
        #expect(Set(dealt.map(\.word)).count == 3, "three different words")
        for w in dealt {
            #expect(w.shown.split(separator: " ").count == w.word.count)
            #expect(w.shown.contains("_"), "some letters come from the team")
        }
        #expect(DealPreview.firstRound(of: pool, players: 3, seed: 7, at: Date(timeIntervalSince1970: 1_000)) == dealt,
                "the same seed deals the same")
        #expect(DealPreview.firstRound(of: WordPool(id: "e", name: "E", language: "de", items: []), players: 3, seed: 1).isEmpty)
    }
}
