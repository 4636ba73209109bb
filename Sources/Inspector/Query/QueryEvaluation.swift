import Recorder

// What each condition means (docs/QUERIES.md): a path that does not exist
// makes every comparison false except `!=`; `<` and friends compare numbers
// with numbers and strings with strings, anything else is false.
extension QueryNode {
    func evaluate(_ input: QueryInput) -> Bool {
        switch self {
        case .and(let a, let b): return a.evaluate(input) && b.evaluate(input)
        case .or(let a, let b): return a.evaluate(input) || b.evaluate(input)
        case .not(let a): return !a.evaluate(input)
        case .exists(let path): return input.value(at: path) != nil
        case .changed(let path):
            // No state before (the first entry of a log without an initial state, or damage): nothing to compare.
            guard let previous = input.previousState else { return false }
            return input.value(at: path) != previous[pointer: path]
        case .action(let name, let negated):
            return Self.action(input.actionType, matches: name) != negated
        case .contains(let container, let element):
            guard let container = container.value(in: input), let element = element.value(in: input) else { return false }
            return Self.contains(container, element)
        case .compare(let left, let comparison, let right):
            return Self.compare(left.value(in: input), comparison, right.value(in: input))
        }
    }

    /// `action == name`: the type itself, or one starting with what comes before a final `*`.
    static func action(_ type: String, matches name: String) -> Bool {
        name.hasSuffix("*") ? type.hasPrefix(name.dropLast()) : type == name
    }

    /// `contains`: an array holding the element, a string holding the text, an object with the key.
    static func contains(_ container: JSONValue, _ element: JSONValue) -> Bool {
        switch (container, element) {
        case (.array(let elements), _): return elements.contains(element)
        case (.string(let text), .string(let part)): return text.contains(part)
        case (.object(let object), .string(let key)): return object[key] != nil
        default: return false
        }
    }

    /// A comparison of two operands' values (nil: absent).
    static func compare(_ a: JSONValue?, _ comparison: QueryComparison, _ b: JSONValue?) -> Bool {
        switch comparison {
        case .equal: return a != nil && a == b
        case .notEqual: return a != b
        default:
            guard let a, let b, let order = Self.order(a, b) else { return false }
            switch comparison {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    /// -1, 0 or 1 for two numbers or two strings; nil for anything else.
    private static func order(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.string(let x), .string(let y)): return x < y ? -1 : x == y ? 0 : 1
        default:
            guard let x = a.doubleValue, let y = b.doubleValue else { return nil }
            return x < y ? -1 : x == y ? 0 : 1
        }
    }
}

extension QueryOperand {
    /// The operand's value for this entry; nil for a path that is absent (or a length of something without one).
    func value(in input: QueryInput) -> JSONValue? {
        switch self {
        case .literal(let value): return value
        case .path(let path): return input.value(at: path)
        case .length(let path): return Self.length(of: input.value(at: path))
        }
    }

    /// `length`: elements of an array, members of an object, characters of a string; nil for anything else.
    static func length(of value: JSONValue?) -> JSONValue? {
        switch value {
        case .array(let elements): return .integer(Int64(elements.count))
        case .object(let object): return .integer(Int64(object.count))
        case .string(let text): return .integer(Int64(text.count))
        default: return nil
        }
    }
}
