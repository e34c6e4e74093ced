#!/bin/sh
# Runs the OpenCode driver (and so `opencode serve` and the loopback fake model it talks to) in a network namespace
# of its own, holding only `lo`, where this process may make one (root, and unshare works): OpenCode installs its
# config directories' plugin dependencies from the npm registry at every start (`bun install`, no switch turns it
# off), and nothing of a kit run may leave the machine. The kit still talks to the driver over stdio. Elsewhere the
# driver runs as it is and says so on stderr.
if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
  exec unshare -n sh -c 'ip link set lo up && exec "$@"' sh "$@"
fi
echo "opencode driver: not root or no unshare: OpenCode runs without a network namespace of its own" >&2
exec "$@"
