import Recorder

extension TimelineSource {
    /// The state before entry `index` (``stateBefore(_:)``) as a ``JSONNode``: the previous
    /// entry's ``stateNode(at:)``, read a node at a time, wherever that is what `stateBefore`
    /// gives; at a session's start, after a gap or in a replay (whose branch follows its fork),
    /// `stateBefore`'s own answer.
    func stateNodeBefore(_ index: Int) -> JSONNode? {
        if index > 0, replayTimeline == nil, !startsNewSession(at: index), session(at: index - 1) == nil, gap(at: index - 1) == nil {
            return try? stateNode(at: index - 1)
        }
        return stateBefore(index).map(JSONNode.init)
    }
}
