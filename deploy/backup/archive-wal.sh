#!/usr/bin/env bash
# archive_command of the primary: copies one finished WAL segment into the archive.
# Installed as /usr/local/lib/casino/backup/archive-wal.sh (root, 0755); postgresql.conf:
#
#   archive_command = '/usr/local/lib/casino/backup/archive-wal.sh %p %f'
#
# Arguments: %p (the segment's path, relative to the data directory) and %f (its name).
# WAL_ARCHIVE: the archive directory, owned by postgres (default /backup/wal); to change it,
# put it before the script in archive_command ('WAL_ARCHIVE=/x /usr/local/.../archive-wal.sh
# %p %f'), since the server's environment is not the shell's.
#
# A segment is copied to a hidden temporary name, flushed to disk, then linked under its
# own name (a hard link is atomic and never replaces a file): the archive holds a whole
# segment or none, even after a crash mid-copy. A segment already archived with the same
# bytes is success (PostgreSQL retries one whose success it did not hear of); the same name
# with other bytes is refused (status 1, the server keeps the segment and retries, and
# its log says why): two clusters writing to one archive, never to be hidden.
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 %p %f" >&2
  exit 2
fi
SEGMENT_PATH="$1"
SEGMENT_NAME="$2"
WAL_ARCHIVE="${WAL_ARCHIVE:-/backup/wal}"
DEST="$WAL_ARCHIVE/$SEGMENT_NAME"

if [ -e "$DEST" ]; then
  if cmp -s "$SEGMENT_PATH" "$DEST"; then
    exit 0
  fi
  echo "archive-wal: $DEST exists with other contents; refusing to overwrite it" >&2
  exit 1
fi

TMP="$WAL_ARCHIVE/.$SEGMENT_NAME.$$.tmp"
trap 'rm -f "$TMP"' EXIT
cp "$SEGMENT_PATH" "$TMP"
sync "$TMP"
ln "$TMP" "$DEST"
sync "$WAL_ARCHIVE"
