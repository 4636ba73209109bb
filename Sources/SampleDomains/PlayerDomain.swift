/// Sample domain 4: state and actions that are not `Codable` (a closure, an
/// error, a class), so the recorder dumps them through reflection and marks
/// them as not replayable.
public enum PlayerDomain {
    public static func reduce(_ state: inout PlayerState, _ action: PlayerAction) {
        switch action {
        case .load(let track):
            state.track = track
            state.position = 0
            state.lastError = nil
        case .play:
            state.isPlaying = state.track != nil
        case .pause:
            state.isPlaying = false
        case .seek(let seconds):
            state.position = seconds
        case .failed(let error):
            state.isPlaying = false
            state.lastError = error
        case .onFinish(let callback):
            state.onFinish = callback
        }
    }

    public static var script: [PlayerAction] {
        [
            .load(Track(title: "Blue in Green", seconds: 337)), .play, .seek(120), .pause,
            .onFinish(Callback(name: "advanceQueue") {}), .play, .failed(PlayerError.networkLost(code: -1009)),
        ]
    }
}

public struct PlayerState: Sendable {
    public var track: Track?
    public var isPlaying = false
    public var position = 0
    public var lastError: PlayerError?
    public var onFinish: Callback?
    public init() {}
}

/// A class: recorded through reflection.
public final class Track: Sendable {
    public let title: String
    public let seconds: Int
    public init(title: String, seconds: Int) {
        self.title = title
        self.seconds = seconds
    }
}

public enum PlayerError: Error, Sendable {
    case networkLost(code: Int)
    case unsupportedFormat
}

/// A named closure (closures cannot be Codable).
public struct Callback: Sendable {
    public var name: String
    public var run: @Sendable () -> Void
    public init(name: String, run: @escaping @Sendable () -> Void) {
        self.name = name
        self.run = run
    }
}

public enum PlayerAction: Sendable {
    case load(Track)
    case play, pause
    case seek(Int)
    case failed(PlayerError)
    case onFinish(Callback)
}
