/// The desktop's text size, as a factor of the normal one (GNOME's "Large
/// text" is 1.25; accessibility settings go to 2 and beyond). The style
/// sheet gives font sizes in points, so GTK grows the text itself; layouts
/// that would then outgrow the screen ask here how to fold.
public enum TextScale {
    /// GTK's `gtk-xft-dpi` is dots per inch times 1024; 96 dpi is normal.
    public static func factor(xftDPI: Int) -> Double {
        // Out-of-range values (unset is -1) read as normal text.
        guard xftDPI > 0, xftDPI <= 96 * 1024 * 8 else { return 1 }
        return Double(xftDPI) / Double(96 * 1024)
    }

    /// A row of big buttons split into lines: one line up to 1.5 times the
    /// normal text, two from there (the first line the longer).
    public static func rows<T>(of items: [T], scale: Double) -> [[T]] {
        guard scale >= 1.5, items.count > 2 else { return [items] }
        let split = (items.count + 1) / 2
        return [Array(items[..<split]), Array(items[split...])]
    }
}
