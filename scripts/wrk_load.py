"""wrk against one JSON POST endpoint of `tools serve`, for the benchmarks (bench-serve,
bench-plugins): calls/s, p50 and p99 in ms, and the count of non-2xx answers."""
import json
import os
import re
import subprocess
import tempfile


def post(port, path, body, connections, seconds):
    """Runs wrk with as many threads as connections, at most one per core."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write('wrk.method = "POST"\n')
        script.write('wrk.headers["Content-Type"] = "application/json"\n')
        script.write(f"wrk.body = {json.dumps(json.dumps(body))}\n")
    threads = min(connections, os.cpu_count() or 2)
    try:
        out = subprocess.run(
            ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency", "-s",
             script.name, f"http://127.0.0.1:{port}{path}"],
            capture_output=True, text=True, timeout=seconds + 60).stdout
    finally:
        os.unlink(script.name)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)

    def percentile(name):
        match = re.search(rf"\s{name}%\s+([\d.]+)(us|ms|s)", out)
        value, unit = float(match.group(1)), match.group(2)
        return value * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    return rate, percentile("50"), percentile("99"), int(errors.group(1)) if errors else 0
