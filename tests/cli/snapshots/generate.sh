#!/usr/bin/env bash
# Writes NAME.snap for every case of cases.txt with the given binary (named `queens`, as clap
# prints the name it was run by). Run it only to pin new outputs on purpose: the snapshots of
# issue 18 come from the binary before its change.
set -euo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/*.txt "$here"/*.param "$here"/*.json "$work"/
cd "$work"
while IFS=$'\t' read -r name stdin args; do
  case "$name" in '#'*|'') continue ;; esac
  read -r -a argv <<< "$args"
  input=/dev/null
  [ "$stdin" != "-" ] && input="$stdin"
  set +e
  timeout 60 "$bin" "${argv[@]}" < "$input" > "$work/.out" 2> "$work/.err"
  status=$?
  set -e
  {
    printf 'status %d, stdout %d bytes, stderr %d bytes\n' "$status" \
      "$(stat -c %s "$work/.out")" "$(stat -c %s "$work/.err")"
    cat "$work/.out" "$work/.err"
  } > "$here/$name.snap"
done < "$here/cases.txt"
