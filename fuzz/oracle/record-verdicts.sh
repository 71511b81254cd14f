#!/usr/bin/env bash
# Re-records tests/fixtures/decoder-oracle/verdicts.jsonl: the old decoder's verdicts
# (fee2c83, materialized by old-decoder.sh) on every corpus message, for every revision and
# kind, which tests/tests/messages/decoder_oracle.rs compares with the current decoder's.
# Run it when a corpus changes (a traffic fixture, fuzz/corpus/{messages,differential}, a
# crash input, the official examples). It runs the current decoder too and fails, writing
# nothing, when the two differ in a way no known class explains (see fuzz/README.md).
#
# Usage: bash fuzz/oracle/record-verdicts.sh [--show]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/old-decoder.sh"
cd "$here"
cargo run --quiet --bin record-verdicts -- --write "$@"
