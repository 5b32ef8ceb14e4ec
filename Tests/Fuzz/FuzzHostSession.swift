// libFuzzer target for HostSession, the host's pure state machine.
//
// The input is a script of events (see FuzzInput): connections opening and
// closing, messages arriving on them (each through the real frame decoder),
// the host's own buttons and pen. Whatever the script, the host must not
// trap, must keep its limits (at most 4 connected drawers, at most 256
// members, no stroke past the segment limit, a sketch within the file
// limits counting strokes in progress, at most 4 open strokes per sender,
// at most 12 joiners waiting), and everything it sends must arrive
// unchanged on the other side.
import Foundation
import LearnModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHostSession(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var host = makeHost(flags: input.byte())
    var now = fuzzEpoch
    while !input.isEmpty {
        guard let event = HostScript(rawValue: input.byte() % HostScript.count)?.event(&input, now: &now) else {
            continue
        }
        for effect in host.handle(event, now: now) {
            if case .send(let message, _) = effect { requireWireRoundTrip(message, from: "the host") }
        }
        checkLimits(host)
    }
    return 0
}

/// The first byte picks the session's settings, so every rule that depends
/// on one is reachable.
private func makeHost(flags: UInt8) -> HostSession {
    let tokens = TokenSequence()
    let activity = flags & 0x40 == 0 ? SketchActivity.declaration
        : WordPostActivity.declaration(WordPostLobbyInfo(poolID: "fuzz", poolName: "Fuzz", language: "de", wordCount: 12))
    return HostSession(
        sessionID: fuzzUUID(200), hostPeerID: fuzzUUID(201), hostName: "Host",
        params: SessionParams(name: "Fuzz", timeLimitMinutes: Int(flags & 3)),
        settings: SessionSettings(clearAllowed: flags & 4 != 0, eraserAllowed: flags & 8 != 0,
                                  undoOwnAllowed: flags & 16 != 0),
        acceptAll: flags & 32 != 0, createdAt: fuzzEpoch, activity: activity,
        makeToken: { tokens.next() })
}

/// One event per script step; the byte after the step's kind says to whom.
private enum HostScript: UInt8, CaseIterable {
    case open, close, receive, accept, decline, start, clear, end, begin, segments, finish, erase, wait
    case drained, declineAll

    static let count = UInt8(allCases.count)

    func event(_ input: inout FuzzInput, now: inout Date) -> HostSession.Event? {
        switch self {
        case .open:
            // Three machines and this device itself, so the waiting caps bite.
            let source = input.byte() % 4
            return .connectionOpened(ConnectionID(input.byte() % 8), from: source == 0 ? nil : "10.0.0.\(source)")
        case .close: return .connectionClosed(ConnectionID(input.byte() % 8))
        case .receive:
            let connection = ConnectionID(input.byte() % 8)
            return input.message().map { .received(connection, $0) }
        case .accept: return .accept(MemberIndex(input.byte()))
        case .decline: return .decline(MemberIndex(input.byte()))
        case .start: return .start
        case .clear: return .clear
        case .end: return EndReason(rawValue: input.byte() % 3).map { .end($0) }
        case .begin:
            let color = RGBA(hex: UInt32(input.byte()) << 16 | UInt32(input.byte()))
            return .beginStroke(id: fuzzUUID(input.byte() % 8), color: color,
                                width: Double(input.byte()) / 4, start: fuzzPoint(&input))
        case .segments: return .addSegments(id: fuzzUUID(input.byte() % 8), segments: fuzzSegments(&input))
        case .finish: return .endStroke(id: fuzzUUID(input.byte() % 8))
        case .erase: return .erase(id: fuzzUUID(input.byte() % 8))
        case .wait:
            // Up to about 70 minutes, so time limits run out.
            now = now.addingTimeInterval(Double(input.u16()) / 16)
            return nil
        case .drained: return .snapshotDrained(ConnectionID(input.byte() % 8))
        case .declineAll: return .declineAllWaiting
        }
    }
}

private func checkLimits(_ host: HostSession) {
    let drawers = host.lobby.connectedDrawers
    guard drawers <= HostSession.maxDrawers else { fatalError("\(drawers) drawers connected") }
    let members = host.members.count
    guard members <= HostSession.maxMembers else { fatalError("\(members) members") }
    for stroke in host.live where stroke.segments.count > SessionLimits.maxSegmentsPerStroke {
        fatalError("live stroke \(stroke.id) has \(stroke.segments.count) segments")
    }
    guard host.document.ops.count + host.live.count <= host.capacity.maxOps else { fatalError("sketch over its ops") }
    guard host.board.fileBytes <= host.capacity.maxFileBytes else { fatalError("sketch over its file size") }
    let open = Dictionary(grouping: host.live, by: \.sender).values.map(\.count).max() ?? 0
    guard open <= host.capacity.maxOpenStrokesPerSender else { fatalError("\(open) strokes open by one sender") }
    let waiting = host.members.filter { $0.state == .pending && $0.connection != nil }.count
    guard waiting <= host.maxWaiting else { fatalError("\(waiting) joiners waiting") }
}

/// Resume tokens in a fixed order: a random token would make a crash
/// depend on more than its input.
private final class TokenSequence: @unchecked Sendable {
    private let lock = NSLock()
    private var n: UInt64 = 0

    func next() -> ResumeToken {
        lock.lock()
        defer { lock.unlock() }
        n += 1
        return ResumeToken(high: 0x7465616D, low: n)
    }
}
