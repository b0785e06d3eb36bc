#!/usr/bin/env python3
"""The cluster's fault test (issue 32, item 5), against a running `scripts/cluster.sh 3` started
with an admin token (balancer on 127.0.0.1:8080, servers on 8081-8083, state in
TALLY_CLUSTER_DIR, default target/cluster). `scripts/cluster-test.sh` starts the cluster, runs
this and stops it.

    scripts/cluster-fault.py [SECONDS] [DOCUMENTS]

For SECONDS (default 20) s, four clients send a mixed load through the balancer, each request
from its own loopback address: count answers (cached after the first on each server) and
feedback posts; a fifth takes part in the user study, session after session, each task's page
shown by one server and answered through whichever the balancer picks. At 2 s one upload of
DOCUMENTS (default 20,000) documents goes through the balancer; at 3 s, while the servers index
it, server 2 is killed with SIGKILL, and at 6 s it is started again. Printed: requests and errors
by kind and status, feedback and study rows posted and stored, the seconds from the upload's 202
until each server answers a question about it, the upload's job as any server shows it (once it
has ended, or after 45 s), and the seconds from server 2's restart until it answers and until it
holds the upload.

Uses only Python's standard library and `psql`.
"""
import collections
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
DOCUMENTS = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
DIR = os.path.realpath(os.environ.get("TALLY_CLUSTER_DIR", "target/cluster"))
BIN = os.environ.get("TALLY_BIN", "target/release/tally")
TOKEN = os.environ.get("TALLY_ADMIN_TOKEN", "cluster-test")
DATABASE_URL = os.environ.get("DATABASE_URL", "postgres://tally@127.0.0.1:55432/postgres")
BALANCER, PORTS = 8080, (8081, 8082, 8083)
COUNT = "/api/count?q=how+many+languages+are+spoken+in+indonesia"
UPLOADED = "/api/count?q=how+many+telescopes+does+the+quellmark+observatory+have&corpus=faults"


def request(port, method, path, body=None, headers=None, src="127.0.0.1"):
    """(status or the exception's name, parsed JSON or None)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(src, 0))
    try:
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        try:
            return r.status, json.loads(data)
        except ValueError:
            return r.status, None
    except Exception as e:  # a refused or reset connection is an error to count
        return type(e).__name__, None
    finally:
        c.close()


def psql(sql):
    out = subprocess.run(["psql", DATABASE_URL, "-tAc", sql], capture_output=True, text=True)
    return out.stdout.strip()


def upload_body():
    """DOCUMENTS JSONL documents, one of which the question asks about, as multipart form data."""
    lines = [json.dumps({"title": f"Depot report {i}",
                         "text": f"The Varn depot number {i} keeps {i % 40 + 3} trucks and "
                                 f"{i % 7 + 1} cranes for the harbour."}) for i in range(DOCUMENTS - 1)]
    lines.append(json.dumps({"title": "Quellmark observatory",
                             "text": "The Quellmark observatory has 9 telescopes on its hill."}))
    boundary = uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="corpus"\r\n\r\nfaults\r\n',
             f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="faults.jsonl"'
             f'\r\nContent-Type: application/x-ndjson\r\n\r\n' + "\n".join(lines) + "\r\n",
             f"--{boundary}--\r\n"]
    return "".join(parts).encode(), f"multipart/form-data; boundary={boundary}"


start = time.time()
def now():
    return time.time() - start


def form_action(page, name):
    return next((a for a in re.findall(r'action="([^"]*)"', page) if name in a), None)


def quoted_after(page, marker):
    at = page.find(marker)
    if at < 0:
        return None
    rest = page[at + len(marker):]
    return re.split(r'["<]', rest, maxsplit=1)[0]


def page(path, src, method="GET", form=None):
    """(status, body text, Location) of a page request, as a browser without JavaScript."""
    c = http.client.HTTPConnection("127.0.0.1", BALANCER, timeout=60, source_address=(src, 0))
    try:
        body = urllib.parse.urlencode(form or []) if method == "POST" else None
        headers = {"Accept": "text/html"}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        c.request(method, path, body=body, headers=headers)
        r = c.getresponse()
        return r.status, r.read().decode(errors="replace"), r.getheader("Location")
    except Exception as e:
        return type(e).__name__, "", None
    finally:
        c.close()


study_answered = [0]


def participant():
    """Study sessions, one after another, each from its own address, until the load stops."""
    n = 0
    while not stop.is_set():
        n += 1
        src = f"127.60.{n // 250 % 250}.{n % 250 + 2}"
        status, intro, _ = page("/study", src)
        start_action = form_action(intro, "start_study")
        status, _, session_url = page(start_action, src, "POST") if start_action else (status, "", None)
        with lock:
            results[("study start", status)] += 1
        if not session_url or "/study/s/" not in session_url:
            time.sleep(0.5)
            continue
        session = session_url.rsplit("/", 1)[-1]
        while not stop.is_set():
            status, task, _ = page(session_url, src)
            if 'id="completion-code"' in task or status != 200:
                break
            action = form_action(task, "answer_study_task")
            if action is None:
                with lock:
                    results[("study task page without a form", status)] += 1
                break
            form = [("form[session]", session),
                    ("form[index]", quoted_after(task, 'name="form[index]" value="')),
                    ("form[shown_at_ms]", quoted_after(task, 'name="form[shown_at_ms]" value="')),
                    ("form[choice]", quoted_after(task, 'id="choice-'))]
            status, _, _ = page(action, src, "POST", form)
            with lock:
                results[("study response", status)] += 1
                if status == 302:
                    study_answered[0] += 1


status, first = request(BALANCER, "GET", COUNT, src="127.0.0.2")
answer_id = first and first.get("answer_id")
if status != 200 or answer_id is None:
    sys.exit(f"the first count answer failed: {status} {first}")
feedback_before = int(psql("SELECT count(*) FROM feedback") or 0)
responses_before = int(psql("SELECT count(*) FROM study_responses") or 0)

results = collections.Counter()
posted = [0]
lock = threading.Lock()
stop = threading.Event()


def client(n):
    k = 0
    while not stop.is_set():
        k += 1
        src = f"127.{50 + n}.{k // 250 % 250}.{k % 250 + 2}"
        if k % 5 == 0:
            body = json.dumps({"part": "answer", "answer_id": answer_id, "verdict": "correct",
                               "client_token": str(uuid.uuid4())})
            status, _ = request(BALANCER, "POST", "/api/feedback", body,
                                {"Content-Type": "application/json"}, src)
            kind = "feedback"
        else:
            status, _ = request(BALANCER, "GET", COUNT, src=src)
            kind = "count"
        with lock:
            results[(kind, status)] += 1
            if kind == "feedback" and status in (200, 201):
                posted[0] += 1


answerable = {}
uploaded_at = [None]
job = [None]


def upload():
    time.sleep(max(0.0, 2 - now()))
    body, kind = upload_body()
    status, created = request(BALANCER, "POST", "/api/admin/corpora", body,
                              {"Content-Type": kind, "Authorization": f"Bearer {TOKEN}"},
                              "127.9.0.2")
    uploaded_at[0] = now()
    job[0] = created
    if status != 202:
        print(f"the upload was refused: {status} {created}")
        return
    while now() < SECONDS + 60 and len(answerable) < len(PORTS):
        for port in PORTS:
            if port not in answerable:
                status, body = request(port, "GET", UPLOADED, src="127.9.0.3")
                if status == 200 and body and body.get("answer", {}).get("count") == 9.0:
                    answerable[port] = now() - uploaded_at[0]
        time.sleep(0.1)


restart = {}


def kill_and_restart():
    time.sleep(max(0.0, 3 - now()))
    with open(f"{DIR}/s2.pid") as f:
        os.kill(int(f.read()), signal.SIGKILL)
    restart["killed"] = now()
    time.sleep(max(0.0, 6 - now()))
    env = dict(os.environ, DATABASE_URL=DATABASE_URL)
    log = open(f"{DIR}/logs/server-2.log", "a")
    restart["process"] = subprocess.Popen(
        [BIN, "serve", "--addr", "127.0.0.1:8082", "--index", f"{DIR}/s2/index",
         "--search-index", f"{DIR}/s2/search-index", "--trusted-proxy", "127.0.0.1",
         "--admin-token", TOKEN],
        stdout=log, stderr=log, env=env)
    restart["started"] = now()
    while now() < SECONDS + 90:
        status, health = request(8082, "GET", "/api/health", src="127.9.0.4")
        if "ready" not in restart and status == 200 and health["answering"]["ready"] is True:
            restart["ready"] = now() - restart["started"]
        if "ready" in restart:
            status, body = request(8082, "GET", UPLOADED, src="127.9.0.4")
            if status == 200:
                restart["caught_up"] = now() - restart["started"]
                return
        time.sleep(0.1)


threads = [threading.Thread(target=client, args=(n,)) for n in range(4)]
threads.append(threading.Thread(target=participant))
helpers = [threading.Thread(target=upload), threading.Thread(target=kill_and_restart)]
for t in threads + helpers:
    t.start()
time.sleep(max(0.0, SECONDS - now()))
stop.set()
for t in threads:
    t.join()
for t in helpers:
    t.join()

total = sum(results.values())
errors = {f"{kind} {status}": n for (kind, status), n in sorted(results.items(), key=str)
          if status not in (200, 201, 302, 303)}
by_kind = {f"{kind} {status}": n for (kind, status), n in sorted(results.items(), key=str)}
print(f"{total} requests in {SECONDS:.0f} s through the balancer: {by_kind}")
print(f"errors: {errors or 'none'}")
stored = int(psql("SELECT count(*) FROM feedback") or 0) - feedback_before
print(f"feedback posted and accepted: {posted[0]}; rows stored: {stored}")
stored = int(psql("SELECT count(*) FROM study_responses") or 0) - responses_before
print(f"study responses posted and accepted: {study_answered[0]}; rows stored: {stored}")
print(f"server 2 killed at {restart.get('killed', 0):.1f} s, started again at "
      f"{restart.get('started', 0):.1f} s; ready {restart.get('ready', float('nan')):.1f} s and "
      f"holding the upload {restart.get('caught_up', float('nan')):.1f} s after its start")
if uploaded_at[0] is not None and job[0]:
    when = {f"server {port - 8080}": f"{answerable[port]:.1f} s" if port in answerable else "never"
            for port in PORTS}
    print(f"upload answered 202 at {uploaded_at[0]:.1f} s; answerable after: {when}")
    waited = time.time()
    while True:
        status, seen = request(BALANCER, "GET", f"/api/admin/jobs/{job[0]['id']}",
                               src="127.9.0.5")
        if status != 200 or seen.get("state") != "running" or time.time() - waited > 45:
            break
        time.sleep(0.5)
    print(f"its job through the balancer, {now() - uploaded_at[0]:.1f} s after the 202: {status} "
          f"{seen and seen.get('state')} {seen and (seen.get('error') or '')}")
if "process" in restart:
    restart["process"].terminate()
    restart["process"].wait()
