#!/usr/bin/env bash
# Builds the Rust implementation offline: the crates come only from Debian's packages (librust-*-dev put
# them under /usr/share/cargo/registry, which .cargo/config.toml uses in place of crates.io). Installs the
# packages when they are missing (needs root or sudo), then `cargo build --release --locked`.
# The driver ends up at implementations/rust/target/release/skill-driver.
set -euo pipefail
cd "$(dirname "$0")"

# serde_json's preserve_order feature needs indexmap, packaged on its own; yaml-rust is the YAML reader (serde_yaml 0.8 wraps it).
PACKAGES=(librust-serde-json-dev librust-indexmap-dev librust-yaml-rust-dev librust-strsim-dev librust-globset-dev librust-regex-dev librust-libc-dev)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} > 0)); then
  echo "build.sh: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >&2 || {
    $SUDO apt-get update >&2 && $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >&2
  }
fi

command -v cargo >/dev/null || { echo "build.sh: cargo not found (apt-get install cargo, or rustup)" >&2; exit 1; }
cargo build --release --locked
