#!/usr/bin/env bash
# Builds fmtd's libFuzzer targets with -sanitize=fuzzer,address and runs each for SECONDS from its seed corpus.
#
#   Tests/Fuzz/run.sh [SECONDS] [TARGET...]      # default 60 s per target, every target
#
# Exits non-zero when any target crashes, leaks, times out (-timeout, per input), runs out of memory, breaks one
# of its invariants, or meets an input slower than FMTD_FUZZ_SLOW_MS (default 10 ms, 100 ms for postal-code, 30 ms
# for message-format; best of three runs, in CPU time). The -timeout of 10 s per input only catches hangs: a 2 s limit tripped on a loaded 2-core
# machine (replayed: 0 ms).
# Environment: FMTD_FUZZ_JOBS (targets run at once, default 1), FMTD_FUZZ_SCRATCH (build directory, default
# .build/fuzz), FMTD_FUZZ_OUT (where corpora, logs and artifacts go; default a new temporary directory).
# New corpus entries go to FMTD_FUZZ_OUT, never into the checked-in seeds under Tests/Fuzz/Corpus.
# FMTD_FUZZ_SEED fixes libFuzzer's random seed (default 0: a new seed each run). CI fixes it, so a CI run
# explores the same inputs every time and cannot turn red by chance; long runs by hand should not.
set -euo pipefail

seconds=${1:-60}
shift || true
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
scratch=${FMTD_FUZZ_SCRATCH:-$root/.build/fuzz}
jobs=${FMTD_FUZZ_JOBS:-1}
out=${FMTD_FUZZ_OUT:-$(mktemp -d /tmp/fmtd-fuzz.XXXXXX)}
export SWIFT_BACKTRACE=enable=no
export FMTD_FUZZ_DATA=$root/data
# Leaks are checked by libFuzzer itself (-detect_leaks); abort_on_error gives a clean crash artifact.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$here/lsan.supp:print_suppressions=0}

all_targets=(request locale date phone address-formats phone-metadata message-catalogue message-format postal-code copy-rules)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

# Longest input per target: a request line is at most 64 KiB on the wire, but short inputs find more per second.
max_len() {
    case $1 in
        request | message-catalogue | message-format | copy-rules) echo 8192 ;;
        postal-code) echo 4096 ;;
        locale | date) echo 256 ;;
        phone) echo 512 ;;
        address-formats) echo 16384 ;;
        phone-metadata) echo 32768 ;;
    esac
}
# Loaders' honest cost grows with the file (the committed phone metadata takes ~45 ms uninstrumented), and so does
# formatting a pattern with each of its arguments, so they get 10 ms plus 10 ms per KiB under ASan and coverage,
# about five times what real files cost there; a super-linear path still stands out. The copy-rules target loads two
# rules files and compiles and checks up to nine patterns: its seeds take 0.5-8 ms of CPU there (the 3.4 KiB ones with
# the shipped rules 4.5-8 ms, against 44 ms allowed). Parsers of one request get a flat 10 ms.
slow_per_kib() {
    case $1 in
        address-formats | phone-metadata | message-catalogue | message-format | copy-rules) echo 10 ;;
        *) echo 0 ;;
    esac
}
# A flat budget per input, in ms: 10, except the postal-code target, which checks 12 codes per input and whose
# costly patterns each stop at ICU's step limit (about 1 ms natively, several times that under ASan), and the
# message-format target, which formats each pattern about 100 times (16 rounds of 7 argument values): under 7 ms
# on a quiet machine, 12-15 ms best of three while two compilers ran beside it.
slow_ms() {
    case $1 in
        postal-code) echo "${FMTD_FUZZ_SLOW_MS:-100}" ;;
        message-format) echo "${FMTD_FUZZ_SLOW_MS:-30}" ;;
        *) echo "${FMTD_FUZZ_SLOW_MS:-10}" ;;
    esac
}
dictionary() {
    case $1 in
        phone) echo "$here/Dictionaries/phone.dict" ;;
        message-format) echo "$here/Dictionaries/message.dict" ;;
        postal-code) echo "$here/Dictionaries/postal.dict" ;;
        copy-rules) echo "$here/Dictionaries/copy-rules.dict" ;;
        locale | date) ;;
        *) echo "$here/Dictionaries/json.dict" ;;
    esac
}

build_flags=(-c release --package-path "$here" --scratch-path "$scratch"
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld)
started=$(date +%s)
swift build "${build_flags[@]}"
bin=$(swift build "${build_flags[@]}" --show-bin-path)
echo "fuzz: built in $(($(date +%s) - started)) s; ${seconds} s per target, $jobs at a time; output in $out"

run_target() {
    local target=$1 dir="$out/$1"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    local dict_flag=()
    local dict
    dict=$(dictionary "$target")
    [ -z "$dict" ] || dict_flag=(-dict="$dict")
    set +e
    FMTD_FUZZ_ARTIFACTS="$dir/artifacts/" FMTD_FUZZ_SLOW_MS=$(slow_ms "$target") \
        FMTD_FUZZ_SLOW_MS_PER_KIB=$(slow_per_kib "$target") "$bin/fuzz-$target" \
        -max_total_time="$seconds" -seed="${FMTD_FUZZ_SEED:-0}" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
        -max_len="$(max_len "$target")" -print_final_stats=1 -detect_leaks=1 \
        -artifact_prefix="$dir/artifacts/" "${dict_flag[@]}" \
        "$dir/corpus" "$here/Corpus/$target" >"$dir/log" 2>&1
    echo $? >"$dir/status"
    set -e
}

running=0
for target in "${targets[@]}"; do
    [ -d "$here/Corpus/$target" ] || { echo "fuzz: no target $target (known: ${all_targets[*]})" >&2; exit 2; }
    run_target "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait

failed=0
printf '%-20s %8s %10s %7s %6s  %s\n' target seconds execs exec/s corpus result
for target in "${targets[@]}"; do
    dir="$out/$target"
    status=$(cat "$dir/status")
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)
    corpus=$(find "$dir/corpus" -type f | wc -l)
    result=ok
    if [ "$status" != 0 ]; then
        result="FAILED (exit $status)"
    elif grep -q 'FMTD-FUZZ SLOW UNIT' "$dir/log"; then
        result="FAILED (slow inputs)"
    elif [ -n "$(ls -A "$dir/artifacts")" ]; then
        result="FAILED (artifacts)"
    fi
    printf '%-20s %8s %10s %7s %6s  %s\n' "$target" "$seconds" "${execs:-?}" "${rate:-?}" "$corpus" "$result"
    if [ "$result" != ok ]; then
        failed=1
        { grep -E 'FMTD-FUZZ|ERROR: |SUMMARY: |Fatal error|deadly signal|Test unit written' "$dir/log" || true; } |
            head -10 | sed 's/^/    /'
        find "$dir/artifacts" -type f | head -3 | while read -r artifact; do
            echo "    reproduce: $bin/fuzz-$target $artifact"
        done
        echo "    $(find "$dir/artifacts" -type f | wc -l) artifacts in $dir/artifacts"
        echo "    log: $dir/log"
    fi
done
echo "fuzz: finished in $(($(date +%s) - started)) s"
exit $failed
