import Foundation
import LearnModel
import NIOCore

/// Whether a session is offered through the school server right now, for
/// the host's lobby to show.
public enum RelayOfferState: Sendable, Hashable {
    /// Listed: the class's devices can join through the server.
    case listed
    /// Not listed at the moment (the server restarted, the network is
    /// down); offered again by itself.
    case retrying(RelayError)
    /// The server said no (signed out, not the host's class, another host
    /// has this session's id): asking again would not change that.
    case refused(RelayError)
}

extension SessionHost {
    /// Offers the session through the relay for as long as it runs: a
    /// control socket that closes (a server restart, a network gone) is
    /// opened again after 1, 2, 4… up to 30 s. A refusal (4xx) ends the
    /// offer, since the same question gets the same answer. Cancel the task
    /// to stop offering; it also ends when the session does.
    public func keepRelayed(through endpoint: RelayEndpoint, sessionName: String, classID: UUID? = nil,
                            onChange: @escaping @Sendable (RelayOfferState) -> Void) -> Task<Void, Never> {
        Task {
            var pause = Duration.seconds(1)
            while !Task.isCancelled, !(await hasEnded) {
                do {
                    try await relay(through: endpoint, sessionName: sessionName, classID: classID)
                    onChange(.listed)
                    pause = .seconds(1)
                    await untilRelayCloses()
                    let ended = await hasEnded
                    if Task.isCancelled || ended { return }
                    onChange(.retrying(.unreachable("the relay closed")))
                } catch let error as RelayError {
                    if case .refused(let status) = error, (400..<500).contains(status) {
                        onChange(.refused(error))
                        return
                    }
                    onChange(.retrying(error))
                } catch {
                    onChange(.retrying(.unreachable("\(error)")))
                }
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(30))
            }
        }
    }

    private var hasEnded: Bool {
        get async { await core.read { $0.session.ended != nil } }
    }

    /// Returns when the relay's control socket closes (at once if none is open).
    private func untilRelayCloses() async {
        let closed = await core.read { $0.relayControl?.closeFuture }
        try? await closed?.get()
    }
}
