import Foundation

/// Where a value holds `Date`s, from a log header's `datePaths` (the state) or an entry's
/// `payloadDates` (its action's payload): `["/todos/*/created"]`, `*` standing for any array
/// index or object key. The inspector's state pane and every action summary show those
/// numbers — seconds since 2001-01-01, `Date`'s `Codable` default — as ISO-8601 dates.
package struct DatePaths: Equatable, Sendable {
    private let patterns: [[String]]

    package init(_ patterns: [String]) {
        self.patterns = patterns.compactMap { try? JSONPointer(parsing: $0).tokens }
    }

    package var isEmpty: Bool { patterns.isEmpty }

    package func contains(_ path: JSONPointer) -> Bool {
        patterns.contains { pattern in
            pattern.count == path.tokens.count && zip(pattern, path.tokens).allSatisfy { $0 == "*" || $0 == $1 }
        }
    }

    /// `2026-01-01T09:30:00Z` (with milliseconds when there are any) for a number at a date path.
    package func date(_ value: JSONValue, at path: JSONPointer) -> String? {
        guard contains(path), let seconds = value.doubleValue, seconds.isFinite, abs(seconds) < 1e11 else { return nil }
        return Self.iso8601(Date(timeIntervalSinceReferenceDate: seconds))
    }

    package static func iso8601(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        var text = "\(String(format: "%04d", parts.year ?? 0))-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
        let milliseconds = Int((Double(parts.nanosecond ?? 0) / 1e6).rounded())
        if milliseconds > 0 && milliseconds < 1000 { text += String(format: ".%03d", milliseconds) }
        return text + "Z"
    }
}
