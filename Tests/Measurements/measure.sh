#!/usr/bin/env bash
# The measurements behind the local-data limits (issue 20, items 5 and 6), against the system's ICU:
#   Tests/Measurements/measure.sh
# 1. Stack per nesting level of an ICU message pattern (MessageLimits.maximumNesting = 16).
# 2. How long ICU's regex "step" is, and a match stopped at FMT_ADDRESS_MATCH_STEPS (5) against the same match
#    without a limit (the issue's ([A-Z]+)+[0-9] on 20 letters; eight [A-Z]* on 32 letters without a limit and
#    ten with one).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d /tmp/fmtd-measure.XXXXXX)
g++ -O2 "$here/message_stack.cpp" -o "$out/message_stack" $(pkg-config --cflags --libs icu-i18n) -lpthread
gcc -O2 "$here/regex_steps.c" -o "$out/regex_steps" $(pkg-config --cflags --libs icu-i18n)
for depth in 0 1 16 100 1000; do "$out/message_stack" "$depth" select; done
"$out/message_stack" 1000 plural
letters=ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEF
for steps in 1 5 10 100; do "$out/regex_steps" '([A-Z]+)+[0-9]' "${letters:0:22}" "$steps"; done
"$out/regex_steps" '([A-Z]+)+[0-9]' "${letters:0:20}" 0
eight='[A-Z]*[A-Z]*[A-Z]*[A-Z]*[A-Z]*[A-Z]*[A-Z]*[A-Z]*[0-9]'
"$out/regex_steps" "$eight" "$letters" 0
"$out/regex_steps" "[A-Z]*[A-Z]*$eight" "$letters" 5
"$out/regex_steps" '([A-Z]{1,2}[0-9][A-Z0-9]?|GIR) ?([0-9][ABD-HJLNP-UW-Z]{2})' 'SW1A 1AA' 5
"$out/regex_steps" '([0-9]{5})(?:[ -]?([0-9]{4}))?' '12345-6789' 5
rm -rf "$out"
