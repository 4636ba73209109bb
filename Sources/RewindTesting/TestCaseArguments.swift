import Testing

/// The arguments a parameterized test case runs with, as text for its recording's
/// name and header: `count: 3, title: "gift wrap"`.
enum TestCaseArguments {
    /// Nil when the case is not parameterized or its arguments cannot be read.
    ///
    /// `Test.Case` keeps its arguments behind SPI that a released toolchain does not
    /// ship, so they are read by reflection; if that layout changes, recordings fall
    /// back to being numbered (`checkout-3`), never to failing.
    static func describe(_ testCase: Test.Case) -> String? {
        guard testCase.isParameterized,
              let kind = child("_kind", of: testCase),
              let payload = child("parameterized", of: kind),
              let arguments = child("arguments", of: payload) else { return nil }
        var parts: [String] = []
        for argument in Mirror(reflecting: arguments).children.map(\.value) {
            guard let value = child("value", of: argument) else { return nil }
            let name = child("parameter", of: argument).flatMap { child("firstName", of: $0) } as? String
            parts.append((name.map { $0 + ": " } ?? "") + text(of: value))
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// `"gift wrap"` for strings (quoted as in Swift), the description otherwise; cut to 40 characters.
    static func text(of value: Any) -> String {
        var text = value is String || value is Substring ? String(reflecting: value) : String(describing: value)
        if text.count > 40 { text = String(text.prefix(39)) + "…" }
        return text
    }

    private static func child(_ label: String, of value: Any) -> Any? {
        Mirror(reflecting: value).children.first { $0.label == label }?.value
    }
}
