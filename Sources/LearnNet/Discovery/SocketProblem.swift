import Foundation
import LearnModel
import NIOCore

extension MechanismProblem {
    /// Turns a socket error into the reason shown in diagnostics.
    static func socket(_ error: any Error, port: Int) -> MechanismProblem {
        guard let io = error as? IOError else { return .failure(String(describing: error)) }
        switch io.errnoCode {
        case EADDRINUSE: return .portInUse(port)
        case EACCES, EPERM: return .permissionDenied
        case ENETUNREACH, ENODEV, EADDRNOTAVAIL: return .noMulticastRoute
        default: return .failure(String(cString: strerror(io.errnoCode)))
        }
    }
}
