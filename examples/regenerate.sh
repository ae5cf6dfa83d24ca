#!/usr/bin/env bash
# Remake examples/finished-frogfinder from examples/play-by-email.sh with the current code.
#   examples/regenerate.sh        (needs frogpbem on PATH, e.g. the ./run venv)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$here/finished-frogfinder
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && "$here/play-by-email.sh" game > transcript.txt 2>&1)
sed -e '/^files are in /d' "$work/transcript.txt" > "$out/transcript.txt"
cp "$work/game/bob/game.yaml" "$out/game.yaml"
cp "$work"/game/players-memory/proofs/*.proof "$out/fork.proof"
for view in red blue public; do
    cp "$work/game/referee/game.$view.view.yaml" "$out/game.$view.view.yaml"
done
cp "$work/game/referee/key" "$out/referee.key"
cp "$work/game/referee/key.pub" "$out/referee.key.pub"
cp "$work/game/alice/key" "$out/alice.key"
cp "$work/game/alice/key.pub" "$out/alice.key.pub"
cp "$work/game/bob/key" "$out/bob.key"
cp "$work/game/bob/key.pub" "$out/bob.key.pub"
frogpbem record "$out/game.yaml" > "$out/game.pgn"
grep -o 'created [a-z]*-[a-z0-9]*' "$out/transcript.txt" | head -1
