import Testing
import Recorder
@testable import Inspector

/// The action pane (`p`) shows the payload as a tree that folds like the state pane's.
@Suite struct ActionPaneTreeTests {
    static func checkoutTimeline() -> InMemoryTimeline {
        let payload: JSONValue = [
            "items": [["sku": "A1", "qty": 2], ["sku": "B2", "qty": 1]],
            "coupon": "SAVE10",
            "address": ["city": "Paris", "zip": "75001"],
        ]
        return InMemoryTimeline(name: "shop.jsonl", steps: [
            .init("app/launch", state: ["orders": 0], at: 0),
            .init("cart/checkout", payload, state: ["orders": 1], at: 1),
        ])
    }

    /// The action pane's column of the screen (right of the split), rows `range`.
    static func actionColumn(_ model: InspectorModel, _ range: ClosedRange<Int>) -> [String] {
        let lines = model.screenText.split(separator: "\n", omittingEmptySubsequences: false)
        return range.map { row in
            let line = lines[row]
            guard let split = line.firstIndex(of: "│") else { return "" }
            return String(line[line.index(after: split)...]).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }

    @Test func thePayloadIsATreeThatFoldsWithEnterAndArrowsAndViewsLeaves() {
        var model = InspectorFixtures.model(Self.checkoutTimeline())
        model.type("jp\t")
        #expect(model.screenText == """
             Timeline  2 entries                 ██ │ Action 2  /items
               1  +0.000s   app/launch            · │ cart/checkout
               2  +1.000s   cart/checkout {"ite… ±1 │ reducer time not recorded
                                                    │ sent by the app
                                                    │ payload:
                                                    │   ▾ items [2]
                                                    │     ▸ 0 {sku, qty}
                                                    │     ▸ 1 {sku, qty}
                                                    │     coupon: "SAVE10"
                                                    │   ▾ address {2}
                                                    │       city: "Paris"
                                                    │ Diff  1 → 2
                                                    │ @ /orders
                                                    │ - 0
                                                    │ + 1
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
             shop.jsonl  │  entry 2/2  │  state
            ? help  q quit  Tab pane  / search  v view  y copy  p action  z zoom
            """)

        model.type("j\n")                                   // Enter opens /items/0
        #expect(Self.actionColumn(model, 0...10) == [
            " Action 2  /items/0",
            " cart/checkout",
            " reducer time not recorded",
            " sent by the app",
            " payload:",
            "   ▾ items [2]",
            "     ▾ 0 {2}",
            "         sku: \"A1\"",
            "         qty: 2",
            "     ▸ 1 {sku, qty}",
            "     coupon: \"SAVE10\"",
        ])
        model.type("j\n")                                   // Enter on a leaf: the value viewer
        #expect(model.screenText.contains("/items/0/sku"))
        #expect(model.screenText.contains("│ A1"))
        model.type("\u{1b}")
        model.send(.left)                                   // ← on a leaf: its parent
        #expect(model.screenText.contains("│ Action 2  /items/0\n"))
        model.send(.left)                                   // ← on an open node closes it
        model.type("j")
        model.send(.right)                                  // → opens /items/1 ...
        model.send(.right)                                  // ... and a second → steps into it
        #expect(Self.actionColumn(model, 0...10) == [
            " Action 2  /items/1/sku",
            " cart/checkout",
            " reducer time not recorded",
            " sent by the app",
            " payload:",
            "   ▾ items [2]",
            "     ▸ 0 {sku, qty}",
            "     ▾ 1 {2}",
            "         sku: \"B2\"",
            "         qty: 1",
            "     coupon: \"SAVE10\"",
        ])
        model.type("gh")                                    // g: the first row; h closes items
        #expect(Self.actionColumn(model, 4...8) == [
            " payload:",
            "   ▸ items [2]",
            "     coupon: \"SAVE10\"",
            "   ▾ address {2}",
            "       city: \"Paris\"",
        ])
        model.type("p")                                     // back to the state pane, its own keys
        #expect(model.screenText.contains("│ State after 2"))
    }
}

extension ActionPaneTreeTests {
    @Test func theHelpSaysThePayloadIsATreeThatFolds() {
        var model = InspectorFixtures.model(columns: 100, rows: 60)
        model.type("?")
        #expect(model.screenText.contains("collapse / expand node (state, payload); on a leaf, view it"))
        #expect(model.screenText.contains("state pane: the action instead (payload tree, duration, cause) / back"))
    }
}
