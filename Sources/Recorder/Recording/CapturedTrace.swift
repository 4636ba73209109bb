/// Where an action was dispatched, as the caller's thread hands it over: the
/// call site given by the reference `Store` (RewindStore) and the manual API, and the call
/// stack when `Options.trace` is on. Written as the entry's `trace` member.
struct CapturedTrace {
    var fileID: StaticString?
    var line: UInt
    var stack: CallStack?

    init(fileID: StaticString? = nil, line: UInt = 0, stack: CallStack? = nil) {
        self.fileID = fileID
        self.line = line
        self.stack = stack
    }

    /// The trace for one dispatch, or nil when there is nothing to say.
    static func make(fileID: StaticString?, line: UInt, stack: Bool) -> CapturedTrace? {
        guard fileID != nil || stack else { return nil }
        return CapturedTrace(fileID: fileID, line: line, stack: stack ? CallStack.capture() : nil)
    }
}
