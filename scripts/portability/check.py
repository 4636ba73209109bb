#!/usr/bin/env python3
"""Rewind's portability check (scripts/check-portability runs this).

Three checks, each of which fails the run:

1. Every C target compiles for every triple Rewind's users build for, and
   every function its public headers declare for that triple is defined in
   its objects for that triple (a declaration without a definition links on
   no platform that calls it). The shims of the system-library targets
   compile for the triples they are used on.
2. No Linux-only API is used outside a Linux guard, and no Darwin-only API
   outside a Darwin guard, in Sources/ and Tests/ (Swift and C).
3. Package.swift names the minimum of every Apple platform.

Apple triples compile freestanding against clang's own headers plus the stubs
in scripts/portability/darwin-stubs (there is no Apple SDK on Linux);
aarch64-linux-gnu against Debian's libc6-dev-arm64-cross.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SOURCES = os.path.join(ROOT, "Sources")
STUBS = os.path.join(ROOT, "scripts", "portability", "darwin-stubs")
ARM64_LINUX_INCLUDE = "/usr/aarch64-linux-gnu/include"


def find_tool(name):
    for directory in ["/opt/swift/usr/bin"] + os.environ.get("PATH", "").split(":"):
        path = os.path.join(directory, name)
        if os.access(path, os.X_OK):
            return path
    sys.exit(f"check-portability: {name} not found (it comes with the Swift toolchain)")


CLANG = find_tool("clang")
NM = find_tool("llvm-nm")
RESOURCE_INCLUDE = os.path.join(subprocess.check_output([CLANG, "-print-resource-dir"], text=True).strip(), "include")

# Triple → the flags that stand for its system headers.
TRIPLES = {
    "x86_64-linux-gnu": [],
    "aarch64-linux-gnu": ["-nostdinc", "-isystem", RESOURCE_INCLUDE, "-isystem", ARM64_LINUX_INCLUDE, "-idirafter", "/usr/include"],
    "arm64-apple-ios16.0": ["-ffreestanding", "-nostdinc", "-isystem", RESOURCE_INCLUDE, "-isystem", STUBS],
    "arm64-apple-macos13.0": ["-ffreestanding", "-nostdinc", "-isystem", RESOURCE_INCLUDE, "-isystem", STUBS],
    "x86_64-apple-macos13.0": ["-ffreestanding", "-nostdinc", "-isystem", RESOURCE_INCLUDE, "-isystem", STUBS],
}
APPLE = [t for t in TRIPLES if "apple" in t]

# System-library shims → the triples whose products use them.
SHIMS = {
    "CBacktrace": list(TRIPLES),                      # Recorder: every platform
    "CCellWidth": ["x86_64-linux-gnu", "aarch64-linux-gnu", "arm64-apple-macos13.0", "x86_64-apple-macos13.0"],
    "CNcurses": ["x86_64-linux-gnu", "aarch64-linux-gnu", "arm64-apple-macos13.0", "x86_64-apple-macos13.0"],
}

failures = []


def fail(message):
    failures.append(message)
    print("  FAIL " + message)


def c_targets():
    """Targets with C sources: name → (sources, public headers)."""
    targets = {}
    for name in sorted(os.listdir(SOURCES)):
        directory = os.path.join(SOURCES, name)
        sources = [os.path.join(directory, f) for f in sorted(os.listdir(directory)) if f.endswith(".c")]
        if not sources:
            continue
        include = os.path.join(directory, "include")
        headers = [os.path.join(include, f) for f in sorted(os.listdir(include)) if f.endswith(".h")] if os.path.isdir(include) else []
        targets[name] = (sources, headers)
    return targets


def include_flags(targets):
    flags = []
    for name, (_, _) in targets.items():
        include = os.path.join(SOURCES, name, "include")
        if os.path.isdir(include):
            flags += ["-I", include]
    return flags


def without_function_bodies(text):
    """`text` with each function body (a brace block right after `)`: a static inline function's) made `;`,
    so the calls inside it are not read as declarations."""
    out, index = [], 0
    while index < len(text):
        char = text[index]
        if char == "{" and "".join(out).rstrip().endswith(")"):
            depth = 0
            while index < len(text):
                depth += {"{": 1, "}": -1}.get(text[index], 0)
                index += 1
                if depth == 0:
                    break
            out.append(";")
            continue
        out.append(char)
        index += 1
    return "".join(out)


def declared_functions(header, triple, flags):
    """The functions `header` declares for `triple`, after its #if's (non-static, non-inline)."""
    text = subprocess.run([CLANG, "--target=" + triple, "-E", "-x", "c", header] + TRIPLES[triple] + flags,
                          capture_output=True, text=True)
    if text.returncode != 0:
        fail(f"{triple}: {os.path.relpath(header, ROOT)} does not preprocess: {text.stderr.strip().splitlines()[0]}")
        return set()
    names, inside, lines = set(), False, []
    for line in text.stdout.splitlines():
        marker = re.match(r'# \d+ "([^"]+)"', line)
        if marker:
            inside = os.path.abspath(marker.group(1)) == os.path.abspath(header)
            continue
        if inside:
            lines.append(line)
    body = without_function_bodies("\n".join(lines))
    for declaration in body.split(";"):
        declaration = " ".join(declaration.split())
        if "static" in declaration.split() or "inline" in declaration.split() or "typedef" in declaration:
            continue
        match = re.search(r"\b([A-Za-z_]\w*)\s*\([^()]*\)\s*$", declaration)
        if match and not declaration.lstrip().startswith(("#", "enum", "struct {")):
            names.add(match.group(1))
    return names


def defined_functions(objects, triple):
    output = subprocess.run([NM, "--defined-only", "--extern-only", "--format=just-symbols"] + objects,
                            capture_output=True, text=True, check=True).stdout
    names = set()
    for symbol in output.split():
        names.add(symbol[1:] if "apple" in triple and symbol.startswith("_") else symbol)
    return names


# Symbols an object may need that only Linux's runtimes provide: libgcc's and
# compiler-rt's CPU model (what `__builtin_cpu_supports` reads), which Apple's
# linker does not provide, and glibc's own spellings.
NOT_ON_APPLE = re.compile(r"^_?(__cpu_model|__cpu_features2|__cpu_indicator_init|__errno_location|__isoc99_\w+)$")


def check_apple_references(objects, triple, name):
    output = subprocess.run([NM, "--undefined-only", "--format=just-symbols"] + objects, capture_output=True, text=True, check=True).stdout
    for symbol in sorted(set(output.split())):
        if NOT_ON_APPLE.match(symbol):
            fail(f"{triple}: {name} needs {symbol[1:] if symbol.startswith('_') else symbol}, which no Apple platform links (use cpuid, as CRC32Hardware does)")


def check_c_targets():
    print("== C targets, for every triple")
    targets = c_targets()
    flags = include_flags(targets)
    with tempfile.TemporaryDirectory() as work:
        for triple in TRIPLES:
            for name, (sources, headers) in targets.items():
                objects, compiled = [], True
                for source in sources:
                    obj = os.path.join(work, f"{triple}-{name}-{os.path.basename(source)}.o")
                    run = subprocess.run([CLANG, "--target=" + triple, "-std=c11", "-O1", "-Wall", "-Werror", "-c", source, "-o", obj]
                                         + TRIPLES[triple] + flags, capture_output=True, text=True)
                    if run.returncode != 0:
                        compiled = False
                        first = next((l for l in run.stderr.splitlines() if "error" in l), run.stderr.strip())
                        fail(f"{triple}: {os.path.relpath(source, ROOT)} does not compile: {first}")
                    objects.append(obj)
                if not compiled:
                    continue
                if "apple" in triple:
                    check_apple_references(objects, triple, name)
                defined = defined_functions(objects, triple)
                declared = set()
                for header in headers:
                    declared |= declared_functions(header, triple, flags)
                missing = sorted(declared - defined)
                if missing:
                    fail(f"{triple}: {name} declares but does not define {', '.join(missing)}")
                else:
                    print(f"  ok   {triple:24} {name}: {len(declared)} declared functions, all defined")
            for shim, triples in SHIMS.items():
                if triple not in triples:
                    continue
                header = os.path.join(SOURCES, shim, "shim.h")
                run = subprocess.run([CLANG, "--target=" + triple, "-fsyntax-only", "-Wall", "-Werror", "-Wno-unused-function", "-x", "c", header] + TRIPLES[triple],
                                     capture_output=True, text=True)
                if run.returncode != 0:
                    first = next((l for l in run.stderr.splitlines() if "error" in l), run.stderr.strip())
                    fail(f"{triple}: the {shim} shim does not compile: {first}")
                else:
                    print(f"  ok   {triple:24} {shim} shim")
        check_ncurses_mouse_version_1(work)


def check_ncurses_mouse_version_1(work):
    """The CNcurses shim against Debian's real ncurses header set to mouse
    version 1, as macOS builds it: no BUTTON5_PRESSED, wheel down as REPORT_MOUSE_POSITION."""
    header = "/usr/include/curses.h"
    if not os.path.exists(header):
        fail("no /usr/include/curses.h: install libncurses-dev (scripts/install-dependencies)")
        return
    include = os.path.join(work, "mouse-v1")
    os.makedirs(os.path.join(include, "ncursesw"), exist_ok=True)
    text = open(header, encoding="latin-1").read()
    text, count = re.subn(r"#define NCURSES_MOUSE_VERSION \d+", "#define NCURSES_MOUSE_VERSION 1", text)
    if count != 1:
        fail("could not set the mouse version in /usr/include/curses.h")
        return
    open(os.path.join(include, "ncursesw", "curses.h"), "w", encoding="latin-1").write(text)
    probe = os.path.join(work, "mouse-v1.c")
    open(probe, "w").write('#include "shim.h"\n'
                           '_Static_assert(NCURSES_MOUSE_VERSION == 1, "mouse version 1");\n'
                           'int wheel_down_is_reported(void) { return CNcurses_is_wheel_down(REPORT_MOUSE_POSITION)'
                           ' && !CNcurses_is_wheel_down(BUTTON1_PRESSED) && (CNcurses_mouse_events() & REPORT_MOUSE_POSITION); }\n')
    run = subprocess.run([CLANG, "-fsyntax-only", "-Wall", "-Werror", "-Wno-unused-function", "-I", include, "-I", os.path.join(SOURCES, "CNcurses"), probe],
                         capture_output=True, text=True)
    if run.returncode != 0:
        first = next((l for l in run.stderr.splitlines() if "error" in l), run.stderr.strip())
        fail(f"the CNcurses shim with ncurses mouse version 1 (macOS): {first}")
    else:
        print("  ok   the CNcurses shim against ncurses' own header at mouse version 1 (as macOS builds it)")


# --- 2. APIs of one platform outside that platform's guard -------------------

LINUX_ONLY = [
    r"\bO_DIRECT\b", r"\bposix_fadvise\b", r"\bPOSIX_FADV_\w+", r"\bst_[amc]tim\b", r'"/proc/', r"\bstatx\b",
    r"\bepoll_\w+", r"\baccept4\b", r"\bpipe2\b", r"\bMSG_NOSIGNAL\b", r"\bSOCK_CLOEXEC\b", r"\bSOCK_NONBLOCK\b",
    r"\binotify_\w+", r"\beventfd\b", r"\bsched_getaffinity\b", r"\bgettid\b", r"\bprctl\b", r"\bO_TMPFILE\b",
    r"\bfallocate\b", r"\bmemfd_create\b", r"\bgetauxval\b", r"\bpthread_getattr_np\b", r'"/dev/full"',
]
DARWIN_ONLY = [r"\bSO_NOSIGPIPE\b", r"\bF_FULLFSYNC\b", r"\bF_NOCACHE\b", r"\bst_[amc]timespec\b", r"\bmach_\w+", r"\b_NSGetEnviron\b"]

LINUX_CONDITIONS = re.compile(r"os\(Linux\)|canImport\(Glibc\)|canImport\(Musl\)|__linux__|__linux\b|__gnu_linux__")
DARWIN_CONDITIONS = re.compile(r"canImport\(Darwin\)|os\((macOS|iOS|tvOS|watchOS|visionOS)\)|__APPLE__|__MACH__")


def strip_comment(line, in_block):
    """The code of a line without comments (Swift and C), and whether a /* */ block is still open."""
    code, index, in_string = "", 0, False
    while index < len(line):
        if in_block:
            end = line.find("*/", index)
            if end < 0:
                return code, True
            index, in_block = end + 2, False
            continue
        char = line[index]
        if char == '"' and (index == 0 or line[index - 1] != "\\"):
            in_string = not in_string
        if not in_string and line.startswith("//", index):
            break
        if not in_string and line.startswith("/*", index):
            in_block, index = True, index + 2
            continue
        code += char
        index += 1
    return code, in_block


def without_strings(code):
    """`code` with the insides of string literals blanked: an API named in a message is not a use of it."""
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', code)


# A line that says why a platform's API is safe where it stands (a test skipped at
# run time where the file is missing, say) carries this in a comment.
EXEMPT = "portability: "


def guarded_lines(path):
    """Each line's code, with whether a Linux and whether a Darwin guard is around it."""
    stack = []  # per #if: [condition text of the branch, is_else]
    in_block = False
    for number, raw in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        code, in_block = strip_comment(raw.rstrip("\n"), in_block)
        directive = re.match(r"\s*#\s*(if|ifdef|ifndef|elseif|elif|else|endif)\b(.*)", code)
        if directive:
            kind, condition = directive.group(1), directive.group(2)
            if kind in ("if", "ifdef"):
                stack.append([condition, False])
            elif kind == "ifndef":
                stack.append(["!" + condition, False])
            elif kind in ("elseif", "elif") and stack:
                # A later branch: guarded by its own condition (the earlier ones' negations are not needed here).
                stack[-1] = [condition, False]
            elif kind == "else" and stack:
                stack[-1] = [stack[-1][0], True]
            elif kind == "endif" and stack:
                stack.pop()
            continue

        def positive(pattern):
            for condition, is_else in stack:
                negated = condition.strip().startswith("!")
                if pattern.search(condition) and not is_else and not negated:
                    return True
            return False

        def negative(pattern):
            for condition, is_else in stack:
                negated = condition.strip().startswith("!")
                if pattern.search(condition) and (is_else != negated):
                    return True
            return False

        linux = positive(LINUX_CONDITIONS) or negative(DARWIN_CONDITIONS)
        darwin = positive(DARWIN_CONDITIONS) or negative(LINUX_CONDITIONS)
        yield number, code, linux or EXEMPT in raw, darwin or EXEMPT in raw


def check_platform_apis():
    print("== APIs of one platform only, outside its guard")
    found = 0
    for top in ("Sources", "Tests"):
        for directory, _, files in os.walk(os.path.join(ROOT, top)):
            for name in files:
                if not name.endswith((".swift", ".c", ".h")):
                    continue
                path = os.path.join(directory, name)
                for number, code, linux, darwin in guarded_lines(path):
                    for pattern in LINUX_ONLY:
                        # Paths are strings; every other API is looked for outside strings.
                        match = re.search(pattern, code if pattern.startswith('"') else without_strings(code))
                        if match and not linux:
                            found += 1
                            fail(f"{os.path.relpath(path, ROOT)}:{number}: {match.group(0)} is Linux-only; put it under #if os(Linux) / __linux__ with a fallback")
                    for pattern in DARWIN_ONLY:
                        match = re.search(pattern, without_strings(code))
                        if match and not darwin:
                            found += 1
                            fail(f"{os.path.relpath(path, ROOT)}:{number}: {match.group(0)} is Darwin-only; put it under #if canImport(Darwin) / __APPLE__")
    if not found:
        print("  ok   every Linux-only and Darwin-only API is inside its platform's guard")


# --- 3. platforms: ------------------------------------------------------------

MINIMUMS = {"iOS": "v16", "macOS": "v13", "tvOS": "v16", "watchOS": "v9", "visionOS": "v1"}


def check_platforms():
    print("== Package.swift: platforms and tools version")
    manifest = open(os.path.join(ROOT, "Package.swift")).read()
    if not manifest.startswith("// swift-tools-version:6.0"):
        fail("Package.swift must start with // swift-tools-version:6.0 (the oldest toolchain the libraries support)")
    block = re.search(r"platforms:\s*\[(.*?)\]", manifest, re.S)
    if not block:
        fail("Package.swift has no platforms: (iOS would default to 12, older than the APIs Rewind uses)")
        return
    for platform, version in MINIMUMS.items():
        if not re.search(r"\.%s\(\.%s\)" % (platform, version), block.group(1)):
            fail(f"platforms: lacks .{platform}(.{version})")
        else:
            print(f"  ok   .{platform}(.{version})")


def main():
    if not os.path.isdir(ARM64_LINUX_INCLUDE):
        sys.exit("check-portability: no aarch64 headers; run scripts/install-dependencies (libc6-dev-arm64-cross)")
    check_c_targets()
    check_platform_apis()
    check_platforms()
    if failures:
        print(f"\ncheck-portability: {len(failures)} problem(s)")
        sys.exit(1)
    print("\ncheck-portability: every check passed")


if __name__ == "__main__":
    main()
