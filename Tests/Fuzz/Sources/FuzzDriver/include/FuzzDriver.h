#ifndef FMTD_FUZZ_DRIVER_H
#define FMTD_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry point for programs with their own main (compiler-rt FuzzerInterface.h). */
typedef int (*fmtd_fuzz_callback)(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, fmtd_fuzz_callback callback);

#endif
