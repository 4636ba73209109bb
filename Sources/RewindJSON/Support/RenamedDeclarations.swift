// Names replaced so the public API says what each thing is (issue 33). Each stays one
// release, so code written against it still builds, with a warning naming the new one;
// delete this file in the release after (`RenamedDeclarationTests` uses every one).

extension JSONEncoding {
    /// Compact UTF-8 JSON of `value`, now ``compact(_:)`` (as ``JSONWriter/compact(_:)`` names it).
    @available(*, deprecated, renamed: "compact(_:)")
    public static func bytes<T: Encodable>(of value: T) throws -> [UInt8] { try compact(value) }
}
