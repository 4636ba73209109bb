extension LogSession {
    /// Where the session starts, as every listing says it (`rewind log`, the timeline,
    /// failure reports): `new recording session 2026-12-05T14:02:11Z, MyApp`.
    package var startDescription: String {
        guard let header else { return "new recording session (its header cannot be read)" }
        return "new recording session " + DatePaths.iso8601(header.created) + (header.processName.isEmpty ? "" : ", " + header.processName)
    }
}
