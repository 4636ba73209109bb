/// Two long values cut to the same width around where they first differ, so that a
/// `blame` or history row shows the change rather than a shared prefix:
/// `…"title":"Buy milk","done":false}` → `…"title":"Buy milk","done":true}`.
enum DifferenceWindow {
    /// Characters of shared context kept before the first difference.
    static let context = 20

    static func cut(_ old: String, _ new: String, width: Int = 80) -> (old: String, new: String) {
        let (a, b) = (Array(old), Array(new))
        if a.count <= width && b.count <= width { return (old, new) }
        var first = 0
        while first < a.count, first < b.count, a[first] == b[first] { first += 1 }
        let start = first > context ? first - context : 0
        return (window(a, from: start, width: width), window(b, from: start, width: width))
    }

    private static func window(_ characters: [Character], from start: Int, width: Int) -> String {
        if characters.count <= width && start == 0 { return String(characters) }
        let lead = start > 0 ? "…" : ""
        let room = width - lead.count
        let end = min(characters.count, start + room)
        let body = String(characters[min(start, characters.count)..<end])
        return end < characters.count ? lead + String(body.dropLast()) + "…" : lead + body
    }
}
