import Recorder
import Foundation

extension ScreenPainter {
    /// The selected action in the state pane's place (`p`): who sent it, how long
    /// the reducer took, where it was dispatched (when recorded), and the whole
    /// payload as an indented JSON tree.
    mutating func drawActionPane() {
        let area = layout.state
        drawTitle("Action \(model.selection + 1)  (p: back to the state)", over: area, focused: model.focus == .state)
        guard let entry = model.view.entry else {
            screen.write(" (no entries yet)", row: area.row, column: area.column, style: .dim, limit: area.column + area.width)
            return
        }
        var lines: [(String, CellStyle)] = [(entry.actionType, .bold)]
        let duration = entry.duration.map { "reducer " + ValueFormatting.duration($0) } ?? "reducer time not recorded"
        lines.append((duration, .dim))
        if entry.causeSequence != nil {
            lines.append(("sent by an effect (c: cause" + (model.causeTrail.isEmpty ? ")" : ", b: back)"), .colored(.accent)))
        } else {
            lines.append(("sent by the app" + (model.causeTrail.isEmpty ? "" : " (b: back)"), .dim))
        }
        if let trace = entry.trace {
            // Where the action was dispatched (the reference store, the manual API), and the stack with `Options.trace`.
            if let file = trace.file { lines.append(("dispatched at " + file + (trace.line.map { ":\($0)" } ?? ""), .dim)) }
            if !trace.stack.isEmpty {
                lines.append(("call stack:", .dim))
                for frame in trace.stack { lines.append(("  " + frame, .plain)) }
            }
        }
        lines.append(("payload:", .dim))
        for line in JSONWriter.prettyString(entry.payload).split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(("  " + line, .plain))
        }
        let top = min(model.actionTop, max(0, lines.count - area.height))
        for (offset, (text, style)) in lines.dropFirst(top).prefix(area.height).enumerated() {
            screen.write(" " + text, row: area.row + offset, column: area.column, style: style, limit: area.column + area.width)
        }
    }
}

extension ValueFormatting {
    /// `850 ns`, `12.5 µs`, `3.20 ms`, `1.50 s`.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?" }
        if seconds < 1e-6 { return "\(Int((seconds * 1e9).rounded())) ns" }
        if seconds < 1e-3 { return String(format: "%.1f µs", seconds * 1e6) }
        if seconds < 1 { return String(format: "%.2f ms", seconds * 1e3) }
        return String(format: "%.2f s", seconds)
    }
}
