/// Sample domain 2: a parent holding two cars of the same child module. The
/// primary car is routed by an action hierarchy (`.primary(.brakeTapped)`),
/// the other by a namespace value (`.car(.secondary, .accelerate(by: 10))`).
public enum GarageDomain {
    public static func reduce(_ state: inout GarageState, _ action: GarageAction) {
        switch action {
        case .primary(let carAction):
            CarDomain.reduce(&state.primary, carAction)
        case .car(let slot, let carAction):
            switch slot {
            case .primary: CarDomain.reduce(&state.primary, carAction)
            case .secondary: CarDomain.reduce(&state.secondary, carAction)
            }
        case .swapCars:
            swap(&state.primary, &state.secondary)
        }
    }

    public static let script: [GarageAction] = [
        .primary(.engine(.start)), .primary(.accelerate(by: 30)), .car(.secondary, .engine(.start)),
        .car(.secondary, .accelerate(by: 20)), .primary(.engine(.rev(rpm: 4200))), .primary(.brakeTapped),
        .car(.secondary, .accelerate(by: 25)), .swapCars, .primary(.brakeTapped), .car(.secondary, .engine(.stop)),
    ]
}

/// The child module both cars use.
public enum CarDomain {
    public static func reduce(_ state: inout Car, _ action: CarAction) {
        switch action {
        case .accelerate(let amount):
            guard state.engine.isRunning else { return }
            state.speed += amount
            state.engine.rpm = 800 + state.speed * 40
        case .brakeTapped:
            state.speed = max(0, state.speed - 15)
            state.engine.rpm = state.engine.isRunning ? 800 + state.speed * 40 : 0
        case .engine(.start):
            state.engine.isRunning = true
            state.engine.rpm = 800
        case .engine(.stop):
            state.engine.isRunning = false
            state.engine.rpm = 0
            state.speed = 0
        case .engine(.rev(let rpm)):
            guard state.engine.isRunning else { return }
            state.engine.rpm = rpm
            state.engine.temperature += 3
        }
    }
}

public struct GarageState: Codable, Equatable, Sendable {
    public var primary = Car(name: "Blue hatchback")
    public var secondary = Car(name: "Red van")
    public init() {}
}

public struct Car: Codable, Equatable, Sendable {
    public struct Engine: Codable, Equatable, Sendable {
        public var isRunning = false
        public var rpm = 0
        public var temperature = 20
    }

    public var name: String
    public var speed = 0
    public var engine = Engine()

    public init(name: String) { self.name = name }
}

public enum CarSlot: String, Codable, Sendable {
    case primary, secondary
}

public enum GarageAction: Codable, Equatable, Sendable {
    case primary(CarAction)
    case car(CarSlot, CarAction)
    case swapCars
}

public enum CarAction: Codable, Equatable, Sendable {
    case accelerate(by: Int)
    case brakeTapped
    case engine(EngineAction)
}

public enum EngineAction: Codable, Equatable, Sendable {
    case start, stop
    case rev(rpm: Int)
}
