#!/usr/bin/env bash
# Writes each document's client into Sources/<Name> as files, with courier-openapi:
#
#     swift build --product courier-openapi
#     OpenAPIDocuments/generate.sh
set -euo pipefail
cd "$(dirname "$0")"
courier="${COURIER_OPENAPI:-../.build/debug/courier-openapi}"
for folder in Documents/*/; do
    name="$(basename "$folder")"
    "$courier" "$folder/openapi.yaml" --output-directory "Sources/$name" 2>/dev/null
done
