import Foundation
import Testing
@testable import Recorder
import RewindJSON

@Suite struct LogReaderTests {
    @Test func rebuildsTheStateAtEveryEntry() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todos.jsonl")
        let actions = randomTodoActions(count: 400, seed: 7)
        let states = try recordTodos(actions, to: path, options: testOptions(keyframeInterval: 5))

        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 400)
        #expect(reader.isFullyIndexed)
        #expect(reader.damage.isEmpty && reader.tornTail == nil)
        #expect(reader.header.stateTypeName == "RecorderTests.TodoState")
        #expect(reader.header.initialState == (try JSONEncoding.value(of: TodoState())))
        var keyframes = 0
        for index in (0..<400).reversed() {  // backwards, so the cache does not help
            #expect(try reader.state(at: index) == (try JSONEncoding.value(of: states[index])), "entry \(index)")
            let entry = try reader.entry(at: index)
            #expect(entry.sequence == Int64(index))
            #expect(entry.action.payload == (try JSONEncoding.value(of: actions[index])))
            if entry.isKeyframe { keyframes += 1 }
            #expect(reader.isKeyframe(at: index) == entry.isKeyframe)
        }
        #expect(reader.keyframeCount == keyframes)
        #expect(reader.refresh() == .unchanged)
        #expect(keyframes >= 80)
        #expect(keyframes < 400)
    }

    @Test func entriesCarryTheActionCasePathAndChangedPaths() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todos.jsonl")
        try recordTodos([.add(title: "milk"), .toggle(id: 0), .setFilter(.done)], to: path)
        let reader = try LogReader(path: path)
        let toggle = try reader.entry(at: 1)
        #expect(toggle.action.name == "toggle")
        #expect(toggle.action.isReplayable)
        #expect(toggle.changedPaths.map(\.description) == ["/todos/0/done"])
        #expect(toggle.lineNumber == 3)
        #expect(try reader.entry(at: 2).action.name == "setFilter")
        #expect(try reader.entry(at: 0).isKeyframe)
        let changed = try reader.entry(at: 0).changedPaths.map(\.description)
        #expect(changed.sorted() == ["/nextID", "/stats/added", "/todos/-"])
    }

    @Test func aStateOutsideTheLogIsAnErrorNotATrap() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todos.jsonl")
        try recordTodos([.add(title: "milk")], to: path)
        let reader = try LogReader(path: path)
        for outside in [-1, 1] {
            #expect(throws: LogReadError.self, "entry \(outside)") { try reader.state(at: outside) }
        }
        #expect(try reader.stateBefore(0) == reader.header.initialState)
    }

    @Test func ignoresAndReportsATornTail() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("torn.jsonl")
        try recordTodos(randomTodoActions(count: 20, seed: 1), to: path)
        var bytes = fileBytes(path)
        let lastLine = bytes.dropLast().lastIndex(of: 0x0A)! + 1
        // Cut the last record in the middle, as a crash while writing would.
        bytes.removeLast((bytes.count - lastLine) / 2)
        writeBytes(bytes, to: path)

        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 19)
        #expect(reader.damage.isEmpty)
        #expect(reader.tornTail?.lineNumber == 21)
        #expect(reader.isFullyIndexed)
        _ = try reader.state(at: 18)
    }

    @Test func aFinalLineThatFailsItsChecksumIsATornTail() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("torn.jsonl")
        try recordTodos(randomTodoActions(count: 10, seed: 1), to: path)
        var bytes = fileBytes(path)
        bytes[bytes.count - 30] ^= 0x01
        writeBytes(bytes, to: path)
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 9)
        #expect(reader.tornTail != nil)
        #expect(reader.damage.isEmpty)
    }

    @Test func skipsADamagedLineAndResumesAtTheNextKeyframe() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("damaged.jsonl")
        // Ten todos, then toggles: small patches, so after the first few entries
        // (where a patch is bigger than the tiny state) keyframes come every 8 entries.
        let actions = (0..<10).map { TodoAction.add(title: "todo \($0)") } + (0..<30).map { TodoAction.toggle(id: $0 % 10) }
        var options = testOptions(keyframeInterval: 8)
        options.keyframesByCost = false
        let states = try recordTodos(actions, to: path, options: options)
        var lines = readLines(path)
        // Line 22 holds entry 20 (the header is line 1): change one character.
        lines[21] = lines[21].replacingOccurrences(of: "\"seq\":20", with: "\"seq\":21")
        writeBytes(Array(lines.joined(separator: "\n").utf8), to: path)

        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 39)
        #expect(reader.damage.map(\.lineNumber) == [22])
        #expect(reader.tornTail == nil)
        let keyframes = try (0..<39).filter { try reader.entry(at: $0).isKeyframe }.map { try reader.entry(at: $0).sequence }
        #expect(keyframes == [0, 1, 9, 17, 25, 33])
        // Entries before the damage are intact.
        for index in 0..<20 {
            #expect(try reader.state(at: index) == (try JSONEncoding.value(of: states[index])))
        }
        // Sequences 21 to 24 are patches that depend on the damaged line.
        #expect(try reader.entry(at: 20).sequence == 21)
        for index in 20..<24 {
            let error = #expect(throws: LogReadError.self) { try reader.state(at: index) }
            #expect(error?.description.contains("line 22, which is damaged") == true)
        }
        // The keyframe at sequence 25 restores reconstruction.
        for index in 24..<39 {
            #expect(try reader.state(at: index) == (try JSONEncoding.value(of: states[index + 1])))
        }
    }

    @Test func openErrorsAreOneClearLine() throws {
        let directory = TemporaryDirectory()
        func message(_ path: String) -> String {
            do {
                _ = try LogReader(path: path)
                return "opened"
            } catch {
                return error.description
            }
        }
        #expect(message(directory.file("missing.jsonl")).hasSuffix("missing.jsonl: no such file"))
        #expect(message(directory.path).hasSuffix(": is a directory, not a log file"))
        writeBytes([], to: directory.file("empty"))
        #expect(message(directory.file("empty")).hasSuffix("empty: empty file, not a Rewind log"))
        writeBytes([0x7F, 0x45, 0x4C, 0x46, 0, 1, 2, 3, 0xFF, 0x0A], to: directory.file("binary"))
        #expect(message(directory.file("binary")).hasSuffix("not a Rewind log (the first line is not a Rewind header)"))
        writeBytes(Array(#"{"kind":"other","a":1}"#.utf8) + [0x0A], to: directory.file("other.json"))
        #expect(message(directory.file("other.json")).contains("not a Rewind log"))

        var future: [UInt8] = []
        future.append(contentsOf: LogLine.headerPrefix)
        future.append(contentsOf: #","format":"rewind","version":4"#.utf8)
        LogLine.seal(&future, recordStart: 0)
        writeBytes(future, to: directory.file("future.jsonl"))
        #expect(message(directory.file("future.jsonl")).hasSuffix("written by a newer Rewind (log format version 4); this version reads format 3"))

        writeBytes(Array(#"{"kind":"header","format":"rew"#.utf8), to: directory.file("torn-header.jsonl"))
        #expect(message(directory.file("torn-header.jsonl")).contains("stopped while writing its header"))
        #expect(!message(directory.file("torn-header.jsonl")).contains("\n"))
    }

    @Test func indexesLazilyAndFollowsAGrowingLog() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("live.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording(todoReducer)
        var state = TodoState()
        for action in randomTodoActions(count: 50, seed: 5) { reducer(&state, action) }
        try recorder.flush()

        let reader = try LogReader(path: path, indexing: .lazily)
        #expect(reader.entryCount == 50)
        for action in randomTodoActions(count: 30, seed: 6) { reducer(&state, action) }
        try recorder.flush()
        #expect(reader.entryCount == 50)
        #expect(reader.refresh() == .appended(30))
        #expect(reader.entryCount == 80)
        #expect(try reader.state(at: 79) == (try JSONEncoding.value(of: state)))
        try recorder.close()
    }

    @Test func scansInSteps() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("big.jsonl")
        try recordTodos(randomTodoActions(count: 1000, seed: 9), to: path)
        let reader = try LogReader(path: path, indexing: .prefix(bytes: 16 << 10))
        #expect(!reader.isFullyIndexed)
        #expect(reader.entryCount > 0 && reader.entryCount < 1000)
        #expect(reader.indexProgress > 0 && reader.indexProgress < 1)
        _ = try reader.state(at: reader.entryCount - 1)
        var steps = 0
        while reader.indexMore(maxBytes: 16 << 10) { steps += 1 }
        #expect(steps >= 2)
        #expect(reader.isFullyIndexed)
        #expect(reader.indexProgress == 1)
        #expect(reader.entryCount == 1000)
    }

    // The background indexer scans outside the reader's lock, in pieces, while
    // the inspector reads entries: the result must be what one full scan finds.
    @Test func indexingInPiecesWhileReadingFindsWhatOneFullScanFinds() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("pieces.jsonl")
        try recordTodos(randomTodoActions(count: 300, seed: 4), to: path, options: testOptions(keyframeInterval: 8))
        var lines = readLines(path)
        lines[120] = lines[120].replacingOccurrences(of: "\"seq\":", with: "\"seq\":9")  // a damaged line
        // A gap record in place of record 200 (line 201), chained as the recorder would write it.
        let gap = sealAsRecord(Array(#"{"kind":"gap","firstSeq":200,"dropped":3"#.utf8), number: 200, ofLastSessionIn: path)
        lines[200] = String(decoding: gap.dropLast(), as: UTF8.self)
        writeBytes(Array(lines.joined(separator: "\n").utf8), to: path)
        try recordTodos(randomTodoActions(count: 200, seed: 5), to: path)  // a second session appended

        let whole = try LogReader(path: path)
        let pieces = try LogReader(path: path, indexing: .prefix(bytes: 4_096))
        let reading = Thread {
            var generator = SplitMix64(seed: 1)
            while !pieces.isFullyIndexed {
                let index = Int(generator.next() % UInt64(max(1, pieces.entryCount)))
                _ = try? pieces.entry(at: index)
                _ = try? pieces.state(at: index)
            }
        }
        reading.start()
        while pieces.indexMore(maxBytes: 3_000) {}
        #expect(pieces.entryCount == whole.entryCount)
        #expect(pieces.damage == whole.damage)
        #expect(pieces.gaps == whole.gaps)
        #expect(pieces.gaps.count == 1)
        #expect(pieces.keyframeCount == whole.keyframeCount)
        #expect(whole.entryCount == 498)
        for index in 0..<whole.entryCount {
            let (expected, found) = (try whole.entry(at: index), try pieces.entry(at: index))
            guard expected.sequence == found.sequence, expected.isKeyframe == found.isKeyframe,
                  (try? whole.state(at: index)) == (try? pieces.state(at: index)) else {
                Issue.record("entry \(index) differs")
                break
            }
        }
    }

    @Test func findsRecordMembersWithoutParsingThem() {
        let text = #"{ "kind" : "entry", "action":{"type":"a}\"]","payload":[1,{"x":"}"}]}, "n": -1.5e3 ,"state":{"a":[[]]}}"#
        let members = Array(text.utf8).withUnsafeBufferPointer { RecordScanner.members($0) }
        let found = members?.map { ($0.field, String(decoding: Array(text.utf8)[$0.value], as: UTF8.self)) }
        #expect(found?.map(\.0) == [.kind, .action, .number, .state])
        #expect(found?.map(\.1) == [#""entry""#, #"{"type":"a}\"]","payload":[1,{"x":"}"}]}"#, "-1.5e3", #"{"a":[[]]}"#])
        #expect(Array("[1]".utf8).withUnsafeBufferPointer { RecordScanner.members($0) } == nil)
        #expect(Array(#"{"a":[1"#.utf8).withUnsafeBufferPointer { RecordScanner.members($0) } == nil)
    }
}

/// What the reader says about entries names them by the numbers `rewind log` gives them,
/// on a log of today's recorder with gaps and a second session (``GappedCounter``).
@Suite struct GappedLogReadingTests {
    @Test func aStateThatCannotBeRebuiltIsNamedByItsRecordedNumber() throws {
        let log = try GappedCounter.writeLog()
        // Line 9 is entry 9, the second session's keyframe; entry 10 (line 10) is a patch to it.
        var lines = readLines(log)
        #expect(lines[8].contains(#""seq":8"#) && lines[9].contains(#""patch":"#))
        lines[8] = lines[8].replacingOccurrences(of: #""count":101"#, with: #""count":102"#)
        writeBytes(Array(lines.joined(separator: "\n").utf8), to: log)
        let reader = try LogReader(path: log)
        #expect(reader.entryCount == 5 && reader.entryNumber(at: 4) == 10)
        do {
            _ = try reader.state(at: 4)
            Issue.record("the state after entry 10 was rebuilt over a damaged line")
        } catch {
            #expect(error.description == "\(log): the state at entry 10 cannot be rebuilt: it depends on line 9, which is damaged; "
                    + "states are available again from the next keyframe")
        }
    }

    @Test func theStateBeforeASessionsFirstEntryIsTheOneThatSessionStartedFrom() throws {
        let reader = try LogReader(path: GappedCounter.writeLog())
        #expect(reader.entryNumber(at: 4) == 9 && reader.startsSession(at: 4))
        let started = try JSONEncoding.value(of: GappedCounter(count: 100, note: "opened again: a note that makes a patch smaller than the state"))
        #expect(try reader.stateBefore(4) == started, "not the first session's last state (count 8)")
        #expect(try reader.stateBefore(3)?["count"] == 6, "across a gap: the last state recorded before it")
    }

    @Test func anIndexOutOfRangeIsCalledAnIndexNotAnEntryNumber() throws {
        let log = try GappedCounter.writeLog()
        let reader = try LogReader(path: log)
        do {
            _ = try reader.entry(at: 6)
            Issue.record("no entry at index 6")
        } catch {
            #expect(error.description == "\(log): no entry at index 6 (the log has 6 at indexes 0–5)")
        }
    }
}
