/// A growable stack in one manually managed allocation, for the streaming
/// encoder's per-value bookkeeping (open containers, coding-path keys). A
/// push or pop is a bounds check and a store: no array uniqueness checks and
/// no generic value-witness calls, which showed up at every nested value.
/// Noncopyable, so exactly one owner frees it.
package struct _UnsafeStack<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    package private(set) var count = 0
    private var capacity: Int

    package init(capacity: Int = 16) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    package var isEmpty: Bool { count == 0 }

    /// The elements, bottom first, as an array (for the rare reader, such as `codingPath`).
    var elements: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The top element's address, for callers that know the stack is not empty.
    @inline(__always) var unsafeTop: UnsafeMutablePointer<Element> { base + count - 1 }

    @inline(__always) package mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Pushes `elements` (of a trivial type: they are copied bit by bit), bottom first.
    mutating func append(bitwise elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        while count + elements.count > capacity { grow() }
        (base + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    @inline(__always) @discardableResult mutating func pop() -> Element {
        precondition(count > 0, "pop from an empty stack")
        count -= 1
        return (base + count).move()
    }

    /// The address of element `index`, for callers that know it is in range.
    @inline(__always) func address(_ index: Int) -> UnsafeMutablePointer<Element> { base + index }

    /// The elements in place, valid until the next push or removal.
    package var unsafeElements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    /// Empties the stack, keeping its allocation.
    package mutating func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    func lastIndex(where matches: (Element) -> Bool) -> Int? {
        var index = count - 1
        while index >= 0 {
            if matches(base[index]) { return index }
            index -= 1
        }
        return nil
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}
