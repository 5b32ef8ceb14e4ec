import Foundation
import LearnModel
import LearnRender
import TeamsketchCore
import TeamsketchTestSupport
import Testing

@Suite @MainActor struct SketchFileOpeningTests {
    @Test func theReadRunsOffTheMainActorSoTheWindowKeepsWorking() async {
        // The reader waits until the main actor has done something else: were
        // the read on the main actor, this would never finish.
        let mainActorRan = DispatchSemaphore(value: 0)
        let opening = SketchFileOpening(path: "big.xopp") { _, _ in
            mainActorRan.wait()
            return SketchImport.Result(document: Fixture.sketch())
        }
        Task { @MainActor in mainActorRan.signal() }
        guard case .opened(let doc, _) = await opening.run() else { Issue.record("not opened"); return }
        #expect(doc.strokes.count == 3)
    }

    @Test func cancellingStopsAReadInProgress() async {
        let started = DispatchSemaphore(value: 0)
        let opening = SketchFileOpening(path: "slow.xopp") { path, progress throws(SketchIOError) in
            started.signal()
            while !progress.isCancelled() { usleep(1000) }
            throw .cancelled(path: path)
        }
        Task.detached {
            started.wait()
            await opening.cancel()
        }
        guard case .cancelled = await opening.run() else { Issue.record("not cancelled"); return }
        #expect(opening.isCancelled)
    }

    @Test func aBigXoppReportsReadingUnpackingAndStrokes() async throws {
        let dir = TempDir()
        let path = dir.file("big.xopp")
        let doc = SketchGenerator(seed: 4).document(strokes: 3000, pointsPerStroke: 60, shape: .polyline)
        try XoppFile.write(doc, to: path)
        var steps: [SketchReadProgress.Step] = []
        let opening = SketchFileOpening(path: path)
        guard case .opened(let read, let leftOut) = await opening.run(onStep: { steps.append($0) }) else {
            Issue.record("not opened"); return
        }
        #expect(read.strokes.count == 3000)
        #expect(leftOut.isEmpty)
        // In the order they happened, every one delivered before `run` returns.
        let firstUnpacking = try #require(steps.firstIndex(of: .unpacking))
        #expect(steps[..<firstUnpacking].allSatisfy { if case .reading = $0 { true } else { false } })
        #expect(steps[firstUnpacking - 1] == .reading(fraction: 1))
        #expect(steps[(firstUnpacking + 1)...] == [.readingStrokes])
    }

    @Test func aFileThatIsNoSketchFailsWithItsMessage() async throws {
        let dir = TempDir()
        let path = dir.file("notes.xopp")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        guard case .failed(let error) = await SketchFileOpening(path: path).run() else {
            Issue.record("opened garbage"); return
        }
        #expect(error.description.contains("notes.xopp"))
    }

    @Test func whatTheFileHeldAndTheSketchCannotComesWithTheSketch() async throws {
        let dir = TempDir()
        let path = dir.file("Tafel.xopp")
        let xml = """
            <xournal><page width="100" height="100"><layer>
            <stroke tool="pen" color="black" width="1">0 0 10 10</stroke>
            <text font="Sans" size="12" x="1" y="2" color="#000000ff">a</text>
            <text font="Sans" size="12" x="1" y="2" color="#000000ff">b</text>
            <image left="1" top="1" right="2" bottom="2">iVBORw0KGgo=</image>
            </layer></page></xournal>
            """
        try FileBytes.write(Gzip.compress(Array(xml.utf8)), to: path)
        guard case .opened(let doc, let leftOut) = await SketchFileOpening(path: path).run() else {
            Issue.record("not opened"); return
        }
        #expect(doc.strokes.count == 1)
        #expect(leftOut == ImportLeftOut(texts: 2, images: 1))
    }
}
