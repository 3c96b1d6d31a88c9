"""The server that Archives/mitmproxy-books.har was recorded against (record.sh starts it)."""
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

count = 0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Served-By", "archive-server")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        global count
        if self.path == "/books?sort=title&limit=2":
            books = [{"id": 1, "title": "Dune"}, {"id": 2, "title": "Emma"}]
            self.answer(200, json.dumps(books).encode(), "application/json")
        elif self.path == "/counter":
            count += 1
            self.answer(200, json.dumps({"count": count}).encode(), "application/json")
        elif self.path == "/cover.png":
            self.answer(200, bytes(range(256)), "image/png")
        else:
            self.answer(404, b'{"error":"not found"}', "application/json")

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        body["id"] = 3
        self.answer(201, json.dumps(body).encode(), "application/json")

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
server.serve_forever()
