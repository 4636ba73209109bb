import Foundation
import Recorder

/// What lies between a log's entries besides entries — gaps (entries that were not
/// recorded) and new recording sessions — in file order, so `rewind log`, `tail`
/// and `find` print each where it happened rather than leave it to the raw file.
struct EntryListing {
    enum Mark {
        /// Entries the recorder could not write, with the first number they take.
        case gap(LogGap, firstNumber: Int)
        /// The log was opened again.
        case session(LogSession)
    }

    private var marks: [(beforeEntry: Int, line: Int, mark: Mark)]
    private var next = 0

    init(_ timeline: LogTimeline) {
        let gaps = timeline.numberedGaps.map { (beforeEntry: $0.gap.beforeEntry, line: $0.gap.lineNumber, mark: Mark.gap($0.gap, firstNumber: $0.firstNumber)) }
        let sessions = timeline.reader.laterSessions.map { (beforeEntry: $0.beforeEntry, line: $0.lineNumber, mark: Mark.session($0)) }
        marks = (gaps + sessions).sorted { ($0.beforeEntry, $0.line) < ($1.beforeEntry, $1.line) }
    }

    /// The marks before reader entry `index` not yet taken (`index` == the entry count for those after the last).
    mutating func take(before index: Int) -> [Mark] {
        var taken: [Mark] = []
        while next < marks.count, marks[next].beforeEntry <= index {
            taken.append(marks[next].mark)
            next += 1
        }
        return taken
    }

    /// Skips the marks before reader entry `index` (a listing that starts later, as `tail -n`).
    mutating func skip(before index: Int) { _ = take(before: index) }

    /// Gaps and sessions in all.
    var count: Int { marks.count }

    var gapCount: Int { marks.count { if case .gap = $0.mark { true } else { false } } }

    /// How `rewind log` prints a mark, numbers right-aligned to `numberWidth`:
    /// `2–4  not recorded (3 entries): …` and `     ── new session 2026-12-05T14:02:11Z, MyApp`.
    static func line(_ mark: Mark, numberWidth: Int) -> String {
        switch mark {
        case .gap(let gap, let first):
            GapDescription.logLine(numbered: first, gap: gap, numberWidth: numberWidth)
        case .session(let session):
            String(repeating: " ", count: numberWidth) + "  ── " + sessionDescription(session)
        }
    }

    /// `new recording session 2026-12-05T14:02:11Z, MyApp`, escaped for the terminal.
    static func sessionDescription(_ session: LogSession) -> String {
        session.startDescription.escapingControlCharacters
    }
}
