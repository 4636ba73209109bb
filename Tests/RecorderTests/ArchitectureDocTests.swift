import Foundation
import Testing

/// docs/ARCHITECTURE.md cannot drift from the code: its module table is
/// `Package.swift`'s targets (kind and dependencies), and every type it names
/// is declared somewhere in `Sources/`.
@Suite struct ArchitectureDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// A module as the table states it, or as `Package.swift` declares it.
    struct Module: Equatable, CustomStringConvertible {
        var name: String
        var kind: String
        var dependencies: Set<String>
        var description: String { "\(name) (\(kind)) ← \(dependencies.sorted().joined(separator: ", "))" }
    }

    @Test func theModuleTableIsPackageSwiftsTargets() throws {
        let declared = try PackageManifest(Self.text("Package.swift"), root: Self.root).modules
        let documented = try Self.moduleTable(Self.text("docs/ARCHITECTURE.md"))
        #expect(!declared.isEmpty && !documented.isEmpty)
        let missing = declared.filter { module in !documented.contains { $0.name == module.name } }.map(\.name)
        let gone = documented.filter { module in !declared.contains { $0.name == module.name } }.map(\.name)
        #expect(missing.isEmpty, "targets of Package.swift the table leaves out: \(missing)")
        #expect(gone.isEmpty, "rows of the table Package.swift has no target for: \(gone)")
        for module in declared {
            guard let row = documented.first(where: { $0.name == module.name }) else { continue }
            #expect(row == module, "the table says \(row), Package.swift \(module)")
        }
    }

    @Test func everyTypeTheDocNamesIsDeclaredInSources() throws {
        let doc = try Self.text("docs/ARCHITECTURE.md")
        let modules = Set(try PackageManifest(Self.text("Package.swift"), root: Self.root).modules.map(\.name))
        // Test suites are named too (`CheckedSkimTests`): declared under Tests/.
        let declared = try Self.declaration(in: ["Sources", "Tests"])
        var undeclared: [String] = []
        for name in Self.namedTypes(doc) {
            var parts = name.split(separator: ".").map(String.init)
            // `Recorder.Options.trace`: a module, then the type in it.
            if parts.count > 1, modules.contains(parts[0]) { parts.removeFirst() }
            guard let type = parts.first, !modules.contains(type), !declared.folders.contains(type), !Self.standardLibrary.contains(type) else { continue }
            if !declared.types.contains(type) || (parts.count > 1 && !declared.words.contains(parts[1])) {
                undeclared.append(name)
            }
        }
        #expect(undeclared.isEmpty, "docs/ARCHITECTURE.md names what Sources/ and Tests/ do not declare: \(undeclared.sorted())")
    }

    /// Swift's own types the doc may name.
    static let standardLibrary: Set = ["Decodable", "Encodable", "Codable", "Sendable", "String", "Int", "Double", "Array", "Dictionary"]

    /// The rows of the table under "## Modules": `` `Name` (kind) | `A`, `B` or nothing | … ``.
    static func moduleTable(_ doc: String) throws -> [Module] {
        let section = try #require(doc.components(separatedBy: "## Modules").dropFirst().first?.components(separatedBy: "\n## ").first)
        return section.split(separator: "\n").compactMap { line -> Module? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let nameEnd = cells[1].range(of: "` ("), cells[1].hasPrefix("`"), cells[1].hasSuffix(")") else { return nil }
            let name = String(cells[1][cells[1].index(after: cells[1].startIndex)..<nameEnd.lowerBound])
            let kind = String(cells[1][nameEnd.upperBound..<cells[1].index(before: cells[1].endIndex)])
            let dependencies = cells[2] == "nothing" ? [] : Set(Self.backticked(cells[2]))
            return Module(name: name, kind: kind, dependencies: dependencies)
        }
    }

    /// Every `` `Name` `` or `` `Name.member(…)` `` of the doc that starts with a capital
    /// (a type, or a type's member), and the types in its diagrams: not file names,
    /// environment variables or C constants.
    static func namedTypes(_ doc: String) -> Set<String> {
        var names = Set<String>()
        let identifier = #"^_?[A-Z][A-Za-z0-9]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\(.*\))?$"#
        let fileExtensions = [".swift", ".c", ".h", ".md", ".py"]
        for quoted in backticked(doc) where quoted.range(of: identifier, options: .regularExpression) != nil
            && !fileExtensions.contains(where: quoted.hasSuffix) {
            names.insert(String(quoted.prefix { $0 != "(" }))
        }
        // The diagrams: every CamelCase word of two humps or more (`LogWriter`, `_ByteDiff`).
        for (index, block) in doc.components(separatedBy: "```").enumerated() where index % 2 == 1 {
            let words = block.components(separatedBy: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_.")).inverted)
            for word in words where word.range(of: #"^_?[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*(\.[A-Za-z_][A-Za-z0-9_]*)?$"#, options: .regularExpression) != nil {
                names.insert(word)
            }
        }
        return names
    }

    static func backticked(_ text: String) -> [String] {
        text.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }

    /// What the Swift files under `directories` declare: type names (`struct`, `enum`,
    /// `class`, `protocol`, `actor`, `typealias`), every identifier (for a member), and
    /// the folders under each module (`Model/`, which the doc names as `Model`).
    static func declaration(in directories: [String]) throws -> (types: Set<String>, words: Set<String>, folders: Set<String>) {
        var types = Set<String>(), words = Set<String>(), folders = Set<String>()
        let typeDeclaration = try NSRegularExpression(pattern: #"\b(?:struct|enum|class|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
        for directory in directories {
            let top = root.appendingPathComponent(directory)
            let files = FileManager.default.enumerator(at: top, includingPropertiesForKeys: [.isDirectoryKey])?.compactMap { $0 as? URL } ?? []
            for file in files {
                if (try? file.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                    folders.insert(file.lastPathComponent)
                    continue
                }
                guard file.pathExtension == "swift" else { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in typeDeclaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    if let range = Range(match.range(at: 1), in: text) { types.insert(String(text[range])) }
                }
                words.formUnion(text.components(separatedBy: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_")).inverted))
            }
        }
        return (types, words, folders)
    }
}

/// The targets of `Package.swift` as the module table describes them: a library
/// product's target is a `library`, a target of C sources `C`, a system library
/// `system library`, an executable `executable`, any other `target`; test targets are left out.
struct PackageManifest {
    var modules: [ArchitectureDocTests.Module] = []

    init(_ manifest: String, root: URL) throws {
        let libraries = Set(Self.calls(".library(", in: manifest).flatMap { call in
            call.range(of: "targets:").map { ArchitectureDocTests.quoted(String(call[$0.upperBound...])) } ?? []
        })
        for (call, declaration) in [(".target(", "target"), (".systemLibrary(", "system library"), (".executableTarget(", "executable")] {
            for arguments in Self.calls(call, in: manifest) {
                let name = try #require(ArchitectureDocTests.quoted(arguments).first)
                var dependencies: Set<String> = []
                if let list = arguments.range(of: "dependencies: [") {
                    let rest = arguments[list.upperBound...]
                    dependencies = Set(ArchitectureDocTests.quoted(String(rest.prefix { $0 != "]" })))
                }
                var kind = declaration
                if declaration == "target" {
                    if libraries.contains(name) {
                        kind = "library"
                    } else if Self.holdsC(root.appendingPathComponent("Sources/\(name)")) {
                        kind = "C"
                    }
                }
                modules.append(.init(name: name, kind: kind, dependencies: dependencies))
            }
        }
    }

    /// The argument text of every call to `function` (up to its matching parenthesis).
    static func calls(_ function: String, in text: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let start = rest.range(of: function) {
            var depth = 1
            var end = start.upperBound
            while end < rest.endIndex, depth > 0 {
                if rest[end] == "(" { depth += 1 } else if rest[end] == ")" { depth -= 1 }
                end = rest.index(after: end)
            }
            found.append(String(rest[start.upperBound..<end]))
            rest = rest[end...]
        }
        return found
    }

    static func holdsC(_ directory: URL) -> Bool {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.contains { $0.pathExtension == "c" }
    }
}

extension ArchitectureDocTests {
    /// The string literals in `text`.
    static func quoted(_ text: String) -> [String] {
        text.components(separatedBy: "\"").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }
}
