import Foundation
import LearnModel
import TeamsketchTestSupport
import Testing

@Suite struct WordPostPoolTests {
    @Test func builtInPoolsAreBigCleanAndSpeakTheirLanguage() throws {
        let german = try BuiltInPools.german()
        let english = try BuiltInPools.english()
        #expect(german.id == BuiltInPools.germanID && german.language == "de")
        #expect(english.id == BuiltInPools.englishID && english.language == "en")
        for pool in [german, english] {
            #expect(pool.items.count >= 60)
            #expect(Set(pool.items.map(\.word)).count == pool.items.count, "no duplicates")
            for item in pool.items {
                #expect(item.isPlayable && !item.hint.isEmpty, "\(item.word)")
                let spaced = item.word.contains(where: \.isWhitespace)
                #expect(!spaced, "\(item.word)")
                #expect(!item.hint.localizedLowercase.contains(item.word.localizedLowercase), "\(item.word): \(item.hint)")
                #expect(WordItem.priorityRange.contains(item.priority))
            }
            // Every built-in row would also pass a CSV import unchanged.
            let imported = try WordPoolCSV.importItems(WordPoolCSV.export(pool.items))
            #expect(imported.errors == [] && imported.items == pool.items)
        }
        let words = Set(german.items.map(\.word))
        #expect(words.isSuperset(of: ["Sommer", "Bär", "Käse", "Fuß", "Straße"]))
        #expect(german.items.contains { $0.word.contains("ü") } && german.items.contains { $0.word.contains("ö") })
    }

    @Test func drawingFavoursPriorityNewnessAndUnfinishedWords() {
        // Equal words apart from one property each; counts over many draws.
        func share(_ pool: WordPool, finished: Set<String> = [], of word: String) -> Double {
            var rng = SplitMix64(seed: 2024)
            var hits = 0
            let draws = 4000
            for _ in 0..<draws where WordDrawing.draw(1, from: pool, excluding: [], finished: finished, using: &rng)?.first?.word == word {
                hits += 1
            }
            return Double(hits) / Double(draws)
        }
        let flat = (0..<10).map { WordItem(word: "w\($0)", hint: "h", priority: 1) }
        var prioritised = flat
        prioritised[0].priority = 5
        let samePosition = WordPool(id: "p", name: "p", language: "x", items: prioritised)
        // w0 is the oldest item, yet priority 5 (weight 6 vs 2) wins clearly.
        #expect(share(samePosition, of: "w0") > 0.15)
        #expect(share(WordPool(id: "f", name: "f", language: "x", items: flat), of: "w0") < 0.08)
        // Newest vs oldest at equal priority: about 2:1.
        let flatPool = WordPool(id: "f", name: "f", language: "x", items: flat)
        #expect(share(flatPool, of: "w9") > 1.6 * share(flatPool, of: "w0"))
        // Everything finished but w3: w3 is three times as likely as its neighbours.
        let finished = Set(flat.map(\.word)).subtracting(["w3"])
        #expect(share(flatPool, finished: finished, of: "w3") > 2.2 * share(flatPool, finished: finished, of: "w4"))
    }

    @Test func drawingNeverRepeatsAndSkipsUnplayableWords() {
        let pool = WordPool(id: "p", name: "p", language: "x", items: [
            WordItem(word: "a", hint: "one letter"), WordItem(word: "ab", hint: "x"), WordItem(word: "cd", hint: "y"),
            WordItem(word: "ab", hint: "newer duplicate"),
        ])
        var rng = SplitMix64(seed: 1)
        let two = WordDrawing.draw(2, from: pool, excluding: [], finished: [], using: &rng)
        #expect(Set(two?.map(\.word) ?? []) == ["ab", "cd"])
        #expect(two?.first { $0.word == "ab" }?.hint == "newer duplicate")
        #expect(WordDrawing.draw(3, from: pool, excluding: [], finished: [], using: &rng) == nil)
        #expect(WordDrawing.draw(1, from: pool, excluding: ["ab", "cd"], finished: [], using: &rng) == nil)
    }

    @Test func csvImportsGoodRowsAndNamesBadOnesByLine() throws {
        let csv = "\u{FEFF}Word,Hint,Priority\r\n" +
            "Sommer,In dieser Jahreszeit ist es sehr heiß.,2\r\n" +     // 2
            "\"Straße\",\"Darauf fahren \"\"Autos\"\", Busse\nund Räder.\",\r\n" + // 3–4, default priority
            ",kein Wort,1\n" +                                         // 5
            "Bär,Tier\n" +                                             // 6
            "Käse,Gelb,hoch\n" +                                       // 7
            "Teddy Bär,Kuscheltier,1\n" +                              // 8
            "Cafe\u{301},Dort trinkt man Kaffee.,-1\n" +               // 9
            "\n" +                                                     // 10: blank, skipped
            "Hund,Der Hund bellt.,1\n" +                               // 11
            "Sommer,Noch einmal,1\n" +                                 // 12
            "X,Ein Buchstabe,1\n" +                                    // 13
            "Ei,,1\n" +                                                // 14
            "Fuß,Am Bein,1,extra\n" +                                  // 15
            "Mädchen,Kein Junge, 3 \n" +                               // 16
            "Ende,\"offen\n"                                           // 17
        let result = try WordPoolCSV.importItems(Data(csv.utf8))
        #expect(result.items == [
            WordItem(word: "Sommer", hint: "In dieser Jahreszeit ist es sehr heiß.", priority: 2),
            WordItem(word: "Straße", hint: "Darauf fahren \"Autos\", Busse\nund Räder.", priority: 1),
            WordItem(word: "Mädchen", hint: "Kein Junge", priority: 3),
        ])
        #expect(result.errors == [
            CSVRowError(line: 5, reason: .emptyWord),
            CSVRowError(line: 6, reason: .missingColumn),
            CSVRowError(line: 7, reason: .badPriority("hoch")),
            CSVRowError(line: 8, reason: .whitespaceInWord),
            CSVRowError(line: 9, reason: .badPriority("-1")),
            CSVRowError(line: 11, reason: .hintContainsWord),
            CSVRowError(line: 12, reason: .duplicateWord(firstLine: 2)),
            CSVRowError(line: 13, reason: .wordTooShort),
            CSVRowError(line: 14, reason: .emptyHint),
            CSVRowError(line: 15, reason: .tooManyColumns),
            CSVRowError(line: 17, reason: .unterminatedQuote),
        ])
    }

    @Test func csvRejectsAFileWithoutTheHeaderOrNotUTF8() {
        #expect(throws: WordPoolCSVError.badHeader("Sommer,heiß,1")) { try WordPoolCSV.importItems("Sommer,heiß,1\n") }
        #expect(throws: WordPoolCSVError.notUTF8) { try WordPoolCSV.importItems(Data([0x77, 0xFF, 0xFE, 0x2C])) }
        #expect(throws: WordPoolCSVError.badHeader("")) { try WordPoolCSV.importItems("") }
    }

    /// A list saved from a German LibreOffice has ";" between its cells
    /// (and may have commas inside them): it is read the same.
    @Test func aListWithSemicolonsIsReadToo() throws {
        let result = try WordPoolCSV.importItems("word;hint;priority\r\nHaus;Man wohnt darin, warm;2\r\n\"Bär\";\"Tier; groß\";1\r\n")
        #expect(result.items == [WordItem(word: "Haus", hint: "Man wohnt darin, warm", priority: 2),
                                 WordItem(word: "Bär", hint: "Tier; groß", priority: 1)])
        #expect(result.errors.isEmpty)
    }

    @Test func csvRoundTripQuotesOnlyWhereNeeded() throws {
        let items = [
            WordItem(word: "Straße", hint: "Für Autos, Busse und \"Räder\".", priority: 0),
            WordItem(word: "Cafe\u{301}", hint: "Zwei Zeilen\r\nHinweis", priority: 100),
            WordItem(word: "Bär", hint: "Tier", priority: 1),
        ]
        let text = WordPoolCSV.export(items)
        #expect(text.hasPrefix("word,hint,priority\r\n"))
        #expect(text.contains("\r\nBär,Tier,1\r\n"))
        #expect(text.contains("\"Für Autos, Busse und \"\"Räder\"\".\""))
        let back = try WordPoolCSV.importItems(WordPoolCSV.exportData(items))
        #expect(back.errors == [])
        #expect(back.items == items)
        #expect(back.items[1].word.unicodeScalars.count == 5, "the combining mark survives as written")
    }

    @Test func csvRoundTripKeepsAQuoteFollowedByACombiningMark() throws {
        // Found by the csv fuzz target: a quote with a combining mark after
        // it is one Character, so quoting by Characters left it undoubled and
        // the file no longer said what the pool held.
        let items = [WordItem(word: "Bär", hint: "\"\"\u{301}e mixt\"", priority: 1),
                     WordItem(word: "Eis", hint: "a,\"\u{308}b", priority: 2)]
        let back = try WordPoolCSV.importItems(WordPoolCSV.exportData(items))
        #expect(back.errors == [])
        #expect(back.items == items)
    }
}
