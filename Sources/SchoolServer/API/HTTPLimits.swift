/// Every limit the server puts on a connection and a request, in one place.
/// The values are for a school: a few hundred laptops and kiosks on one
/// network, pushes of up to 500 changes, nothing that streams.
public struct HTTPLimits: Sendable, Equatable {
    /// A connection with no request under way is closed after this (also
    /// one that never finishes sending a request's head). Longer than a
    /// laptop keeps an unused connection (AsyncHTTPClient's pool: 60 s),
    /// so the laptop, not the server, ends one it might reuse.
    public var idleTimeout: Duration = .seconds(75)
    /// A request's body must have arrived whole this long after it began;
    /// a client that dribbles it gets 408 and its connection closed. 8 MiB
    /// at 2 Mbit/s, a crowded classroom's wireless, takes half of it.
    public var bodyTimeout: Duration = .seconds(60)
    /// Connections open at once, in all: what a process can serve without
    /// running out of file descriptors (a school's service allows 1,024 by
    /// default; the database and the relay need some).
    public var maxConnections = 768
    /// Connections open at once from one address (an IPv6 address counts
    /// with its /64): a laptop needs a few (its pool holds up to 8; a
    /// relayed session's host one per member and one more), a class behind
    /// one NAT address a few dozen. A proxy the school named and this
    /// machine itself are not capped per address; a school whose laptops
    /// all reach a district's server through one address raises it
    /// (`--max-connections-per-address`).
    public var maxConnectionsPerAddress = 128
    /// Whether connections from this machine count per address too (tests
    /// stand in for several machines with 127.0.0.2, 127.0.0.3, …).
    public var loopbackIsCapped = false
    /// The body every route accepts: a sign-in, a class, a gallery form.
    public var maxBodyBytes = 64 << 10
    /// The body of a push (a few long strokes, up to 1 MiB each, must fit),
    /// read only after its token was found valid.
    public var maxPushBytes = 8 << 20

    public init() {}
}
