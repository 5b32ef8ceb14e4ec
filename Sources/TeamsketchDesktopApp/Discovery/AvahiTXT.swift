import CAvahi

/// Conversions between TXT entries and Avahi's linked string lists.
enum AvahiTXT {
    /// A new list in the given order; free it with `avahi_string_list_free`.
    static func make(_ entries: [String]) -> UnsafeMutablePointer<AvahiStringList>? {
        var list: UnsafeMutablePointer<AvahiStringList>?
        for entry in entries { list = avahi_string_list_add(list, entry) }
        // avahi_string_list_add prepends.
        return avahi_string_list_reverse(list)
    }

    /// The raw bytes of each entry: TXT values need not be UTF-8, and
    /// DiscoveryTXT decides what is acceptable.
    static func entries(_ list: UnsafeMutablePointer<AvahiStringList>?) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var node = list
        while let n = node {
            if let text = avahi_string_list_get_text(n) {
                result.append(Array(UnsafeBufferPointer(start: text, count: avahi_string_list_get_size(n))))
            }
            node = avahi_string_list_get_next(n)
        }
        return result
    }
}
