#!/usr/bin/env bash
# Soak test (not in CI): mixed well-formed load, hostile clients, reloads and data-symlink flips against a release fmtd for MINUTES.
#
#   Tests/Soak/soak.sh [MINUTES]        # default 10
#
# Reports requests served, errors (must be 0 for well-formed requests), RSS over time and the daemon's open file
# descriptors at the start and the end (must be equal); exits non-zero otherwise. FMTD_BIN uses a built binary
# instead of building one. Needs python3 (standard library only).
set -euo pipefail

minutes=${1:-10}
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${FMTD_BIN:-}" ]; then
    swift build -c release --package-path "$root" --product fmtd
    FMTD_BIN=$(swift build -c release --package-path "$root" --show-bin-path)/fmtd
fi
exec python3 "$root/Tests/Soak/soak.py" "$minutes" "$FMTD_BIN" "$root/data"
