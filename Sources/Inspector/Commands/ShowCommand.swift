import Recorder

/// `rewind show <log> [--at N] [--path /pointer]`: the state after entry N
/// (default: the last; 0 is the state before the first entry) as pretty JSON.
enum ShowCommand: CommandRunner {
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        var pointer = JSONPointer()
        if let text = invocation["--path"] {
            do {
                pointer = try JSONPointer(parsing: text)
            } catch {
                return invocation.fail(error.description, streams: &streams)
            }
        }
        guard let timeline = CommandSupport.openLog(invocation.positional[0], program: invocation.program.name, streams: &streams) else { return 2 }
        let lastNumber = timeline.count > 0 ? timeline.entryNumber(at: timeline.count - 1) : 0
        var number = lastNumber
        var index = timeline.count - 1
        if let text = invocation["--at"] {
            guard let value = Int(text), value >= 0, value <= lastNumber else {
                let entries = timeline.count == 0 ? "has no entries" : "has entries 1–\(lastNumber)"
                streams.error("\(invocation.displayName): no entry \(text.escapingControlCharacters) (\(timeline.name) \(entries))")
                return 2
            }
            number = value
            if value > 0 {
                switch timeline.lookUp(entryNumber: value) {
                case .row(let row): index = row
                case .notRecorded(let gap, _):
                    let first = timeline.numberedGaps.first { $0.gap == gap }?.firstNumber ?? value
                    streams.error("\(invocation.displayName): " + GapDescription.sentence(numbered: first, gap: gap, of: timeline.name))
                    return 2
                case .damaged(let record):
                    streams.error("\(invocation.displayName): entry \(value) of \(timeline.name) is a damaged record (line \(record.line): \(record.reason))")
                    return 2
                case .pastTheEnd:
                    streams.error("\(invocation.displayName): no entry \(value) (\(timeline.name) has entries 1–\(lastNumber))")
                    return 2
                }
            }
        }
        let state: JSONValue
        if number == 0 {
            guard let initial = timeline.initialState else {
                let entries = timeline.count == 0 ? " and no entries" : " (entries are 1–\(lastNumber))"
                streams.error("\(invocation.displayName): \(timeline.name) has no initial state" + entries)
                return 2
            }
            state = initial
        } else {
            do {
                state = try timeline.state(at: index)
            } catch {
                streams.error("\(invocation.displayName): the state after entry \(number) of \(timeline.name) cannot be rebuilt: \(StateUnavailable.reason(of: error))")
                return 2
            }
        }
        guard let value = state[pointer: pointer] else {
            streams.error("\(invocation.displayName): \(pointer) does not exist in the state after entry \(number)")
            return 2
        }
        streams.output(JSONWriter.prettyString(value))
        return 0
    }
}
