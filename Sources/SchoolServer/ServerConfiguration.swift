/// What the server is told on its command line; everything has a default
/// that works on a school's own machine.
public struct ServerConfiguration: Sendable {
    public var host = "0.0.0.0"
    /// 0 picks a free port (tests); the address is printed when listening.
    public var port = 8470
    public var database = DatabaseLocation.sqlite(path: "teamsketch-server-data/teamsketch.sqlite")
    /// Timeouts, connection caps and body sizes (413 beyond).
    public var limits = HTTPLimits()
    /// How much drawing sketch images may cost, and on which threads.
    public var rendering = RenderLimits()
    /// How long a sign-in lasts: a teacher's a fortnight, a pupil's one
    /// school day.
    public var teacherTokenLifetime: Int64 = 14 * 24 * 3600 * 1000
    public var pupilTokenLifetime: Int64 = 10 * 3600 * 1000
    public var signInPolicy = SignInPolicy()
    /// How often archived classes past the school's retention are looked
    /// for (`RetentionSweeper`); tests look more often.
    public var retentionSweep: Duration = .seconds(3600)
    /// What one account may store, a day and in all.
    public var quota = AccountQuota()
    /// Free space kept under a SQLite database for signing in and reading.
    public var disk = DiskLimits()
    /// Reverse proxies whose `X-Forwarded-For` names the client (the
    /// sign-in limits per address count that address, not the proxy's).
    public var trustedProxies: Set<String> = []
    /// HTTPS with this certificate (chain, PEM) and key (PEM); plain HTTP
    /// when nil, for a server behind a proxy that does TLS.
    public var tls: TLSFiles?
    /// Where the other server processes sharing the database reach this
    /// one (`http://10.0.0.5:8470`): a relayed session lives in the process
    /// holding its host's control socket, and a member who arrives at
    /// another process is passed on to this address. nil: the bound
    /// address and port (loopback when bound to every address), which fits
    /// processes on one machine only.
    public var relayAddress: String?
    /// How often a relayed session's listing is refreshed; a listing not
    /// refreshed for `RelayListingStore.staleAfterMs` is a process gone.
    /// Tests make it short.
    var relayHeartbeat: Duration = .seconds(20)
    /// The secret that opens `GET /metrics` (`MetricsRoute`); without it
    /// the server has no metrics page.
    public var metricsToken: MetricsToken?

    public struct TLSFiles: Sendable, Equatable {
        public var certificateChain: String
        public var privateKey: String

        public init(certificateChain: String, privateKey: String) {
            self.certificateChain = certificateChain
            self.privateKey = privateKey
        }
    }

    public init() {}
}
