// libFuzzer target for the session's FrameDecoder (run.sh builds and runs it):
// every frame type, the word game's intents and updates and the lobby's
// activity block included.
//
// Any input must either be rejected with a FrameError or decode to messages
// that encode and decode to themselves; a word-game frame's payload (the
// list in pieces, moves, refusals) and a lobby's word-game block must be
// refused or read back the same after being written again; a crash, a hang, an out-of-bounds
// access (AddressSanitizer) or a round trip that changes a message is a bug.
// The input is also fed in two pieces, split where its first byte says, so
// the decoder's waiting for more bytes is exercised too.
import LearnModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = decodeAll([bytes])
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    let pieces = decodeAll([Array(bytes[..<split]), Array(bytes[split...])])
    if whole.messages != pieces.messages || whole.failed != pieces.failed {
        fatalError("chunking changed the result")
    }
    for m in whole.messages {
        var again = FrameDecoder()
        again.append(m.frame())
        guard let back = try? again.next(), back == m else { fatalError("round trip changed \(m)") }
        requireWordGameRoundTrip(m)
    }
    return 0
}

private func requireWordGameRoundTrip(_ m: SessionMessage) {
    switch m {
    case .activity(let frame):
        guard let message = try? WordPostActivity.decode(frame) else { return }
        guard (try? WordPostActivity.decode(WordPostActivity.encode(message))) == message else {
            fatalError("a word-game message changed when written again: \(message)")
        }
    case .lobby(let lobby) where lobby.activityInfo.kind == .wordpost:
        guard let info = try? WordPostActivity.decodeLobbyInfo(lobby.activityInfo.bytes) else { return }
        guard (try? WordPostActivity.decodeLobbyInfo(WordPostActivity.encode(info))) == info else {
            fatalError("a word-game lobby block changed when written again: \(info)")
        }
    default:
        return
    }
}

private func decodeAll(_ chunks: [[UInt8]]) -> (messages: [SessionMessage], failed: Bool) {
    var d = FrameDecoder()
    var out: [SessionMessage] = []
    for chunk in chunks {
        d.append(chunk)
        do {
            while let m = try d.next() { out.append(m) }
        } catch {
            return (out, true)
        }
    }
    return (out, false)
}
