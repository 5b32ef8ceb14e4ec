/// What a session is for; carried as `act=` in DNS-SD TXT and beacons.
public enum SessionActivity: String, Sendable, Hashable, CaseIterable {
    case sketch
    case wordpost
}
