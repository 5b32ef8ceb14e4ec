/// One connection's messages waiting for the socket, with the bytes they
/// take. Only used while the socket is backed up: then consecutive segment
/// batches of a stroke are merged into one (one header instead of many), so
/// a slow member catches up with fewer, larger frames. The transport drops the
/// connection when `bytes` passes its cap; nothing here ever blocks.
public struct OutboundQueue: Sendable {
    public struct Item: Sendable {
        public var message: SessionMessage
        public var frame: [UInt8]
    }

    /// How far back a new batch looks for one to merge into; the batch it
    /// continues is almost always among the last few items.
    public static let mergeWindow = 64
    /// A merged batch stops growing here, so re-encoding it stays cheap.
    public static let maxMergedSegments = 1024

    private var items: [Item] = []
    private var head = 0
    public private(set) var bytes = 0
    public private(set) var mergedBatches = 0

    public init() {}

    public var isEmpty: Bool { head == items.count }
    public var count: Int { items.count - head }

    public mutating func append(_ message: SessionMessage, frame: [UInt8]) {
        if case .strokeSegments(let batch) = message, merge(batch) { return }
        items.append(Item(message: message, frame: frame))
        bytes += frame.count
    }

    public mutating func popFirst() -> Item? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        bytes -= item.frame.count
        if head > 256 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }

    /// Merges into the sender's last queued message if that is a batch of the
    /// same stroke ending right before this one. Other senders' messages in
    /// between do not matter: order is only promised per sender.
    private mutating func merge(_ batch: StrokeSegments) -> Bool {
        let lower = max(head, items.count - Self.mergeWindow)
        var i = items.count - 1
        while i >= lower {
            if let stamp = items[i].message.stamp, stamp.sender == batch.stamp.sender {
                guard case .strokeSegments(var prev) = items[i].message, prev.strokeID == batch.strokeID else {
                    return false
                }
                // Seqs and spans are the sender's numbers: added with overflow
                // checks, and batches that would overflow simply stay apart.
                let (follows, seqOverflow) = prev.stamp.seq.addingReportingOverflow(UInt64(batch.seqSpan))
                let (span, spanOverflow) = prev.seqSpan.addingReportingOverflow(batch.seqSpan)
                guard !seqOverflow, !spanOverflow, follows == batch.stamp.seq,
                      prev.segments.last?.end ?? prev.base == batch.base,
                      prev.segments.count + batch.segments.count <= Self.maxMergedSegments else { return false }
                prev.segments += batch.segments
                prev.stamp.seq = batch.stamp.seq
                prev.seqSpan = span
                let message = SessionMessage.strokeSegments(prev)
                let frame = message.frame()
                bytes += frame.count - items[i].frame.count
                items[i] = Item(message: message, frame: frame)
                mergedBatches += 1
                return true
            }
            i -= 1
        }
        return false
    }
}
