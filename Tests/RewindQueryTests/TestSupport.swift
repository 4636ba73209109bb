// Re-exported once for every file of this target: temporary directories,
// file bytes and `LogFixture` come from the shared test-support module
// (Tests/Support), so no test file needs its own import or its own copy.
@_exported import RewindTestSupport
