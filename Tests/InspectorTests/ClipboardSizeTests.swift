import Testing
import Recorder
@testable import Inspector

/// `y` on a state node: what is too big for the terminal's clipboard is found from the
/// node, a child at a time, before any text is written.
@Suite struct ClipboardSizeTests {
    /// Strings whose keys and text cost exactly the clipboard's limit as `y` counts them:
    /// 4 per node and its key, plus a string's bytes.
    private static func strings(costing cost: Int) -> JSONValue {
        let each = 100
        var elements = Array(repeating: JSONValue.string(String(repeating: "s", count: each - 4)), count: cost / each)
        if cost % each > 0 { elements.append(.string(String(repeating: "s", count: cost % each - 4))) }
        return .array(elements)
    }

    @Test func aNodeIsTooBigOnceItsKeysAndScalarsPassTheLimit() {
        let limit = InspectorModel.clipboardLimit
        #expect(!InspectorModel.exceedsClipboard(JSONNode(Self.strings(costing: limit))))
        #expect(InspectorModel.exceedsClipboard(JSONNode(Self.strings(costing: limit + 5))))
        // Inside an object: the member `k` costs 4 and its key, its list 4, the list's elements theirs.
        #expect(!InspectorModel.exceedsClipboard(JSONNode(["k": Self.strings(costing: limit - 9)])))
        #expect(InspectorModel.exceedsClipboard(JSONNode(["k": Self.strings(costing: limit - 4)])))
        // A scalar alone has no descendants: `y` tries it and says its exact size.
        #expect(!InspectorModel.exceedsClipboard(JSONNode(.string(String(repeating: "s", count: 2 * limit)))))
    }

    @Test func yOnANodeTooBigForTheClipboardSaysHowToGetItInstead() {
        let state: JSONValue = ["big": Self.strings(costing: InspectorModel.clipboardLimit * 2), "small": ["a": 1]]
        let timeline = InMemoryTimeline(steps: [.init("load", state: state)])
        var model = InspectorFixtures.model(timeline)
        model.type("\t")
        #expect(model.cursorRow?.path.description == "/big")
        #expect(model.send(.character("y")) == [])
        #expect(model.overlays.message == "The value at /big is too big for the terminal's clipboard: v shows it, rewind show LOG --at 1 --path /big prints it")
        model.type("jy")
        #expect(model.overlays.message == "Sent the value at /small (7 bytes) to the terminal's clipboard")
    }
}
