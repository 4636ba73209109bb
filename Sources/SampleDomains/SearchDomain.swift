/// Sample domain 3: a search screen whose effect delivers results later.
///
/// The reducer returns the actions its effect will send (`[SearchAction]`);
/// a store dispatches them asynchronously, after the action that started them.
public enum SearchDomain {
    public static func reduce(_ state: inout SearchState, _ action: SearchAction) -> [SearchAction] {
        switch action {
        case .queryChanged(let query):
            state.query = query
            guard !query.isEmpty else {
                state.isLoading = false
                state.results = []
                return []
            }
            state.isLoading = true
            state.requestCount += 1
            // The effect: a search that answers later with the request it answers.
            return [.resultsLoaded(request: state.requestCount, results: catalog.filter { $0.title.lowercased().contains(query.lowercased()) })]
        case .resultsLoaded(let request, let results):
            // A late answer to an older request is ignored.
            guard request == state.requestCount else { return [] }
            state.isLoading = false
            state.results = results
        case .resultTapped(let id):
            state.selectedID = id
        }
        return []
    }

    /// What the user does; effects' answers come in between.
    public static let script: [SearchAction] = [
        .queryChanged("s"), .queryChanged("sw"), .queryChanged("swi"), .resultTapped(id: 3),
        .queryChanged("ru"), .queryChanged(""), .queryChanged("go"), .resultTapped(id: 5),
    ]

    static let catalog: [SearchResult] = [
        SearchResult(id: 1, title: "Swift Concurrency", score: 0.93),
        SearchResult(id: 2, title: "Rust ownership", score: 0.81),
        SearchResult(id: 3, title: "SwiftUI layout", score: 0.88),
        SearchResult(id: 4, title: "Swiss cheese", score: 0.42),
        SearchResult(id: 5, title: "Go channels", score: 0.77),
        SearchResult(id: 6, title: "Ruby blocks", score: 0.65),
    ]
}

public struct SearchState: Codable, Equatable, Sendable {
    public var query = ""
    public var isLoading = false
    public var results: [SearchResult] = []
    public var requestCount = 0
    public var selectedID: Int?
    public init() {}
}

public struct SearchResult: Codable, Equatable, Sendable {
    public var id: Int
    public var title: String
    public var score: Double
}

public enum SearchAction: Codable, Equatable, Sendable {
    case queryChanged(String)
    case resultsLoaded(request: Int, results: [SearchResult])
    case resultTapped(id: Int)
}
