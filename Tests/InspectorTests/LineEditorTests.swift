import Testing
@testable import Inspector

/// The prompts' line editor (`/`, `:`, the action editor).
@Suite struct LineEditorTests {
    private func edited(_ start: String, _ keys: [Key]) -> LineEditor {
        var editor = LineEditor(start)
        for key in keys { _ = editor.handle(key) }
        return editor
    }

    @Test func movesAndInsertsAnywhere() {
        #expect(edited("helo", [.left, .character("l")]).text == "hello")
        #expect(edited("ello", [.home, .character("h")]).text == "hello")
        #expect(edited("hell", [.home, .end, .character("o")]).text == "hello")
        #expect(edited("ello", [.control("a"), .character("h"), .control("e"), .character("!")]).text == "hello!")
        #expect(edited("abc", [.left, .left, .left, .left, .right, .character("X")]).text == "aXbc")
    }

    @Test func deletesCharactersWordsAndToEitherEnd() {
        #expect(edited("abc", [.backspace]).text == "ab")
        #expect(edited("abc", [.home, .delete]).text == "bc")
        #expect(edited("", [.backspace, .backspace]).text == "")        // nothing to delete: nothing happens
        #expect(edited("one two three", [.control("w")]).text == "one two ")
        #expect(edited("one two  ", [.control("w")]).text == "one ")
        #expect(edited("hello world", [.left, .left, .left, .left, .left, .control("u")]).text == "world")
        #expect(edited("hello world", [.left, .left, .left, .left, .left, .control("k")]).text == "hello ")
    }

    @Test func theSearchPromptKeepsAHistoryForUpAndDown() {
        var model = InspectorFixtures.model()
        model.type("/todo\n/filter\n/")
        model.send(.up)
        #expect(model.overlays.prompt?.text == "filter")
        model.send(.up)
        #expect(model.overlays.prompt?.text == "todo")
        model.send(.up)
        #expect(model.overlays.prompt?.text == "todo")               // the oldest stays
        model.send(.down)
        #expect(model.overlays.prompt?.text == "filter")
        model.send(.down)
        #expect(model.overlays.prompt?.text == "")                   // back to the line being typed
        #expect(model.screenText.hasSuffix("/█"))
        model.type("ab")
        model.send(.left)
        #expect(model.screenText.hasSuffix("/ab"))          // the cursor is on the b, drawn reversed
        #expect(render(model, size: model.size)[23, 2].style.reverse)
    }
}
