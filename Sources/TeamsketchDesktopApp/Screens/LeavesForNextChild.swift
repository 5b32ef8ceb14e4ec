import Foundation

/// A screen holding a session this device is in, which the kiosk leaves
/// when the machine is left alone (a host ends it for everyone).
@MainActor
protocol LeavesForNextChild: AnyObject {
    func leaveForNextChild() async
}

extension HostLobbyScreen: LeavesForNextChild {}
extension JoinScreen: LeavesForNextChild {}
