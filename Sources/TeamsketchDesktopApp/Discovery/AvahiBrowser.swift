import CAvahi
import LearnModel

/// Browses one DNS-SD service type over IPv4 and resolves each instance;
/// what the records mean is left to its owner (`AvahiSessionBrowser` for
/// sessions, `SchoolServerBrowser` for school servers). Resolvers stay open
/// while their service exists, so a TXT change (a lobby closing) is
/// reported again.
@MainActor
final class AvahiBrowser {
    let serviceType: String
    private(set) var status: MechanismStatus = .off
    /// A service resolved, or resolved again with new records.
    var onResolved: ((ResolvedService) -> Void)?
    /// A service reported by `onResolved` is gone, or no longer has an address.
    var onGone: ((Instance) -> Void)?
    var onChange: (() -> Void)?

    /// One mDNS service instance as the browser reports it: the same name
    /// can be seen on several interfaces.
    struct Instance: Hashable {
        var interface: AvahiIfIndex
        var name: String
        var domain: String
    }

    struct ResolvedService {
        var instance: Instance
        /// The address as Avahi prints it (an IPv4 literal).
        var host: String
        var port: UInt16
        /// The raw bytes of each TXT entry: values need not be UTF-8, and the
        /// owner decides what is acceptable.
        var txt: [[UInt8]]
    }

    init(serviceType: String) {
        self.serviceType = serviceType
    }

    private var client: OpaquePointer?
    private var browser: OpaquePointer?
    private var resolvers: [Instance: OpaquePointer] = [:]
    private var reported: Set<Instance> = []
    private var box: UnsafeMutableRawPointer?

    func attach(_ client: OpaquePointer) {
        release()
        self.client = client
        let target = AvahiCallbackTarget(self)
        let userdata = target.retainedPointer()
        box = userdata // resolvers created from the first events share it
        let b = avahi_service_browser_new(client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_INET),
                                          serviceType, nil, AvahiLookupFlags(0), browseCallback,
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
        let gone = reported
        reported = []
        for instance in gone { onGone?(instance) }
        client = nil
    }

    fileprivate func browsed(_ event: AvahiBrowserEvent, _ instance: Instance, protocol proto: AvahiProtocol) {
        switch event {
        case AVAHI_BROWSER_NEW:
            guard let client, resolvers[instance] == nil else { return }
            let r = avahi_service_resolver_new(client, instance.interface, proto, instance.name,
                                               serviceType, instance.domain,
                                               AvahiProtocol(AVAHI_PROTO_INET), AvahiLookupFlags(0),
                                               resolveCallback, box)
            if let r { resolvers[instance] = r }
        case AVAHI_BROWSER_REMOVE:
            if let r = resolvers.removeValue(forKey: instance) { avahi_service_resolver_free(r) }
            if reported.remove(instance) != nil { onGone?(instance) }
        case AVAHI_BROWSER_FAILURE:
            set(.unavailable(.failure(AvahiError.text(client.map(avahi_client_errno) ?? Int32(AVAHI_ERR_FAILURE)))))
        default:
            break // ALL_FOR_NOW, CACHE_EXHAUSTED
        }
    }

    fileprivate func resolved(_ instance: Instance, host: String?, port: UInt16, txt: [[UInt8]]) {
        guard let host else {
            if reported.remove(instance) != nil { onGone?(instance) }
            return
        }
        reported.insert(instance)
        onResolved?(ResolvedService(instance: instance, host: host, port: port, txt: txt))
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
