#!/usr/bin/env bash
# Records mitmproxy-books.har: curl talks to archive_server.py through mitmproxy, which writes
# the exchanges as HAR. Needs python3 and mitmproxy (`pip install mitmproxy`); `swift test` needs
# neither, as the archive is committed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
server_port=18741
proxy_port=18742
python3 "$here/archive_server.py" "$server_port" &
server=$!
mitmdump --listen-host 127.0.0.1 --listen-port "$proxy_port" --set hardump="$here/mitmproxy-books.har" -q &
proxy=$!
trap 'kill $server $proxy 2>/dev/null || true' EXIT
sleep 3
base="http://127.0.0.1:$server_port"
via=(--silent --show-error --proxy "http://127.0.0.1:$proxy_port" --output /dev/null)
curl "${via[@]}" "$base/books?sort=title&limit=2"
curl "${via[@]}" "$base/counter"
curl "${via[@]}" "$base/counter"
curl "${via[@]}" -X POST -H "Content-Type: application/json" --data '{"title":"Ulysses"}' "$base/books"
curl "${via[@]}" "$base/cover.png"
kill -INT $proxy
wait $proxy || true
echo "wrote $here/mitmproxy-books.har"
