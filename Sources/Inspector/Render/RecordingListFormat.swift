import Foundation

/// How a recording reads on one line, in `rewind ls` and in the list view alike.
enum RecordingListFormat {
    /// `FAILED  2026-03-01 10:15:00  1204 entries   1.2 MB  CheckoutTests.pay  CheckoutTests.pay.jsonl  (torn last line)`
    static func row(_ recording: RecordingSummary) -> String {
        var columns = [
            (recording.failed ? "FAILED" : "").padded(toWidth: 6),
            recording.created.map(date) ?? unknownDate,
            entries(recording.entries).leftPadded(toWidth: 13),
            ValueFormatting.shortBytes(recording.bytes).leftPadded(toWidth: 8),
            recording.displayName.escapingControlCharacters,
            recording.relativePath.escapingControlCharacters,
        ]
        if let damage = recording.damage { columns.append("(\(damage))") }
        return columns.joined(separator: "  ")
    }

    static func entries(_ count: Int?) -> String {
        guard let count else { return "? entries" }
        return count == 1 ? "1 entry" : "\(count) entries"
    }

    /// `2026-03-01 10:15:00`, UTC, so lists read the same on every machine; `?`
    /// (as wide) for a time no calendar date stands for, which a header can hold.
    static let unknownDate = "?".padded(toWidth: 19)

    static func date(_ date: Date) -> String {
        let unknown = unknownDate
        guard var seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)) else { return unknown }
        var parts = tm()
        // Fails for a year past Int32's range.
        guard gmtime_r(&seconds, &parts) != nil else { return unknown }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}

extension ValueFormatting {
    /// `812 B`, `20 KB`, `1.2 MB`, `3.4 GB`.
    static func shortBytes(_ bytes: Int64) -> String {
        let units = ["KB", "MB", "GB", "TB"]
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        let text = value < 10 ? String((value * 10).rounded() / 10) : String(Int(value.rounded()))
        return text + " " + units[unit]
    }
}
