import Foundation
import LearnNet

extension SchoolSignIn {
    /// The school server's relay as this sign-in reaches it: the same
    /// address, token and trusted authorities as sync, so a session through
    /// the server is open exactly to those the server knows signed in.
    public var relayEndpoint: RelayEndpoint? {
        guard let url = SchoolAddress.parse(server), let host = url.host else { return nil }
        return RelayEndpoint(host: host, port: url.port ?? SchoolAddress.defaultPort, token: token.secret,
                             secure: url.scheme == "https", trustedCertificates: trustedCertificates)
    }
}
