#!/usr/bin/env bash
# System packages the project needs beyond pip: the code sandbox's bubblewrap (strict isolation)
# and libseccomp (its seccomp filter). As root, apt-get installs what is missing; otherwise this
# names the packages to install and exits non-zero. Safe to run again: it installs nothing twice.
set -euo pipefail
missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
if ! ldconfig -p 2>/dev/null | grep -q 'libseccomp\.so\.2'; then missing+=(libseccomp2); fi
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup_system: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup_system: the code sandbox needs the system package(s) ${missing[*]}: install them" \
       "(Debian/Ubuntu: sudo apt-get install ${missing[*]}), or ask for a weaker isolation level" \
       "by name: reward.custom_reward_function.reward_kwargs.sandbox.isolation in training," \
       "PAC_SANDBOX_ISOLATION outside it (see docs/guides/sandbox.md)" >&2
  exit 1
fi
