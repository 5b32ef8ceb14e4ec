import CAvahi
import LearnModel

/// Publishes one session as `_teamsketch._tcp` with its TXT record, and
/// keeps it published across daemon restarts and name collisions.
@MainActor
final class AvahiPublisher {
    static let serviceType = "_teamsketch._tcp"

    private(set) var status: MechanismStatus = .off
    /// The name actually published; differs from the host name after a
    /// collision ("Anna #2").
    private(set) var serviceName: String?
    var onChange: (() -> Void)?

    private var announcement: SessionAnnouncement?
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    private var box: UnsafeMutableRawPointer?

    /// Publishes, or updates what is published. A change of the lobby state
    /// or activity only rewrites the TXT record; a new name, port or session
    /// re-registers the service.
    func publish(_ a: SessionAnnouncement) {
        let old = announcement
        announcement = a
        if old?.sessionID != a.sessionID || old?.hostName != a.hostName || old?.port != a.port {
            serviceName = a.hostName
            register()
        } else if old != a {
            updateTXT()
        }
    }

    /// Removes the service; the daemon sends the mDNS goodbye.
    func withdraw() {
        announcement = nil
        serviceName = nil
        freeGroup()
        set(.off)
    }

    /// The connection is running: (re)publish.
    func attach(_ client: OpaquePointer) {
        self.client = client
        register()
    }

    /// The connection went away or is re-registering: forget the group
    /// (before the client that owns it is freed).
    func detach() {
        freeGroup()
        client = nil
        if announcement != nil { set(.starting) }
    }

    private func register() {
        guard let a = announcement else { return }
        guard let client else {
            set(.starting)
            return
        }
        if group == nil {
            let target = AvahiCallbackTarget(self)
            let userdata = target.retainedPointer()
            group = avahi_entry_group_new(client, { g, state, userdata in
                guard let target = AvahiCallbackTarget<AvahiPublisher>.target(userdata) else { return }
                MainActor.assumeIsolated { target.target?.groupChanged(state) }
            }, userdata)
            guard group != nil else {
                AvahiCallbackTarget<AvahiPublisher>.release(userdata)
                fail(avahi_client_errno(client))
                return
            }
            box = userdata
        } else {
            avahi_entry_group_reset(group)
        }
        let txt = AvahiTXT.make(DiscoveryTXT.entries(for: a))
        defer { avahi_string_list_free(txt) }
        var name = serviceName ?? a.hostName
        var result: Int32
        // A local collision (another app on this machine already uses the
        // name) is reported right here rather than as a group state.
        repeat {
            result = avahi_entry_group_add_service_strlst(group, AvahiIfIndex(AVAHI_IF_UNSPEC),
                                                          AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0),
                                                          name, Self.serviceType, nil, nil, UInt16(a.port), txt)
            if Int(result) == AVAHI_ERR_COLLISION { name = ServiceName.alternative(name) }
        } while Int(result) == AVAHI_ERR_COLLISION
        serviceName = name
        guard result >= 0 else { return fail(result) }
        let committed = avahi_entry_group_commit(group)
        guard committed >= 0 else { return fail(committed) }
        set(.starting)
    }

    private func updateTXT() {
        guard let a = announcement, let group, let name = serviceName else { return }
        let txt = AvahiTXT.make(DiscoveryTXT.entries(for: a))
        defer { avahi_string_list_free(txt) }
        let result = avahi_entry_group_update_service_txt_strlst(group, AvahiIfIndex(AVAHI_IF_UNSPEC),
                                                                 AvahiProtocol(AVAHI_PROTO_UNSPEC),
                                                                 AvahiPublishFlags(0), name, Self.serviceType,
                                                                 nil, txt)
        if result < 0 { fail(result) }
    }

    private func groupChanged(_ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            set(.running)
        case AVAHI_ENTRY_GROUP_COLLISION:
            // Someone else on the network has the name: take "Name #2".
            let taken = serviceName ?? ""
            serviceName = ServiceName.alternative(taken)
            set(.limited(.nameCollision(taken)))
            register()
        case AVAHI_ENTRY_GROUP_FAILURE:
            fail(client.map(avahi_client_errno) ?? Int32(AVAHI_ERR_FAILURE))
        default:
            break
        }
    }

    private func fail(_ code: Int32) {
        set(.unavailable(AvahiError.problem(code)))
    }

    private func freeGroup() {
        if let group { avahi_entry_group_free(group) }
        group = nil
        if let box { AvahiCallbackTarget<AvahiPublisher>.release(box) }
        box = nil
    }

    private func set(_ s: MechanismStatus) {
        guard s != status else { return }
        status = s
        onChange?()
    }
}
