#!/bin/sh
# Chromium as the e2e runs start it (scripts/chromium.ts, ADR 364): Chromium keeps only the last
# --disable-features= (and --enable-features=) it is given, and Playwright passes its own list
# first. This merges every occurrence of each into one, so the project's features are disabled
# beside Playwright's (which may change with any upgrade), then becomes the real browser,
# $CHROMIUM_PATH (set by scripts/chromium.ts: Debian's /usr/bin/chromium unless overridden).
# Chromium keeps only the last of some other switches too (--blink-settings, --js-flags,
# --host-resolver-rules): one the project adds beside Playwright's would need merging here as well.
disable=""
enable=""
for arg do
  shift
  case $arg in
    --disable-features=*) disable="$disable,${arg#--disable-features=}" ;;
    --enable-features=*) enable="$enable,${arg#--enable-features=}" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
[ -n "$disable" ] && set -- "$@" "--disable-features=${disable#,}"
[ -n "$enable" ] && set -- "$@" "--enable-features=${enable#,}"
if [ -z "${CHROMIUM_PATH:-}" ] || [ "$CHROMIUM_PATH" -ef "$0" ]; then
  echo "CHROMIUM_PATH must name the browser (scripts/chromium.ts sets it)" >&2
  exit 126
fi
if [ ! -x "$CHROMIUM_PATH" ]; then
  printf '%s\n' "Chromium not found at $CHROMIUM_PATH (apt-get install -y chromium, or set CHROMIUM_PATH)" >&2
  exit 127
fi
exec "$CHROMIUM_PATH" "$@"
