/* Time of one ICU regex match with and without uregex_setTimeLimit: how long a "step" is on this machine and
   what a limit of FMT_ADDRESS_MATCH_STEPS costs. Usage: regex_steps PATTERN TEXT STEPS (0 = no limit).
   Run by measure.sh; the figures behind FMT_ADDRESS_MATCH_STEPS (CICU/include/fmt_icu_address.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unicode/uregex.h>
#include <unicode/ustring.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 4) return 2;
    UErrorCode status = U_ZERO_ERROR;
    UChar pattern[1024], text[4096];
    u_uastrncpy(pattern, argv[1], 1023);
    u_uastrncpy(text, argv[2], 4095);
    URegularExpression *regex = uregex_open(pattern, -1, 0, NULL, &status);
    int steps = atoi(argv[3]);
    if (steps > 0) uregex_setTimeLimit(regex, steps, &status);
    uregex_setText(regex, text, -1, &status);
    double started = now();
    UBool matched = uregex_matches(regex, 0, &status);
    printf("%-40s %3zu chars, limit %3d steps: matched %d, %s, %.3f ms\n", argv[1], strlen(argv[2]), steps, matched,
           u_errorName(status), (now() - started) * 1e3);
    uregex_close(regex);
    return 0;
}
