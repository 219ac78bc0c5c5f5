#!/bin/sh
# Runs a command in a network namespace of its own (unshare --net) with only loopback up, and
# the addresses the credential tests pretend are elsewhere put on that loopback: a documentation
# IPv4 (192.0.2.10), a documentation IPv6 (2001:db8::1) and the instance metadata address
# (169.254.169.254). Nothing in the namespace can reach another machine: a connection that would
# leave it ends on a listener of the test, or nowhere. Exit 77 (ctest's SKIP) when this machine
# does not allow a namespace (not root, no unshare or ip).
# usage: in_own_netns.sh COMMAND [ARGS...]
set -eu
skip() {
  echo "in_own_netns: SKIP: $*" >&2
  exit 77
}
[ "$(id -u)" = 0 ] || skip "not root (a network namespace needs CAP_SYS_ADMIN)"
command -v unshare >/dev/null || skip "unshare (util-linux) not installed"
command -v ip >/dev/null || skip "ip (iproute2) not installed"
unshare --net true 2>/dev/null || skip "unshare --net refused"
exec unshare --net sh -c '
  set -e
  ip link set lo up
  ip addr add 192.0.2.10/32 dev lo
  ip addr add 169.254.169.254/32 dev lo
  ip -6 addr add 2001:db8::1/128 dev lo nodad
  exec "$@"' in_own_netns "$@"
