/// A deterministic domain: the state after step `n` depends only on `n`, so
/// the verifier can compute what every recorded entry must hold.
struct CrashState: Codable, Equatable {
    var counter = 0
    var items: [Int] = []
    var label = ""
    var padding = String(repeating: "x", count: 400)
}

enum CrashAction: Codable, Equatable {
    case step(Int)
}

/// Steps of session `s` are numbered from `s * stepsPerSession`, so every
/// entry says which kill it belongs to; the state depends only on the step
/// within the session.
let stepsPerSession = 1_000_000

func crashReducer(_ state: inout CrashState, _ action: CrashAction) {
    guard case .step(let step) = action else { return }
    let n = step % stepsPerSession
    state.counter += 1
    if n % 3 == 0 {
        state.items.append(n)
    } else if n % 5 == 0, !state.items.isEmpty {
        state.items.removeFirst()
    }
    state.label = "step \(n)"
}

/// The state after the entry with sequence number `sequence` of a session.
struct ExpectedStates {
    private var states: [CrashState] = []

    mutating func state(afterSequence sequence: Int) -> CrashState {
        while states.count <= sequence {
            var next = states.last ?? CrashState()
            crashReducer(&next, .step(states.count))
            states.append(next)
        }
        return states[sequence]
    }
}
