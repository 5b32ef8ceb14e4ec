import LearnModel

extension CanvasEvent {
    /// What a session event means for a canvas that shows the shared sheet:
    /// other people's ink as it grows, ops in the host's order, and a
    /// snapshot replacing everything. Nil for events that are not about the
    /// sheet (lobby, membership, the end) and for this device's own ink,
    /// which its pen has drawn already.
    public init?(sheetOf event: SessionEvent) {
        switch event {
        case .documentReset(let doc, let live): self = .reset(doc, live: live)
        case .strokeBegan(let live, false): self = .remoteBegan(live)
        case .strokeExtended(let id, _, let first, let segments, false):
            self = .remoteExtended(id, firstIndex: first, segments: segments)
        case .opApplied(let op, _, let isOwn): self = .sharedOpApplied(op, isOwn: isOwn)
        case .ownStrokeRefused(let id): self = .ownStrokeRefused(id)
        default: return nil
        }
    }
}
