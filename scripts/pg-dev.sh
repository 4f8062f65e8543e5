#!/usr/bin/env bash
# A throw-away local PostgreSQL for development: installs Debian's postgresql when it is missing (as root), starts a
# cluster, prints its DATABASE_URL and stops it on exit (see scripts/pg-dev.ts; `npm run pg:dev` is the same).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    echo "PostgreSQL is not installed: sudo apt-get install -y postgresql" >&2
    exit 1
  fi
  echo "Installing Debian's postgresql…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi
exec npx tsx scripts/pg-dev.ts "$@"
