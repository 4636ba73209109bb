/// Two long values cut to the same width around where they first differ, so that a
/// `blame` or history row shows the change rather than a shared prefix:
/// `…"title":"Buy milk","done":false}` → `…"title":"Buy milk","done":true}`.
enum DifferenceWindow {
    /// Characters of shared context kept before the first difference.
    static let context = 20

    /// `shift`: characters further into both values (a history row scrolled sideways).
    static func cut(_ old: String, _ new: String, width: Int = 80, shift: Int = 0) -> (old: String, new: String) {
        let (a, b) = (Array(old), Array(new))
        if a.count <= width && b.count <= width && shift == 0 { return (old, new) }
        let start = min(start(a, b, width: width) + shift, max(a.count, b.count))
        return (window(a, from: start, width: width), window(b, from: start, width: width))
    }

    /// How far `shift` may go: until the end of the longer value shows.
    static func shiftLimit(_ old: String, _ new: String, width: Int) -> Int {
        let (a, b) = (Array(old), Array(new))
        return max(0, max(a.count, b.count) - start(a, b, width: width) - width + 1)
    }

    /// Where both windows start: a little before the first difference (at most a third of
    /// a narrow window, so the difference shows), or at the start when both fit.
    private static func start(_ a: [Character], _ b: [Character], width: Int) -> Int {
        if a.count <= width && b.count <= width { return 0 }
        var first = 0
        while first < a.count, first < b.count, a[first] == b[first] { first += 1 }
        let context = min(Self.context, width / 3)
        return first > context ? first - context : 0
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
