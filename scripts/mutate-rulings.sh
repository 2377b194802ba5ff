#!/usr/bin/env bash
# Mutation check of the TechCommander rulings: every ruling must be pinned by a test.
#
# For each constant in src/rules/techcommander/rulings.rs in turn, the script changes its
# value (integers +1 and -1 where the type allows, booleans flipped, strings altered),
# rebuilds, runs the tests and reports "caught" (some test failed) or "SURVIVED" (the
# whole test set passed: no test pins that ruling). It then applies the code mutations
# listed in CODE_MUTATIONS below (rules that are code, not constants). The files are
# restored after each mutation and on any exit, Ctrl-C included.
#
# Usage: scripts/mutate-rulings.sh [--list] [--only NAME]...
#   --list       print the mutations and exit
#   --only NAME  run only the mutations of constant (or code mutation) NAME; repeatable
# Environment:
#   MUTATION_TESTS  the test command (default: "cargo test --lib --quiet"). The rulings
#                   are pinned by the kernel's unit tests (src/rules/techcommander/), so
#                   the library's unit tests are the smallest set that proves the point:
#                   they rebuild one test binary per mutation (about 15 s on 2 busy cores)
#                   and run in under a second. Use "cargo test --quiet" for the whole suite.
#   MUTATION_TIMEOUT  seconds allowed per test run (default 900).
#
# Exit status: 0 when every mutation is caught, 1 when any survives or fails to build,
# 2 on a usage error, 130 when interrupted.
# Needs bash, cargo, perl, cmp (and `timeout` when present).

set -u

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 2
RULINGS=src/rules/techcommander/rulings.rs
TESTS="${MUTATION_TESTS:-cargo test --lib --quiet}"
TIMEOUT="${MUTATION_TIMEOUT:-900}"
# What to compile before testing: the default test set needs only the library's unit tests.
if [ -z "${MUTATION_TESTS:-}" ]; then BUILD_TARGETS="--lib"; else BUILD_TARGETS=""; fi

# Code mutations: NAME|FILE|perl substitution (applied to the whole file; it must match).
# fire-for-effect-armor-piercing: fire for effect deals splash damage, which never
# ignores armour (rulebook "Splash damage rules"); the mutation lets it keep the weapon's
# armour piercing by turning `if splash { 0 }` into `if false { 0 }` in system_action.
CODE_MUTATIONS=(
    'fire-for-effect-armor-piercing|src/rules/techcommander/odds.rs|s/let pierce = if splash \{ 0 \}/let pierce = if false { 0 }/'
)

list_only=0
only=()
while [ $# -gt 0 ]; do
    case "$1" in
        --list) list_only=1 ;;
        --only)
            [ $# -ge 2 ] || { echo "--only needs a name" >&2; exit 2; }
            only+=("$2")
            shift
            ;;
        -h | --help)
            sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

wanted() {
    [ ${#only[@]} -eq 0 ] && return 0
    local n
    for n in "${only[@]}"; do [ "$n" = "$1" ] && return 0; done
    return 1
}

# Mutations as lines: KIND|NAME|FILE|ORIGINAL|MUTANT
#   const: ORIGINAL/MUTANT are values of `pub const NAME: TYPE = VALUE;`
#   code:  ORIGINAL is unused, MUTANT is a perl substitution
mutations=()
while IFS='|' read -r name type value; do
    case "$type" in
        i32)
            mutations+=("const|$name|$RULINGS|$value|$((value + 1))" "const|$name|$RULINGS|$value|$((value - 1))")
            ;;
        u32)
            mutations+=("const|$name|$RULINGS|$value|$((value + 1))")
            [ "$value" -gt 0 ] && mutations+=("const|$name|$RULINGS|$value|$((value - 1))")
            ;;
        bool)
            if [ "$value" = true ]; then flip=false; else flip=true; fi
            mutations+=("const|$name|$RULINGS|$value|$flip")
            ;;
        "&str")
            mutations+=("const|$name|$RULINGS|$value|${value%\"}-mutated\"")
            ;;
        *) echo "don't know how to mutate $name: $type" >&2; exit 2 ;;
    esac
done < <(perl -ne 'print "$1|$2|$3\n" if /^pub const (\w+): (i32|u32|bool|&str|[^=]+?) = (.+);\s*$/' "$RULINGS")
for m in "${CODE_MUTATIONS[@]}"; do
    IFS='|' read -r name file subst <<<"$m"
    mutations+=("code|$name|$file||$subst")
done

if [ ${#mutations[@]} -eq 0 ]; then
    echo "no constants found in $RULINGS" >&2
    exit 2
fi

if [ "$list_only" = 1 ]; then
    for m in "${mutations[@]}"; do
        IFS='|' read -r kind name file orig mutant <<<"$m"
        wanted "$name" || continue
        if [ "$kind" = const ]; then echo "$name: $orig -> $mutant"; else echo "$name: $file: $mutant"; fi
    done
    exit 0
fi

# Back up every file a mutation may touch; restore on every exit path.
backup="$(mktemp -d)"
files=("$RULINGS")
for m in "${CODE_MUTATIONS[@]}"; do files+=("$(cut -d'|' -f2 <<<"$m")"); done
for f in "${files[@]}"; do mkdir -p "$backup/$(dirname "$f")" && cp -p "$f" "$backup/$f"; done
restore() {
    local f
    for f in "${files[@]}"; do
        # A plain copy (new modification time), so that cargo rebuilds the restored file.
        cmp -s "$backup/$f" "$f" || cp "$backup/$f" "$f"
    done
}
cleanup() {
    restore
    rm -rf "$backup"
}
trap cleanup EXIT
trap 'echo; echo "interrupted: files restored" >&2; exit 130' INT
trap 'exit 143' TERM HUP

run_tests() {
    # --foreground keeps the tests in this script's process group, so Ctrl-C reaches them.
    if command -v timeout >/dev/null; then
        timeout --foreground "$TIMEOUT" bash -c "exec $TESTS"
    else
        bash -c "exec $TESTS"
    fi
}

log="$(mktemp)"
caught=0
survived=()
unbuilt=()
total=0
start=$SECONDS
for m in "${mutations[@]}"; do
    IFS='|' read -r kind name file orig mutant <<<"$m"
    wanted "$name" || continue
    total=$((total + 1))
    restore
    if [ "$kind" = const ]; then
        label="$name $orig -> $mutant"
        NAME="$name" ORIG="$orig" MUTANT="$mutant" perl -pi -e \
            's/^(pub const \Q$ENV{NAME}\E: [^=]+ = )\Q$ENV{ORIG}\E;/$1$ENV{MUTANT};/' "$file"
    else
        label="$name (code: $mutant)"
        perl -0pi -e "$mutant" "$file"
    fi
    if cmp -s "$backup/$file" "$file"; then
        echo "NOT APPLIED  $label (the pattern no longer matches $file)"
        unbuilt+=("$label")
        continue
    fi
    printf '%-66s ' "$label"
    # A mutant that does not compile proves nothing about the tests: report it apart.
    if ! cargo test --no-run --quiet $BUILD_TARGETS >"$log" 2>&1; then
        echo "DOES NOT BUILD"
        unbuilt+=("$label")
        continue
    fi
    if run_tests >"$log" 2>&1; then
        echo "SURVIVED"
        survived+=("$label")
    else
        # "test result: FAILED. 55 passed; 2 failed; ..." per test binary; then the names.
        failed="$(perl -ne '$n += $1 if /test result: FAILED\. \d+ passed; (\d+) failed/; END { print $n + 0 }' "$log")"
        names="$(perl -ne 'if (/^failures:$/) { $in = 1; @n = (); next } if ($in) { if (/^    (\S+)$/) { push @n, $1 } elsif (/\S/) { $in = 0 } } END { print join(", ", @n[0 .. ($#n < 2 ? $#n : 2)]), (@n > 3 ? ", ..." : "") }' "$log")"
        echo "caught ($failed failed: $names)"
        caught=$((caught + 1))
    fi
done
restore
rm -f "$log"

echo
echo "$total mutations in $((SECONDS - start)) s: $caught caught, ${#survived[@]} survived, ${#unbuilt[@]} not run"
for s in "${survived[@]}"; do echo "  SURVIVED: $s"; done
for s in "${unbuilt[@]}"; do echo "  not run:  $s"; done
[ ${#survived[@]} -eq 0 ] && [ ${#unbuilt[@]} -eq 0 ]
