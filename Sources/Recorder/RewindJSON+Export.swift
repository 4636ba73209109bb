// Apps write `import Recorder` and get the JSON values, diffs and patches that
// the log and replay APIs hand out; RewindJSON is a module of its own so the
// engine has no dependencies and its internals are `package`, not public.
@_exported import RewindJSON
