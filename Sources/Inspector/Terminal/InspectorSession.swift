import Foundation

/// Runs the inspector: draw, wait for an event (or a tick, so indexing
/// progress and follow mode show up), reduce, do the effects, repeat.
enum InspectorSession {
    static let tickMilliseconds = 100

    /// Runs until the user quits. Returns the exit status.
    static func run(source: any TimelineSource, terminal: inout some TerminalDevice) -> Int32 {
        var model = InspectorModel(source: source, size: terminal.size)
        return run(model: &model, terminal: &terminal)
    }

    /// Runs `model` until the user quits (tests set up the model first).
    static func run(model: inout InspectorModel, terminal: inout some TerminalDevice) -> Int32 {
        var shown: ScreenBuffer?
        while true {
            let screen = render(model, size: model.size)
            if screen != shown {
                terminal.draw(screen)
                shown = screen
            }
            // A scan in progress takes its next slice as soon as no key is waiting.
            let event = terminal.nextEvent(timeoutMilliseconds: model.hasPendingScan ? 0 : tickMilliseconds) ?? .tick
            for effect in reduce(&model, event) {
                switch effect {
                case .quit:
                    terminal.stop()
                    return 0
                case .exportDiff(let markdown, let suggestedName):
                    do {
                        let path = try ExportFile.write(markdown, suggestedName: suggestedName)
                        reduce(&model, .exportFinished(path: path))
                    } catch {
                        reduce(&model, .exportFailed(reason: "\(error)"))
                    }
                }
            }
        }
    }
}

/// Writes an export next to where the user started `rewind`, never over an existing file.
enum ExportFile {
    static func write(_ text: String, suggestedName: String, directory: String = FileManager.default.currentDirectoryPath) throws -> String {
        let base = (suggestedName as NSString).deletingPathExtension
        let ext = (suggestedName as NSString).pathExtension
        var candidate = (directory as NSString).appendingPathComponent(suggestedName)
        var attempt = 2
        while OutputFile.nameIsTaken(candidate) {
            candidate = (directory as NSString).appendingPathComponent("\(base)-\(attempt).\(ext)")
            attempt += 1
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: candidate), options: .withoutOverwriting)
        return candidate
    }
}
