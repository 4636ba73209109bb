/// How far a walk through nested containers has come, from where it is alone: each level
/// counts the elements done of its container, and an element counts for its share of the
/// level above. A walk that writes a huge value (a 30 MB state printed, its diff) reports
/// this as its progress without knowing the value's size first.
///
/// ```swift
/// var progress = NestedProgress()
/// progress.enter(count: 2); progress.advance()   // one of two members done
/// progress.enter(count: 10)                      // inside the second: a 10-element array
/// progress.fraction                              // 0.5
/// ```
package struct NestedProgress {
    private var levels: [(done: Int, count: Int)] = []

    package init() {}

    /// The walk goes into a container of `count` elements.
    package mutating func enter(count: Int) { levels.append((0, count)) }

    /// One more element of the innermost container is done.
    package mutating func advance() {
        if !levels.isEmpty { levels[levels.count - 1].done += 1 }
    }

    /// The walk leaves the innermost container.
    package mutating func leave() {
        if !levels.isEmpty { levels.removeLast() }
    }

    /// 0 at the start, 1 when every element of the outermost container is done.
    package var fraction: Double {
        var fraction = 0.0
        var share = 1.0
        for level in levels where level.count > 0 {
            share /= Double(level.count)
            fraction += Double(level.done) * share
        }
        return min(1, fraction)
    }
}
