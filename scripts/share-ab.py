#!/usr/bin/env python3
"""The per-node runners on a three-node loopback cluster (head 0 CPUs, two
nodes of 1 CPU), proofs handed on off and on (share_nodes 1000000) in
turn, split 2:

    target/python-test/venv/bin/python scripts/share-ab.py INPUT REPEAT

Prints a JSON line per solve: repeat, share_nodes, move, value, wall
seconds, nodes, proofs brought back. Nothing else should run meanwhile."""
import os, sys, tempfile, time, subprocess, json
import importlib.util
spec = importlib.util.spec_from_file_location(
    "sc", os.path.join(os.path.dirname(os.path.abspath(__file__)), "simulator-check.py"))
sc = importlib.util.module_from_spec(spec); spec.loader.exec_module(sc)
import ray, stakeraid
from stakeraid import cluster
text = open(sys.argv[1]).read()
position = stakeraid.Position.from_input(text)
depth = int(text.splitlines()[3])
home = tempfile.mkdtemp(prefix="abshare-")
os.environ.pop("RAY_AUTH_MODE", None)
head = sc.free_port()
sc.ray_start(home, 0, "--head", "--port", str(head), "--include-dashboard", "false")
for _ in range(2):
    sc.ray_start(home, 1, "--address", f"127.0.0.1:{head}")
try:
    for rep in range(int(sys.argv[2])):
        for share in (None, 1_000_000):
            ray.init(address=f"127.0.0.1:{head}", include_dashboard=False, log_to_driver=False)
            start = time.perf_counter()
            a = cluster.solve(position, depth, split=2, per_node=True, share_nodes=share)
            wall = time.perf_counter() - start
            ray.shutdown()
            print(json.dumps([rep, share, a["best"], a["value"], round(wall, 2), a["stats"]["nodes"], a["stats"]["proofs"]]), flush=True)
finally:
    subprocess.run([sc.RAY, "stop", "--force"], capture_output=True, env={**os.environ, "HOME": home})
