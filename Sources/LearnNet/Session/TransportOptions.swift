import NIOCore
import LearnModel

/// Tuning of the TCP transport. The defaults suit a classroom LAN; tests
/// shrink them to provoke the slow-member and timeout paths quickly.
public struct TransportOptions: Sendable {
    /// Bytes a connection may have waiting (queued plus handed to the socket
    /// and not yet written). Past it that member is dropped; it can rejoin and
    /// catch up from a snapshot. Nobody else ever waits for it.
    public var maxQueuedBytes = 8 << 20
    /// Bytes handed to the socket but not yet written, past which messages
    /// stay in our queue, where segment batches can still be merged.
    public var maxInFlightBytes = 128 << 10
    /// A snapshot's next piece (≤ ~1 MiB) is made only once the joiner's
    /// backlog is down to this, so a snapshot of any size costs the host
    /// about one piece per joiner and never trips `maxQueuedBytes`.
    public var snapshotLowWater = 256 << 10
    public var pingInterval: Duration = .seconds(2)
    /// A connection that sends nothing (not even pongs) for this long is dead.
    public var idleTimeout: Duration = .seconds(10)
    /// A new connection must say hello within this time.
    public var helloTimeout: Duration = .seconds(10)
    /// Connections a host keeps from one address and in all; more are closed
    /// at once (see `ConnectionAdmission`).
    public var maxConnectionsPerAddress = ConnectionAdmission.defaultMaxPerSource
    public var maxConnections = ConnectionAdmission.defaultMaxTotal
    /// Pace of local segment batches (see `SegmentBatcher`): about one per
    /// frame, never delaying a caller that hands over one batch per frame.
    public var batchInterval: Duration = .milliseconds(12)
    /// Socket buffer sizes; nil leaves the kernel's defaults.
    public var socketSendBuffer: Int?
    public var socketReceiveBuffer: Int?

    public init() {}
}

extension Duration {
    var timeAmount: TimeAmount {
        let (s, atto) = components
        return .nanoseconds(s * 1_000_000_000 + atto / 1_000_000_000)
    }
}

/// Counters of one side of the transport, for tests, diagnostics and
/// `bench-session`.
public struct TransportStatistics: Hashable, Sendable {
    public var connections = 0
    public var bytesSent = 0
    public var bytesReceived = 0
    /// Largest per-connection backlog now, and the largest seen since the
    /// last reset (queued + in flight, bytes).
    public var queuedBytes = 0
    public var peakQueuedBytes = 0
    /// Segment batches merged in backed-up queues.
    public var mergedBatches = 0
    /// Connections dropped for falling too far behind.
    public var slowDrops = 0
    /// Connections closed on arrival, over a per-address or total cap.
    public var refusedConnections = 0

    public init() {}
}
