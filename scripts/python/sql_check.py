"""DuckDB (from PyPI) querying `rewind export --format states` of the sample logs.

Run by scripts/python-clients:

    python sql_check.py path/to/rewind path/to/sample-logs

Exports every sample log as rows, reads them with DuckDB's read_json and answers questions
with SQL, each checked against the command line: entries per action type (rewind stats), the
first entry where a path crosses a value and every entry matching a condition (rewind find),
the state at an entry (rewind show), and the rows for gaps and damaged records. Prints
"N passed, 0 failed" and exits 0, or names each failure and exits 1.
"""

import json
import os
import shutil
import tempfile

import duckdb

from checks import Checks, arguments, damaged_copy, run

REWIND, SAMPLES = arguments()
check = Checks("sql")


def rewind(*arguments):
    return run(REWIND, *arguments)


def present(value, like):
    """`value` without the members DuckDB added as null because other recordings' states have them."""
    if isinstance(value, dict) and isinstance(like, dict):
        return {key: present(item, like.get(key)) for key, item in value.items() if key in like or item is not None}
    if isinstance(value, list) and isinstance(like, list):
        return [present(item, other) for item, other in zip(value, like)] + value[len(like):]
    return value


def found(log, query, *flags):
    """The entry numbers rewind find lists."""
    out, _ = rewind("find", log, query, *flags)
    return [int(line.split()[0]) for line in out.splitlines() if line.strip()[:1].isdigit()]


def main():
    folder = tempfile.mkdtemp(prefix="rewind-sql-check-")
    try:
        rows = os.path.join(folder, "rows.jsonl")
        out, status = rewind("export", SAMPLES, "--format", "states", "-o", rows)
        check(status == 0, "export of the sample directory")
        db = duckdb.connect()
        db.execute(f"create view rows as select * from read_json('{rows}', format = 'newline_delimited')")
        todos = os.path.join(SAMPLES, "todos.jsonl")

        # Entries per action type, against rewind stats.
        counted = dict(db.execute(
            "select action, count(*) from rows where recording = ? and kind = 'entry' group by action", [todos]).fetchall())
        stats = json.loads(rewind("stats", todos, "--format", "json")[0])
        check(counted == stats["actionsByType"], f"entries per action type {counted}")

        # The first entry where a path crosses a value, against rewind find --first.
        first = db.execute(
            "select min(entry) from rows where recording = ? and kind = 'entry' and state.stats.done >= 2", [todos]).fetchone()[0]
        check([first] == found(todos, "/stats/done >= 2", "--first"), f"first entry with /stats/done >= 2: {first}")

        # Every entry matching a condition, against rewind find.
        matching = [row[0] for row in db.execute(
            "select entry from rows where recording = ? and kind = 'entry' and len(state.todos) > 2 order by entry", [todos]).fetchall()]
        check(matching == found(todos, "/todos length > 2"), f"entries with more than two todos: {matching}")

        # Across recordings: which ones ever had a car going faster than 50 (rewind find DIR).
        garage = os.path.join(SAMPLES, "garage.jsonl")
        fast = [row[0] for row in db.execute(
            "select entry from rows where recording = ? and kind = 'entry' and state.primary.speed > 50 order by entry", [garage]).fetchall()]
        check(fast == found(garage, "/primary/speed > 50"), f"garage entries over 50: {fast}")

        # The state at an entry, against rewind show.
        state = db.execute("select to_json(state) from rows where recording = ? and entry = 5", [todos]).fetchone()[0]
        shown = json.loads(rewind("show", todos, "--at", "5")[0])
        check(present(json.loads(state), shown) == shown, "the state after entry 5")

        # Every row has every column: a query may name reason and line even when no row has them set.
        healthy = db.execute("select count(*) from rows where reason is not null or line is not null").fetchone()[0]
        check(healthy == 0, f"rows of healthy logs with a reason: {healthy}")

        # Times are timestamps; durations are numbers.
        kinds = db.execute("select typeof(time), typeof(duration) from rows where kind = 'entry' limit 1").fetchone()
        check(kinds[0].startswith("TIMESTAMP") and kinds[1] == "DOUBLE", f"column types {kinds}")

        # --path columns.
        columns = os.path.join(folder, "columns.jsonl")
        rewind("export", todos, "--format", "states", "--path", "/stats/done", "--path", "/filter", "-o", columns)
        done = [row[0] for row in db.execute(
            f"""select entry from read_json('{columns}', format = 'newline_delimited') where "/stats/done" >= 1 order by entry""").fetchall()]
        check(done == found(todos, "/stats/done >= 1"), f"a --path column: {done}")

        # Damage and gaps are rows that say so: a copy of todos with entry 3 damaged.
        damaged = damaged_copy(todos, folder)
        damaged_rows = os.path.join(folder, "damaged-rows.jsonl")
        rewind("export", damaged, "--format", "states", "-o", damaged_rows)
        kinds = db.execute(
            f"select entry, kind, reason is not null from read_json('{damaged_rows}', format = 'newline_delimited') where kind <> 'entry' or state is null order by entry").fetchall()
        check(kinds and kinds[0][:2] == (3, "damaged") and all(row[2] for row in kinds), f"damaged rows {kinds}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    check.finish()


main()
