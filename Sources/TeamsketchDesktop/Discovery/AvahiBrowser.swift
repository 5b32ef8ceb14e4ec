import CAvahi
import LearnModel

/// Browses `_teamsketch._tcp` over IPv4 and resolves each service into a
/// DiscoveryFinding. Resolvers stay open while their service exists, so a
/// TXT change (a lobby closing) is reported again.
@MainActor
final class AvahiBrowser {
    private(set) var status: MechanismStatus = .off
    var onFinding: ((DiscoveryFinding) -> Void)?
    var onRemoved: ((_ sessionID: String, _ host: String) -> Void)?
    var onChange: (() -> Void)?

    /// One mDNS service instance as the browser reports it: the same name
    /// can be seen on several interfaces.
    fileprivate struct Instance: Hashable {
        var interface: AvahiIfIndex
        var name: String
        var domain: String
    }

    private var client: OpaquePointer?
    private var browser: OpaquePointer?
    private var resolvers: [Instance: OpaquePointer] = [:]
    private var sessionsByInstance: [Instance: (sessionID: String, host: String)] = [:]
    private var box: UnsafeMutableRawPointer?

    func attach(_ client: OpaquePointer) {
        release()
        self.client = client
        let target = AvahiCallbackTarget(self)
        let userdata = target.retainedPointer()
        box = userdata // resolvers created from the first events share it
        let b = avahi_service_browser_new(client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_INET),
                                          AvahiPublisher.serviceType, nil, AvahiLookupFlags(0), browseCallback,
                                          userdata)
        guard let b else {
            AvahiCallbackTarget<AvahiBrowser>.release(userdata)
            box = nil
            set(.unavailable(AvahiError.problem(avahi_client_errno(client))))
            return
        }
        browser = b
        set(.running)
    }

    /// Frees the browser and resolvers (before their client is freed) and
    /// reports every resolved service as gone.
    func detach() {
        release()
        set(.off)
    }

    private func release() {
        for r in resolvers.values { avahi_service_resolver_free(r) }
        resolvers = [:]
        if let browser { avahi_service_browser_free(browser) }
        browser = nil
        if let box { AvahiCallbackTarget<AvahiBrowser>.release(box) }
        box = nil
        for (_, r) in sessionsByInstance { onRemoved?(r.sessionID, r.host) }
        sessionsByInstance = [:]
        client = nil
    }

    fileprivate func browsed(_ event: AvahiBrowserEvent, _ instance: Instance, protocol proto: AvahiProtocol) {
        switch event {
        case AVAHI_BROWSER_NEW:
            guard let client, resolvers[instance] == nil else { return }
            let r = avahi_service_resolver_new(client, instance.interface, proto, instance.name,
                                               AvahiPublisher.serviceType, instance.domain,
                                               AvahiProtocol(AVAHI_PROTO_INET), AvahiLookupFlags(0),
                                               resolveCallback, box)
            if let r { resolvers[instance] = r }
        case AVAHI_BROWSER_REMOVE:
            if let r = resolvers.removeValue(forKey: instance) { avahi_service_resolver_free(r) }
            if let gone = sessionsByInstance.removeValue(forKey: instance) { onRemoved?(gone.sessionID, gone.host) }
        case AVAHI_BROWSER_FAILURE:
            set(.unavailable(.failure(AvahiError.text(client.map(avahi_client_errno) ?? Int32(AVAHI_ERR_FAILURE)))))
        default:
            break // ALL_FOR_NOW, CACHE_EXHAUSTED
        }
    }

    fileprivate func resolved(_ instance: Instance, host: String?, port: UInt16, txt: [[UInt8]]) {
        guard let host, let a = DiscoveryTXT.announcement(from: txt, port: Int(port)) else {
            // Not (or no longer) a usable session: a foreign service using our
            // type, or a TXT record that lost a field.
            if let gone = sessionsByInstance.removeValue(forKey: instance) { onRemoved?(gone.sessionID, gone.host) }
            return
        }
        if let old = sessionsByInstance[instance], old != (a.sessionID, host) { onRemoved?(old.sessionID, old.host) }
        sessionsByInstance[instance] = (a.sessionID, host)
        onFinding?(DiscoveryFinding(mechanism: .dnssd, announcement: a, host: host, seen: .now))
    }

    fileprivate func resolveFailed(_ instance: Instance) {
        // Timed out (the host vanished between browse and resolve); a new
        // browse event will try again.
        if let r = resolvers.removeValue(forKey: instance) { avahi_service_resolver_free(r) }
    }

    private func set(_ s: MechanismStatus) {
        guard s != status else { return }
        status = s
        onChange?()
    }
}

private func cString(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }

private let browseCallback: AvahiServiceBrowserCallback = { _, interface, proto, event, name, _, domain, _, userdata in
    guard let target = AvahiCallbackTarget<AvahiBrowser>.target(userdata) else { return }
    let instance = AvahiBrowserInstance(interface: interface, name: cString(name), domain: cString(domain))
    MainActor.assumeIsolated {
        target.target?.browsed(event, .init(instance), protocol: proto)
    }
}

private let resolveCallback: AvahiServiceResolverCallback = { _, interface, _, event, name, _, domain, _, address, port, txt, _, userdata in
    guard let target = AvahiCallbackTarget<AvahiBrowser>.target(userdata) else { return }
    let instance = AvahiBrowserInstance(interface: interface, name: cString(name), domain: cString(domain))
    guard event == AVAHI_RESOLVER_FOUND else {
        MainActor.assumeIsolated { target.target?.resolveFailed(.init(instance)) }
        return
    }
    var host: String?
    if let address {
        var buffer = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        if avahi_address_snprint(&buffer, buffer.count, address) != nil {
            host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
    let entries = AvahiTXT.entries(txt)
    let h = host
    MainActor.assumeIsolated { target.target?.resolved(.init(instance), host: h, port: port, txt: entries) }
}

/// The Sendable form of an instance, to cross into the main-actor closure.
private struct AvahiBrowserInstance: Sendable {
    var interface: AvahiIfIndex
    var name: String
    var domain: String
}

private extension AvahiBrowser.Instance {
    init(_ i: AvahiBrowserInstance) {
        self.init(interface: i.interface, name: i.name, domain: i.domain)
    }
}
