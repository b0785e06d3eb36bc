#!/usr/bin/env python3
"""Measures a running `scripts/cluster.sh 3` cluster (balancer on 127.0.0.1:8080, servers on
8081-8083, state in TALLY_CLUSTER_DIR, default target/cluster), as the README reports it:

1. the rate limit across servers: one client address sends LIMIT + 15 answering requests;
2. the balancer's cost: p50/p95 of 400 requests direct to a server and through HAProxy, each
   from its own loopback address (so that none is limited);
3. a server killed: 8 s of requests through the balancer, server 2 killed with SIGKILL at 2 s;
   errors by status and requests per server (from the servers' logs);
4. the same server started again: seconds until it answers through the balancer.

    TALLY_CLUSTER_RATE=30 scripts/cluster.sh 3 &      # then, once it says it is up:
    scripts/cluster-check.py 30

Uses only Python's standard library. Stops server 2 at the end (the cluster script stops the rest).
"""
import collections
import http.client
import os
import re
import signal
import statistics
import subprocess
import sys
import time

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 60
DIR = os.path.realpath(os.environ.get("TALLY_CLUSTER_DIR", "target/cluster"))
BIN = os.environ.get("TALLY_BIN", "target/release/tally")
PATH = "/api/value?q=capacity+of+the+Rose+Bowl"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def get(port, src):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(src, 0))
    started = time.perf_counter()
    try:
        c.request("GET", PATH)
        r = c.getresponse()
        r.read()
        return r.status, (time.perf_counter() - started) * 1000
    except Exception as e:  # a refused or reset connection is an error to count
        return type(e).__name__, 0.0
    finally:
        c.close()


def address(k, block):
    return f"127.{block}.{k // 250}.{k % 250 + 2}"


def served(i):
    with open(f"{DIR}/logs/server-{i}.log", errors="replace") as log:
        return ANSI.sub("", log.read()).count("uri=/api/value")


# 1. One address over the limit.
statuses = collections.Counter(get(8080, "127.0.0.7")[0] for _ in range(LIMIT + 15))
print(f"one address, {LIMIT + 15} requests, limit {LIMIT}: {dict(statuses)}; "
      f"another address: {get(8080, '127.0.0.8')[0]}")

# 2. The balancer's cost.
def latencies(port, block):
    xs = sorted(get(port, address(k, block))[1] for k in range(400))
    return statistics.median(xs), xs[int(0.95 * len(xs))]

direct, through = latencies(8081, 10), latencies(8080, 20)
print(f"direct p50 {direct[0]:.2f} ms p95 {direct[1]:.2f}; through HAProxy p50 {through[0]:.2f} "
      f"ms p95 {through[1]:.2f}; added p50 {through[0] - direct[0]:.2f} ms")

# 3. Server 2 killed under load.
before = {i: served(i) for i in (1, 2, 3)}
with open(f"{DIR}/s2.pid") as f:
    pid = int(f.read())
statuses, started, killed, k = collections.Counter(), time.time(), None, 0
while time.time() - started < 8:
    if killed is None and time.time() - started > 2:
        os.kill(pid, signal.SIGKILL)
        killed = time.time() - started
    k += 1
    statuses[get(8080, address(k, 40))[0]] += 1
print(f"{k} requests in 8 s, server 2 killed at {killed:.1f} s: {dict(statuses)}; per server: "
      f"{ {i: served(i) - before[i] for i in before} }")

# 4. Server 2 started again.
env = dict(os.environ, DATABASE_URL="postgres://tally@127.0.0.1:55432/postgres")
with open(f"{DIR}/logs/server-2.log", "a") as log:
    started = time.time()
    server = subprocess.Popen([BIN, "serve", "--addr", "127.0.0.1:8082", "--index",
                               f"{DIR}/s2/index", "--search-index", f"{DIR}/s2/search-index",
                               "--trusted-proxy", "127.0.0.1"],
                              stdout=log, stderr=log, env=env)
    base, k = served(2), 0
    while time.time() - started < 60:
        k += 1
        get(8080, address(k, 80))
        if served(2) > base:
            print(f"server 2, started again, answers through the balancer "
                  f"{time.time() - started:.1f} s after its start")
            break
        time.sleep(0.05)
    else:
        print("server 2 did not answer through the balancer within 60 s")
    server.terminate()
    server.wait()
