#!/usr/bin/env bash
# Installs the Debian packages the referee needs, only those missing. Used by ./run and ./test.
# Usage: .ci/deps.sh [--test]   (--test adds what only the test suite needs)
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config
      libopencv-dev libopencv-contrib-dev libimgui-dev libglfw3-dev libgl-dev
      libboost-program-options-dev nlohmann-json3-dev libsqlite3-dev
      googletest libgtest-dev)
if [[ "${1:-}" == "--test" ]]; then
  # Xvfb + Mesa for the real overlay window, opencv-doc for the real chessboard photos,
  # chromium for opening the HTML report like a user would.
  pkgs+=(xvfb xauth libgl1-mesa-dri opencv-doc chromium)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
