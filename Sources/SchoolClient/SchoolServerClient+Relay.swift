import AsyncHTTPClient
import Foundation
import NIOCore
import TeamsketchCore

extension SchoolServerClient {
    public enum RelayListingFailure: Error, Sendable, Equatable {
        /// 401: the sign-in has run out.
        case signedOut
        case connection(String)
        case badAnswer(RelayListingError)
    }

    /// The sessions the school server relays for this account's classes.
    /// Read with a cap on the answer's size, before it is parsed.
    public func relayedSessions(token: String) async throws(RelayListingFailure) -> [RelayedSession] {
        var request = HTTPClientRequest(url: address.appending(path: "relay/v1/sessions").absoluteString)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let body: ByteBuffer
        do {
            let response = try await http.execute(request, timeout: .seconds(10))
            if response.status == .unauthorized { throw RelayListingFailure.signedOut }
            guard response.status == .ok else { throw RelayListingFailure.connection("HTTP \(response.status.code)") }
            body = try await response.body.collect(upTo: RelayListing.maxBytes)
        } catch let failure as RelayListingFailure {
            throw failure
        } catch {
            throw .connection("\(error)")
        }
        do throws(RelayListingError) {
            return try RelayListing.decode(Data(body.readableBytesView))
        } catch {
            throw .badAnswer(error)
        }
    }
}
