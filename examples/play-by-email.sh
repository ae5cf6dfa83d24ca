#!/usr/bin/env bash
# A short Frog Finder game by email, command by command.
#
# Three mailboxes are folders here: referee/, alice/ and bob/. "Mailing" a
# file is copying it into the other person's folder; everything else is
# exactly what each person runs. The setup is chosen (a 6x6 board with two
# frogs each) so that the game is short and the same every time.
#
#   examples/play-by-email.sh [DIR]     (DIR must not exist yet; default: a new temp dir)
#
# Every command is printed with "$ " before it and its exit status after it.
set -u
dir=${1:-$(mktemp -d)}
if [ -e "$dir/referee" ]; then echo "play-by-email: $dir is not empty" >&2; exit 2; fi
mkdir -p "$dir"/{referee,alice,bob}
cd "$dir" || exit 2
FROGPBEM=${FROGPBEM:-frogpbem}
export FROGPBEM_STATE="$dir/referee/.state"   # the referee's memory of what it signed
# Each player's tool remembers the copies it has seen (on one machine here, so one memory
# for both players; on their own machines it is each one's ~/.local/share/frogpbem).
export FROGPBEM_HOME=players-memory

say()  { printf '\n## %s\n' "$*"; }
run()  { printf '$'; printf ' %q' "$@"; printf '\n'; "$@"; printf '[exit %d]\n' "$?"; }
# run_from FILE CMD...: CMD with FILE on its standard input
run_from() { local input=$1; shift; printf '$'; printf ' %q' "$@"; printf ' < %s\n' "$input"
             "$@" < "$input"; printf '[exit %d]\n' "$?"; }
mail() { printf '(mail %s to %s)\n' "$1" "$2"; cp "$1" "$2"; }

say "Everyone makes a key (or uses ~/.ssh/id_ed25519) and mails the .pub to the referee"
run $FROGPBEM keygen referee/key --comment carol@example.org
run $FROGPBEM keygen alice/key --comment alice@example.org
run $FROGPBEM keygen bob/key --comment bob@example.org
mail alice/key.pub referee/alice.pub
mail bob/key.pub referee/bob.pub

say "The referee creates the game: red is Alice, blue is Bob"
cat > referee/setup.yaml <<'YAML'
red:
  frogs: [A1, B2]
blue:
  frogs: [E5, F6]
YAML
run $FROGPBEM new referee/game.yaml --referee referee/key --referee-name Carol \
    --seat red=referee/alice.pub --seat blue=referee/bob.pub \
    --name red=Alice --name blue=Bob --email red=alice@example.org --email blue=bob@example.org \
    --option size=6 --option frogs=2 --setup referee/setup.yaml
mail referee/game.yaml alice/game.yaml
mail referee/game.yaml bob/game.yaml

say "Alice looks at her board and shoots C3; she mails the game file back"
run $FROGPBEM view alice/game.yaml --key alice/key
run $FROGPBEM move alice/game.yaml "shoot C3" --key alice/key
mail alice/game.yaml referee/from-alice.yaml

say "The referee applies Alice's signed request and mails the game to both"
run $FROGPBEM move referee/game.yaml --from referee/from-alice.yaml --key referee/key
mail referee/game.yaml alice/game.yaml
mail referee/game.yaml bob/game.yaml
mail referee/game.yaml bob/old-mail.yaml   # Bob keeps the mail; its attachment stays old

say "Bob makes a typo, then aims at his own frog, then guesses A2 (wrong)"
run $FROGPBEM move bob/game.yaml "shot B2" --key bob/key
run $FROGPBEM move bob/game.yaml "guess E5" --key bob/key
run $FROGPBEM move bob/game.yaml "guess A2" --key bob/key
mail bob/game.yaml referee/from-bob.yaml
run $FROGPBEM move referee/game.yaml --from referee/from-bob.yaml --key referee/key
mail referee/game.yaml alice/game.yaml
mail referee/game.yaml bob/game.yaml

say "Alice checks the referee's results against her own frogs, then guesses E5"
run $FROGPBEM verify alice/game.yaml --key alice/key
run $FROGPBEM move alice/game.yaml "guess E5" --key alice/key
mail alice/game.yaml referee/from-alice.yaml
run $FROGPBEM move referee/game.yaml --from referee/from-alice.yaml --key referee/key
mail referee/game.yaml bob/game.yaml

say "Bob shoots B2 (a red frog: Bob -5, Alice +5)"
run $FROGPBEM move bob/game.yaml "shoot B2" --key bob/key
mail bob/game.yaml referee/from-bob.yaml
run $FROGPBEM move referee/game.yaml --from referee/from-bob.yaml --key referee/key
mail referee/game.yaml alice/game.yaml

say "An old copy cannot be extended: the referee's tool refuses Bob's stale file"
run $FROGPBEM move referee/from-bob.yaml "shoot F1" --key referee/key

say "Alice guesses F6: Bob's last frog; the game ends and the referee reveals everything"
cp referee/game.yaml referee/before-5.yaml   # (a copy the referee keeps, for later)
run $FROGPBEM move alice/game.yaml "guess F6" --key alice/key
mail alice/game.yaml referee/from-alice.yaml
run $FROGPBEM move referee/game.yaml --from referee/from-alice.yaml --key referee/key
mail referee/game.yaml alice/game.yaml
mail referee/game.yaml bob/game.yaml

say "Anyone can now audit the game and read its record"
run $FROGPBEM audit bob/game.yaml
run $FROGPBEM record bob/game.yaml
run $FROGPBEM view bob/game.yaml --public

say "Bob opens the old mail by mistake: his tool has seen a later copy and refuses it"
run $FROGPBEM view bob/old-mail.yaml --key bob/key

say "A cheating referee signs a second record 5 on another machine (no memory to stop it)"
run env FROGPBEM_STATE=referee/.elsewhere $FROGPBEM move referee/before-5.yaml "guess A6" \
    --seat red --key referee/key
mail referee/before-5.yaml bob/game-again.yaml

say "Bob's tool has seen the real record 5: it refuses the fork and keeps a proof"
run $FROGPBEM view bob/game-again.yaml --key bob/key
proof=$(ls "$FROGPBEM_HOME"/proofs/*.proof)
run $FROGPBEM verify --proof "$proof"

say "Anyone can check the proof with ssh-keygen alone (the steps are in the proof's comments)"
sed -n 's/^allowed_signers //p' "$proof" > allowed_signers
for part in first second; do
    sed -n "s/^${part}_message //p" "$proof" | base64 -d > "$part.msg"
    sed -n "s/^${part}_signature //p" "$proof" > "$part.sig"
    run_from "$part.msg" ssh-keygen -Y verify -f allowed_signers -I referee -n frogpbem \
        -s "$part.sig"
done
echo
echo "files are in $dir"
