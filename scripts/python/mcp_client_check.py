"""The official MCP Python SDK as a real client of `rewind mcp` over stdio.

Run by scripts/python-clients (which makes the virtual environment):

    python mcp_client_check.py path/to/rewind path/to/sample-logs

Connects both ways the SDK can (mode "auto": the 2026-07-28 server/discover probe; mode
"legacy": the initialize handshake), lists the tools, calls each on the sample logs and
checks the answers against what `rewind show`, `rewind find` and the other commands print.
Then the bad input: an unknown tool, bad arguments, a path outside the directories, a
damaged log and a huge one (its result cut at max_bytes, the rest readable with offset).
Prints "N passed, 0 failed" and exits 0, or names each failure and exits 1.
"""

import asyncio
import json
import os
import shutil
import tempfile

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from checks import Checks, arguments, damaged_copy, run

REWIND, SAMPLES = arguments()
TOOLS = ["list_recordings", "stats", "log", "show_state", "diff", "find", "bisect", "blame", "testgen"]
check = Checks("mcp client")


def rewind(*arguments):
    return run(REWIND, *arguments)


def text(result):
    return "".join(block.text for block in result.content if block.type == "text")


def make_workspace():
    """A folder the server reads: the sample logs, a damaged copy and a link leading out of it."""
    folder = tempfile.mkdtemp(prefix="rewind-mcp-check-")
    shutil.copytree(SAMPLES, os.path.join(folder, "logs"))
    todos = os.path.join(folder, "logs", "todos.jsonl")
    damaged_copy(todos, folder)
    outside = tempfile.mkdtemp(prefix="rewind-mcp-outside-")
    shutil.copy(todos, os.path.join(outside, "secret.jsonl"))
    os.symlink(os.path.join(outside, "secret.jsonl"), os.path.join(folder, "link.jsonl"))
    return folder, outside


async def exercise(mode, folder, outside):
    todos = os.path.join(folder, "logs", "todos.jsonl")
    parameters = StdioServerParameters(command=REWIND, args=["mcp", folder], cwd=folder)
    async with Client(parameters, mode=mode) as client:
        expected_version = "2026-07-28" if mode == "auto" else "2025-11-25"
        check(client.protocol_version == expected_version, f"{mode}: protocol {client.protocol_version}")
        check(client.server_info is not None and client.server_info.name == "rewind", f"{mode}: server info")
        check(client.server_capabilities.tools is not None, f"{mode}: tools capability")

        tools = (await client.list_tools()).tools
        check(sorted(tool.name for tool in tools) == sorted(TOOLS), f"{mode}: tools listed {[t.name for t in tools]}")
        for tool in tools:
            check(tool.input_schema.get("type") == "object" and tool.input_schema.get("additionalProperties") is False,
                  f"{mode}: {tool.name} input schema")
            check(tool.annotations is not None and tool.annotations.read_only_hint is True, f"{mode}: {tool.name} read-only")

        # list_recordings: every sample log, as rewind ls lists them.
        listed = await client.call_tool("list_recordings", {})
        paths = sorted(r["relativePath"] for r in listed.structured_content["recordings"])
        ls = json.loads(rewind("ls", "--format", "json", folder)[0])
        check(not listed.is_error and paths == sorted(r["relativePath"] for r in ls["recordings"]), f"{mode}: list_recordings {paths}")

        # show_state: the same JSON as rewind show, whole and at a path.
        for entry in [0, 3, 9]:
            shown = await client.call_tool("show_state", {"recording": todos, "entry": entry})
            out, _ = rewind("show", todos, "--at", str(entry))
            check(shown.structured_content["value"] == json.loads(out), f"{mode}: show_state entry {entry}")
            check(text(shown).strip() == out.strip(), f"{mode}: show_state text entry {entry}")
        part = await client.call_tool("show_state", {"recording": todos, "path": "/stats"})
        check(part.structured_content["value"] == json.loads(rewind("show", todos, "--path", "/stats")[0]), f"{mode}: show_state path")

        # find: the entries rewind find lists, for one log and for a directory.
        for query in ["/todos length > 2", "/stats/done >= 1", "action == toggle", "/filter == \"nothing\""]:
            found = await client.call_tool("find", {"target": todos, "query": query})
            out, status = rewind("find", todos, query)
            numbers = [int(line.split()[0]) for line in out.splitlines() if line.strip()[:1].isdigit()]
            check([m["entry"] for m in found.structured_content["matches"]] == numbers, f"{mode}: find {query!r} entries")
            check(found.structured_content["matched"] == (status == 0), f"{mode}: find {query!r} matched")
        across = await client.call_tool("find", {"target": os.path.join(folder, "logs"), "query": "/todos length > 3", "first": True})
        check(sorted(m["recording"] for m in across.structured_content["matches"]) ==
              sorted(os.path.join(folder, "logs", name) for name in ["todos.jsonl", "todos-format1.jsonl", "todos-format2.jsonl"]),
              f"{mode}: find across a directory {across.structured_content['matches']}")

        # log, stats, diff, bisect, blame, testgen.
        log = await client.call_tool("log", {"recording": todos, "from": 2, "to": 4})
        check(text(log).strip() == rewind("log", todos, "--from", "2", "--to", "4")[0].strip(), f"{mode}: log range")
        check(log.structured_content["entries"] == [2, 3, 4], f"{mode}: log entries")
        stats = await client.call_tool("stats", {"recording": todos})
        expected_stats = json.loads(rewind("stats", todos, "--format", "json")[0])
        check(stats.structured_content["entries"] == expected_stats["entries"]
              and stats.structured_content["actionsByType"] == expected_stats["actionsByType"], f"{mode}: stats")
        patch = await client.call_tool("diff", {"recording": todos, "from": 4, "to": 5, "format": "patch"})
        exported = json.loads(rewind("export", todos, "--from", "5", "--to", "5", "--format", "patch")[0])
        check(patch.structured_content["patch"] == exported, f"{mode}: diff as a patch")
        tree = await client.call_tool("diff", {"recording": todos, "from": 4, "to": 5})
        check("isDone" in text(tree) and not tree.is_error, f"{mode}: diff as a tree")
        bisect = await client.call_tool("bisect", {"recording": todos, "invariant": "/stats/done == 0"})
        out, status = rewind("bisect", todos, "/stats/done == 0")
        check(status == 1 and bisect.structured_content["brokenAt"] == int(out.split(" stops holding at entry ")[1].split()[0]),
              f"{mode}: bisect")
        blame = await client.call_tool("blame", {"recording": todos, "path": "/filter"})
        check(text(blame).strip() == rewind("blame", todos, "/filter")[0].strip(), f"{mode}: blame")
        before = sorted(os.listdir(folder))
        test = await client.call_tool("testgen", {"recording": todos, "from": 2, "to": 4, "reducer": "TodoDomain.reduce"})
        fixture = await client.call_tool("testgen", {"recording": todos, "from": 2, "to": 4, "part": "fixture"})
        check("TodoDomain.reduce" in text(test) and test.structured_content["steps"] == 3, f"{mode}: testgen source")
        check(len(text(fixture).strip().splitlines()) == 4, f"{mode}: testgen fixture (header and three entries)")
        check(sorted(os.listdir(folder)) == before, f"{mode}: testgen wrote nothing")

        # Bad input: protocol errors for calls that are wrong in themselves...
        for name, arguments, expected in [
            ("no_such_tool", {}, "Unknown tool"),
            ("show_state", {}, "recording"),
            ("show_state", {"recording": todos, "entry": "three"}, "entry"),
            ("show_state", {"recording": todos, "bogus": 1}, "bogus"),
        ]:
            try:
                await client.call_tool(name, arguments)
                check(False, f"{mode}: {name} {arguments} should be a JSON-RPC error")
            except MCPError as error:
                check(error.error.code == -32602 and expected in error.error.message, f"{mode}: {name} {arguments}: {error.error.message}")
        # ...and tool errors (isError) for what the tool could not do.
        for arguments, expected in [
            ({"recording": os.path.join(outside, "secret.jsonl")}, "outside"),
            ({"recording": os.path.join(folder, "link.jsonl")}, "outside"),
            ({"recording": "../../etc/passwd"}, "outside"),
            ({"recording": todos, "entry": 99}, "no entry 99"),
            ({"recording": os.path.join(folder, "damaged.jsonl"), "entry": 3}, "damaged"),
        ]:
            result = await client.call_tool("show_state", arguments)
            check(result.is_error and expected in text(result), f"{mode}: show_state {arguments}: {text(result)}")
        damaged = await client.call_tool("stats", {"recording": os.path.join(folder, "damaged.jsonl")})
        check(not damaged.is_error and damaged.structured_content["damagedRecords"] == 1, f"{mode}: stats of a damaged log")
        bad_query = await client.call_tool("find", {"target": todos, "query": "/todos length >"})
        check(bad_query.is_error and "bad query" in text(bad_query), f"{mode}: a bad query: {text(bad_query)}")

        # A result bigger than max_bytes: cut, and the rest read with offset gives the whole output.
        whole = rewind("log", todos, "--width", "120")[0]
        pieces, offset = [], 0
        while offset is not None:
            page = await client.call_tool("log", {"recording": todos, "max_bytes": 1024, "offset": offset})
            body = text(page).split("\n[cut at ")[0]
            pieces.append(body + "\n")
            offset = page.structured_content["nextOffset"]
            check(len(body.encode()) <= 1024, f"{mode}: a page holds at most max_bytes")
        check("".join(pieces) == whole, f"{mode}: pages put together are the whole log")


def main():
    folder, outside = make_workspace()
    try:
        for mode in ["auto", "legacy"]:
            asyncio.run(exercise(mode, folder, outside))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(outside, ignore_errors=True)
    check.finish()


main()
