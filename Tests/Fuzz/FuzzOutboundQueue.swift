// libFuzzer target for OutboundQueue, which merges a backed-up connection's
// segment batches.
//
// The input is a script (see FuzzInput) of appends (any decoded message,
// with its real frame) and pops. Merging may only join batches: per sender,
// the messages that come out, with each batch spread into its segments,
// must be exactly those that went in, in order; every frame that comes out
// must be its message's frame; and the byte count must end at zero.
import Foundation
import LearnModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOutboundQueue(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var queue = OutboundQueue()
    var appended = Trace()
    var popped = Trace()
    while !input.isEmpty {
        if input.byte() % 4 == 0 {
            if let item = queue.popFirst() { popped.record(checked(item)) }
        } else if let message = input.message() {
            appended.record(message)
            queue.append(message, frame: message.frame())
        }
        guard queue.bytes >= 0 else { fatalError("queue holds \(queue.bytes) bytes") }
    }
    while let item = queue.popFirst() { popped.record(checked(item)) }
    guard queue.isEmpty, queue.count == 0, queue.bytes == 0 else {
        fatalError("an empty queue still counts \(queue.count) items, \(queue.bytes) bytes")
    }
    guard appended == popped else { fatalError("the queue changed what was sent") }
    return 0
}

private func checked(_ item: OutboundQueue.Item) -> SessionMessage {
    guard item.frame == item.message.frame() else { fatalError("queued frame differs from its message") }
    return item.message
}

/// What one connection would receive, per sender (nil: unstamped
/// messages), with segment batches spread into single segments so a merged
/// batch compares equal to the batches it was made of.
private struct Trace: Equatable {
    enum Piece: Equatable {
        case segment(UUID, WireSegment)
        case message(SessionMessage)
    }

    var bySender: [MemberIndex?: [Piece]] = [:]

    mutating func record(_ message: SessionMessage) {
        let sender = message.stamp?.sender
        if case .strokeSegments(let batch) = message {
            bySender[sender, default: []] += batch.segments.map { .segment(batch.strokeID, $0) }
        } else {
            bySender[sender, default: []].append(.message(message))
        }
    }
}
