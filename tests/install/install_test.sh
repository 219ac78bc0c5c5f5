#!/usr/bin/env bash
# The installed feedcheck runs on its own: `cmake --install` into an empty prefix and the Debian
# package made by CPack, unpacked into an empty directory, each run from outside the build tree
# with the knowledge base and rules they carry (not the build tree's).
# usage: install_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/feedcheck-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2 && exit 1; }
cd "$work" # nothing relative to the build tree or the sources

# What an installed binary must do without the build tree: size a cluster from the knowledge base,
# list the built-in rules, and say where it found them.
check_installed() {
  local bin=$1 where=$2 out
  [[ -x "$bin" ]] || fail "$where: no executable at $bin"
  out=$("$bin" --version) || fail "$where: --version failed"
  [[ "$out" == *0.* ]] || fail "$where: --version printed '$out'"
  out=$(env -u FEEDCHECK_HOME "$bin" egress --sku Standard_ND96asr_v4 --region eastus --json) ||
    fail "$where: egress failed: $out"
  grep -q '"full_rate_nodes": 8' <<<"$out" || fail "$where: egress did not find 8 nodes: $out"
  # Prove which knowledge base it read: give the installed copy's ND96asr_v4 a 50 Gbit/s NIC
  # (the build tree's says 24), and 200 / 50 = 4 nodes must come back.
  local kb="$where/share/feedcheck/data/vm_sizes.yaml"
  [[ -f "$kb" ]] || fail "$where: no knowledge base at $kb"
  sed -i '/name: Standard_ND96asr_v4$/,/nic:/ s#nic: 24 Gbit/s#nic: 50 Gbit/s#' "$kb"
  out=$(env -u FEEDCHECK_HOME "$bin" egress --sku Standard_ND96asr_v4 --region eastus --json)
  grep -q '"full_rate_nodes": 4' <<<"$out" || fail "$where: did not read its own knowledge base: $out"
  out=$(env -u FEEDCHECK_HOME "$bin" rules list) || fail "$where: rules list failed"
  local rules
  # One table row per rule: "  <id>  <severity>  <title> ...".
  rules=$(grep -cE '^ +[a-z0-9-]+ +(critical|warning|info) ' <<<"$out" || true)
  ((rules >= 20)) || fail "$where: rules list shows $rules rules:\n$out"
  echo "$where: ok ($rules rule lines, egress from the installed knowledge base)"
}

# Installed binaries carry no debug information and no symbol table (the build's feedcheck is
# 35 MB with line tables, 154 MB with full debug information, 4 MB stripped) and stay small.
max_binary_kib=16384
check_stripped() {
  local bin=$1 sections kib
  sections=$(readelf -S --wide "$bin") || fail "readelf -S $bin failed"
  grep -qE '\.(debug_[a-z_]+|zdebug_[a-z_]+|gnu_debuglink) ' <<<"$sections" &&
    fail "$bin carries debug information: $(grep -oE '\.(z?debug_[a-z_]+)' <<<"$sections" | tr '\n' ' ')"
  grep -qE ' \.symtab ' <<<"$sections" && fail "$bin still has its symbol table (.symtab)"
  kib=$(du -k "$bin" | cut -f1)
  ((kib <= max_binary_kib)) || fail "$bin is $kib KiB (at most $max_binary_kib KiB stripped)"
  echo "$bin: stripped, $kib KiB"
}

# 1. cmake --install into an empty prefix.
cmake --install "$build" --prefix "$work/prefix" --component cli >/dev/null
check_installed "$work/prefix/bin/feedcheck" "$work/prefix"
check_stripped "$work/prefix/bin/feedcheck"
[[ -f "$work/prefix/share/feedcheck/data/vm_sizes.yaml" ]] || fail "no data/ in the prefix"
[[ -f "$work/prefix/share/doc/feedcheck/README.md" ]] || fail "no README in the prefix"
[[ -f "$work/prefix/share/bash-completion/completions/feedcheck" ]] ||
  fail "no bash completion in the prefix"
[[ -f "$work/prefix/share/zsh/vendor-completions/_feedcheck" ]] ||
  fail "no zsh completion in the prefix"

# 2. The Debian packages (cpack installs from the build, it does not build).
cpack --config "$build/CPackConfig.cmake" -B "$work/pkg" >"$work/cpack.log" 2>&1 ||
  fail "cpack failed: $(cat "$work/cpack.log")"
deb=$(ls "$work/pkg"/feedcheck_*_*.deb 2>/dev/null | head -n 1)
[[ -n "$deb" ]] || fail "no feedcheck_*.deb: $(ls "$work/pkg")"
info=$(dpkg-deb --info "$deb")
grep -q "Package: feedcheck$" <<<"$info" || fail "package name: $info"
grep -q "Depends:.*libcurl" <<<"$info" || fail "Depends does not name libcurl: $info"
grep -q "Depends:.*libyaml-cpp" <<<"$info" || fail "Depends does not name yaml-cpp: $info"
contents=$(dpkg-deb --contents "$deb")
for f in ./usr/bin/feedcheck ./usr/share/feedcheck/data/vm_sizes.yaml \
  ./usr/share/feedcheck/data/storage_targets.yaml ./usr/share/doc/feedcheck/README.md \
  ./usr/share/bash-completion/completions/feedcheck ./usr/share/zsh/vendor-completions/_feedcheck; do
  grep -q " $f\$" <<<"$contents" || fail "$f is not in $(basename "$deb")"
done
grep -q "./usr/share/feedcheck/rules/.*\.yaml$" <<<"$contents" || fail "no rules in the package"
grep -q "/bin/feedcheck-mpi" <<<"$contents" && fail "feedcheck-mpi belongs in its own package"
dpkg-deb -x "$deb" "$work/root"
check_installed "$work/root/usr/bin/feedcheck" "$work/root/usr"
check_stripped "$work/root/usr/bin/feedcheck"
if [[ -n $(ls "$work/pkg"/feedcheck-mpi_*.deb 2>/dev/null) ]]; then
  grep -q "Depends:.*feedcheck (= " <<<"$(dpkg-deb --info "$work/pkg"/feedcheck-mpi_*.deb)" ||
    fail "feedcheck-mpi does not depend on feedcheck"
  dpkg-deb -x "$work/pkg"/feedcheck-mpi_*.deb "$work/root-mpi"
  check_stripped "$work/root-mpi/usr/bin/feedcheck-mpi"
fi
echo "install: ok ($(basename "$deb"), $(du -k "$deb" | cut -f1) KiB)"
