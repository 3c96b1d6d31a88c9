#!/usr/bin/env bash
# Writes each folder's Courier client with courier-openapi (Client.swift, from the folder's
# openapi.yaml, copied unchanged from swift-openapi-generator 1.14.3) and its server with
# swift-openapi-generator (Types*.swift, Server.swift, as its openapi-generator-config.yaml says).
# OpenAI's server has a folder of its own, OpenAIServer, built with its warnings silenced: the
# generator's code for that document uses declarations the document marks deprecated.
#
#     swift build --product courier-openapi
#     SWIFT_OPENAPI_GENERATOR=/path/to/swift-openapi-generator OpenAPIDocuments/Peers/generate.sh
set -euo pipefail
cd "$(dirname "$0")"
# Without SWIFT_OPENAPI_GENERATOR, only the Courier clients are written.
generator="${SWIFT_OPENAPI_GENERATOR:-}"
courier="${COURIER_OPENAPI:-../../.build/debug/courier-openapi}"
for folder in */; do
    name="${folder%/}"
    document="$name/openapi.yaml"
    [ -f "$document" ] || document="${name%Server}/openapi.yaml"
    if [ -f "$name/openapi.yaml" ]; then
        "$courier" "$document" --output "$name/Client.swift"
    fi
    if [ -n "$generator" ] && [ -f "$name/openapi-generator-config.yaml" ]; then
        "$generator" generate "$document" --config "$name/openapi-generator-config.yaml" --output-directory "$name" >/dev/null
    fi
done
