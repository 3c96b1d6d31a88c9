#!/usr/bin/env python3
"""A keep-alive HTTP/1.1 server for PipelineProfile's `ahc*` modes, in a process of its own so that
a profile or an allocation count of PipelineProfile sees the client alone. It answers every
request, whatever its method and path, with the benchmark user's JSON.

    python3 profile_server.py [PORT]      # default 18080, PipelineProfile's default PROFILE_SERVER
"""
import socket, sys, threading

BODY = (b'{"id":42,"login":"ada","name":"Ada Lovelace","email":"ada@example.com","company":"Analytical Engines",'
        b'"location":"London","bio":"First programmer","followers":1815,"following":1852,"isAdmin":false}')
RESPONSE = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY


def serve(connection):
    pending = b""
    try:
        while True:
            data = connection.recv(65536)
            if not data:
                return
            pending += data
            while b"\r\n\r\n" in pending:
                head, rest = pending.split(b"\r\n\r\n", 1)
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                if len(rest) < length:
                    break
                pending = rest[length:]
                connection.sendall(RESPONSE)
    finally:
        connection.close()


listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 18080))
listener.listen(128)
while True:
    connection, _ = listener.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
