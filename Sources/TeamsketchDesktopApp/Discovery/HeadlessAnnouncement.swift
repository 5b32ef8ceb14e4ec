import Foundation
import LearnModel

/// How a headless host (`TeamsketchDesktop host`) is found like the app:
/// DNS-SD and beacon through a DiscoveryService. Needs the main thread to
/// run a GLib loop (`HeadlessMainLoop.runBlocking`).
package enum HeadlessAnnouncement {
    /// Announces a Team Sketch lobby and returns what withdraws it; the
    /// withdrawal returns once both mechanisms have said goodbye.
    package static func publish(name: String, sessionID: UUID, port: Int, activity: SessionActivity = .sketch,
                        classTag: ClassTag? = nil) async -> @Sendable () async -> Void {
        let announcement = SessionAnnouncement(sessionID: sessionID.lowercasedText, hostName: name,
                                               activity: activity, port: port, classTag: classTag)
        let service = await MainActor.run {
            let service = DiscoveryService()
            service.announce(announcement)
            return service
        }
        return { await service.shutdown() }
    }
}
