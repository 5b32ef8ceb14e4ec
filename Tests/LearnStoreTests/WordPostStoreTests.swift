import Foundation
import GRDB
import LearnModel
import TeamsketchTestSupport
import Testing
import LearnStore

@Suite struct WordPostStoreTests {
    @Test func poolsRoundTripWithOutboxRowsAndDeletion() throws {
        let clock = ManualStoreClock()
        let store = try LocalStore.inMemory(clock: clock.clock)
        var pool = WordPool(id: UUID().uuidString.lowercased(), name: "Klasse 2b", language: "de", items: [
            WordItem(word: "Straße", hint: "Für Autos", priority: 3),
            WordItem(word: "Cafe\u{301}", hint: "Kaffee", priority: 0),
        ])
        try store.savePool(pool)
        #expect(try store.pool(id: pool.id) == pool)
        pool.items.append(WordItem(word: "Bär", hint: "Honig"))
        pool.name = "Klasse 2b (neu)"
        clock.advance(milliseconds: 5)
        try store.savePool(pool)
        #expect(try store.pools() == [pool])
        #expect(try store.pool(id: pool.id)?.items.last?.word == "Bär")
        #expect(try store.deletePool(id: pool.id))
        #expect(try !store.deletePool(id: pool.id))
        #expect(try store.pools() == [])
        #expect(try store.pool(id: pool.id) == nil)
        let outbox = try store.pendingOutbox()
        #expect(outbox.map(\.entity) == [.pool, .pool, .pool])
        #expect(Set(outbox.map(\.entityId)) == [pool.id])
        let saved = try JSONSerialization.jsonObject(with: outbox[1].payload) as? [String: Any]
        #expect(saved?["change"] as? String == "save")
    }

    @Test func builtInPoolsLoadOnceAndStayDeletedIfTheTeacherDeletesThem() throws {
        let store = try LocalStore.inMemory()
        #expect(try store.loadBuiltInPoolsIfMissing(BuiltInPools.all()) == [BuiltInPools.germanID, BuiltInPools.englishID])
        #expect(try store.loadBuiltInPoolsIfMissing(BuiltInPools.all()) == [])
        let pools = try store.pools()
        #expect(pools.map(\.id).sorted() == [BuiltInPools.germanID, BuiltInPools.englishID].sorted())
        #expect(try pools.first { $0.id == BuiltInPools.germanID } == BuiltInPools.german())
        #expect(try store.outboxCount() == 0, "built-in pools are not synced")
        try store.deletePool(id: BuiltInPools.englishID)
        #expect(try store.loadBuiltInPoolsIfMissing(BuiltInPools.all()) == [])
        #expect(try store.pools().map(\.id) == [BuiltInPools.germanID])
    }

    @Test func roundStatsAreRecordedForNamedPlayersAndSummed() throws {
        let store = try LocalStore.inMemory()
        var game = WordPostGame(pool: WordPostFixture.germanPool, players: [0, 1, 2], seed: 5, at: WordPostFixture.t0)
        let gameID = UUID()
        let tile = try #require(game.hands[0]!.first)
        _ = game.apply(.send(letter: tile.id, from: 0, to: 1))
        _ = WordPostFixture.finishRound(&game, at: WordPostFixture.at(30))
        let names: [PlayerID: String] = [0: "Anna", 1: "Ben"] // player 2 plays unnamed
        let accounts: [PlayerID: UUID] = [0: UUID(), 1: UUID()]
        let rows = try store.recordRound(try #require(game.rounds.last), gameID: gameID, names: names, accounts: accounts)
        #expect(rows.map(\.playerName) == ["Anna", "Ben"])
        #expect(try store.outboxCount() == 2)
        #expect(try store.pendingOutbox().allSatisfy { $0.entity == .wordPostRoundStat })
        // Each result carries the account of its own player.
        let pushed = try store.pendingOutbox().map { try JSONDecoder().decode(WordPostRoundStat.self, from: $0.payload) }
        #expect(Set(pushed.map { "\($0.playerName) \($0.playerID!)" })
                == ["Anna \(accounts[0]!)", "Ben \(accounts[1]!)"])
        #expect(try store.unfiledResults().count == 0)

        _ = game.apply(.nextRound(at: WordPostFixture.at(40)))
        _ = game.apply(.endGame(at: WordPostFixture.at(50)))
        try store.recordRound(try #require(game.rounds.last), gameID: gameID, names: names, accounts: accounts)

        let anna = try store.stats(forPlayer: "Anna")
        #expect(anna.rounds.count == 2)
        #expect(anna.rounds.map(\.round) == [1, 2])
        #expect(anna.wordsFinished == 1)
        #expect(anna.lettersSent >= 1)
        #expect(anna.rounds[0].milliseconds == 30_000 && anna.rounds[1].milliseconds == 10_000)
        #expect(anna.averageMilliseconds == 30_000)
        #expect(anna.finishedSeconds == [30], "only the finished word, in seconds")
        #expect(try store.wordPostPlayers() == ["Anna", "Ben"], "the unnamed player is not listed")
        #expect(anna.rounds[0].gameID == gameID)
        #expect(try store.stats(forPlayer: "Ben").lettersReceived >= 1)
        #expect(try store.stats(forPlayer: "Nobody").rounds == [])
        let finished = try store.finishedWords(forPlayers: ["Anna", "Ben"])
        #expect(finished == Set(game.rounds[0].results.filter { $0.player < 2 }.map(\.word)))
    }

    @Test func aVersion1DatabaseMigratesToVersion2KeepingItsSketches() throws {
        try withStoreTempDirectory { dir in
            let path = dir + "/old.sqlite"
            // A file as the v1 app left it: only the v1 migration applied.
            do {
                let db = try DatabaseQueue(path: path)
                try db.write { db in try db.execute(sql: "PRAGMA application_id = \(LocalStore.applicationID)") }
                var v1 = DatabaseMigrator()
                v1.registerMigration("v1") { db in
                    try db.execute(sql: """
                        CREATE TABLE sketch (id TEXT PRIMARY KEY, name TEXT NOT NULL, guides TEXT NOT NULL,
                            timeLimitMinutes INTEGER NOT NULL, width DOUBLE NOT NULL, height DOUBLE NOT NULL,
                            createdAt INTEGER NOT NULL, modifiedAt INTEGER NOT NULL, thumbnail BLOB, deletedAt INTEGER);
                        CREATE INDEX sketch_on_name ON sketch(name);
                        CREATE TABLE sketchOp (sketchId TEXT NOT NULL REFERENCES sketch(id) ON DELETE CASCADE,
                            seq INTEGER NOT NULL, opId TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, payload BLOB NOT NULL,
                            createdAt INTEGER NOT NULL, PRIMARY KEY (sketchId, seq));
                        CREATE TABLE outbox (opId TEXT PRIMARY KEY, entity TEXT NOT NULL, entityId TEXT NOT NULL,
                            payload BLOB NOT NULL, createdAt INTEGER NOT NULL);
                        INSERT INTO sketch VALUES ('00000000-0000-4000-8000-000000000001', 'Alt', 'none', 0, 800, 600, 1, 2, NULL, NULL);
                        """)
                }
                try v1.migrate(db)
                try db.close()
            }
            let store = try LocalStore(path: path)
            #expect(try store.appliedMigrations() == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8"])
            #expect(try store.sketches().map(\.name) == ["Alt"])
            try store.loadBuiltInPoolsIfMissing(BuiltInPools.all())
            #expect(try store.pools().count == 2)
            try store.close()
            let reopened = try LocalStore(path: path)
            #expect(try reopened.pools().count == 2)
        }
    }
}
