import RewindTestSupport
import Testing

/// The test helper that holds background work back must never hang a run.
@Suite struct GateTests {
    @Test func aGateNobodyOpensLetsItsWaiterGoAfterItsTimeout() async {
        let gate = Gate(timeout: 0.05)
        await gate.passed()  // returns: the gate opened by itself
        await gate.passed()  // and stays open
    }

    @Test func anOpenedGateLetsEveryWaiterThrough() async {
        let gate = Gate()
        async let first: Void = gate.passed()
        gate.open()
        await first
        await gate.passed()
    }
}
