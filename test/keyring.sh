#!/usr/bin/env bash
# The Secret Service the keychain tests reach, inside test/run.sh's private D-Bus session: one
# gnome-keyring-daemon with its login keyring unlocked (password "test", in the test HOME), started
# again, unlocked, whenever it dies. Once, beside stress-ng, the daemon crashed mid-run (a trap in
# libglib); D-Bus then started a locked one at the next call, and every later keychain test failed
# with KEYCHAIN-UNAVAILABLE. Now a crash costs at most the tests in flight.
#
#   bash test/keyring.sh          keeps the daemon running until this script is sent SIGTERM
#   bash test/keyring.sh --wait   returns once the Secret Service is on the bus (or fails after 20 s)
set -uo pipefail

has_owner() {
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'
}

if [ "${1:-}" = --wait ]; then
  for _ in $(seq 200); do
    has_owner && exit 0
    sleep 0.1
  done
  echo "keyring.sh: the Secret Service did not come up on the test bus in 20 s" >&2
  exit 1
fi

daemon=""
stopping=""
trap 'stopping=1; [ -n "$daemon" ] && kill -TERM "$daemon" 2>/dev/null' TERM INT
while [ -z "$stopping" ]; do
  # --replace: D-Bus may have started a locked daemon on a call made since the last one died.
  gnome-keyring-daemon --replace --foreground --unlock --components=secrets \
    < <(printf test) >/dev/null 2>&1 &
  daemon=$!
  wait "$daemon"
  status=$?
  [ -n "$stopping" ] && break
  echo "keyring.sh: gnome-keyring-daemon ended (status $status); starting it again, unlocked" >&2
  sleep 0.2
done
