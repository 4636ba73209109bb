enum TailCommand {
    static func run(_ arguments: [String], streams: inout some TextStreams) -> Int32 { 2 }
}
