"""A stub of SandboxFusion's ``/run_code`` for a server on 127.0.0.1: it runs the script it is sent
with this interpreter and answers in SandboxFusion's JSON. Served by the SandboxFusion backend's
tests and by the sandbox gate's."""

from __future__ import annotations

import json
import subprocess
import sys
import typing
from http.server import BaseHTTPRequestHandler


class StubSandboxFusion(BaseHTTPRequestHandler):
    requests_seen: typing.ClassVar[list] = []
    flood: typing.ClassVar[int] = 0  # answer with this many bytes of stdout instead of running

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.requests_seen.append(body)
        if self.flood:
            run = {"status": "Finished", "stdout": "\n" * self.flood, "return_code": 0}
            self.answer({"status": "Success", "run_result": run, "compile_result": None})
            return
        try:
            done = subprocess.run([sys.executable, "-c", body["code"]], input=body["stdin"] or "",
                                  capture_output=True, text=True, timeout=body["run_timeout"])  # fmt: skip
            run = {"status": "Finished", "stdout": done.stdout, "stderr": done.stderr[-500:],
                   "return_code": done.returncode}  # fmt: skip
        except subprocess.TimeoutExpired:
            run = {"status": "TimeLimitExceeded", "stdout": "", "stderr": "", "return_code": None}
        self.answer({"status": "Success", "run_result": run, "compile_result": None})

    def answer(self, answer: dict) -> None:
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass
