import NIOCore
import LearnModel

/// The sending side of one connection: its own queue, so a member that does
/// not read only ever fills its own queue. Confined to the channel's event
/// loop (every call and callback happens there; the entry points check).
final class ConnectionWriter: @unchecked Sendable {
    let channel: Channel
    private let options: TransportOptions
    private var queue = OutboundQueue()
    private var inFlight = 0
    private var closing = false
    private var outputClosed = false
    private(set) var bytesSent = 0
    private(set) var peak = 0
    /// Called once when the backlog falls to `lowWater` (a snapshot's next piece).
    private var onDrained: (lowWater: Int, action: () -> Void)?

    init(channel: Channel, options: TransportOptions) {
        self.channel = channel
        self.options = options
    }

    var pendingBytes: Int { queue.bytes + inFlight }
    var mergedBatches: Int { queue.mergedBatches }

    /// Queues or writes a frame. False when the connection is over its byte
    /// cap: the caller drops it.
    func send(_ message: SessionMessage, frame: [UInt8]) -> Bool {
        channel.eventLoop.preconditionInEventLoop()
        guard !closing else { return true }
        if queue.isEmpty && inFlight < options.maxInFlightBytes {
            write(frame)
            channel.flush()
        } else {
            queue.append(message, frame: frame)
        }
        peak = max(peak, pendingBytes)
        return pendingBytes <= options.maxQueuedBytes
    }

    /// Closes once everything queued so far is written (a `declined` or `end`
    /// must reach the peer before the socket goes).
    ///
    /// Only the sending half closes then. Closing both halves while frames
    /// from the peer are still unread makes the kernel answer with a reset,
    /// and a reset may throw away what the peer has not read yet: the very
    /// `end` this waits to deliver, when the peer's loop is busy for a moment.
    /// The peer reads to the end and hangs up, which closes the rest.
    ///
    /// Progress is what the kernel takes from the queue, which it does only
    /// as fast as the peer reads: a peer whose queue has not moved for
    /// `grace` is cut off, one reading slowly is not (it would lose the
    /// `end` behind a long catch-up); once all is in the kernel, the peer
    /// has `grace` to hang up. Whatever happens, the connection is closed
    /// after `deadline`, so ending a session never waits longer.
    func closeAfterFlush(grace: TimeAmount = .seconds(2), deadline: TimeAmount = .seconds(30)) {
        channel.eventLoop.preconditionInEventLoop()
        guard !closing else { return }
        closing = true
        cutOffUnlessReading(within: grace, sentBefore: bytesSent)
        let channel = self.channel
        channel.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
        if queue.isEmpty && inFlight == 0 { closeOutput() }
    }

    private func cutOffUnlessReading(within grace: TimeAmount, sentBefore: Int) {
        channel.eventLoop.scheduleTask(in: grace) {
            guard self.channel.isActive else { return }
            if self.bytesSent == sentBefore {
                self.channel.close(promise: nil)
            } else {
                self.cutOffUnlessReading(within: grace, sentBefore: self.bytesSent)
            }
        }
    }

    private func closeOutput() {
        guard !outputClosed else { return }
        outputClosed = true
        let channel = self.channel
        channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
    }

    /// Runs `action` on the loop once what waits for the socket is at most
    /// `lowWater` bytes (at once if it is already). A later call replaces an
    /// earlier one that has not run yet.
    func notifyWhenDrained(below lowWater: Int, _ action: @escaping () -> Void) {
        channel.eventLoop.preconditionInEventLoop()
        onDrained = (lowWater, action)
        fireDrainedIfLow()
    }

    private func fireDrainedIfLow() {
        guard let drained = onDrained, !closing, pendingBytes <= drained.lowWater else { return }
        onDrained = nil
        // Not from inside a write's completion: the action queues more.
        channel.eventLoop.execute { drained.action() }
    }

    func takePeak() -> Int {
        defer { peak = pendingBytes }
        return peak
    }

    /// A frame goes to the socket in pieces of at most this many bytes, each
    /// counted when written: a peer reading a 1 MiB frame slowly shows its
    /// progress (see `closeAfterFlush`). Slices share the frame's storage.
    static let pieceBytes = 64 << 10

    private func write(_ frame: [UInt8]) {
        var buffer = channel.allocator.buffer(bytes: frame)
        inFlight += frame.count
        while let piece = buffer.readSlice(length: min(Self.pieceBytes, buffer.readableBytes)), piece.readableBytes > 0 {
            let n = piece.readableBytes
            let promise = channel.eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { result in
                self.inFlight -= n
                if case .success = result { self.bytesSent += n }
                self.drain()
            }
            channel.write(piece, promise: promise)
        }
    }

    private func drain() {
        var wrote = false
        while inFlight < options.maxInFlightBytes, let item = queue.popFirst() {
            write(item.frame)
            wrote = true
        }
        if wrote { channel.flush() }
        if closing && queue.isEmpty && inFlight == 0 { closeOutput() }
        fireDrainedIfLow()
    }
}
