// Load generators. Throughput: autocannon, closed loop (each of N connections sends its next request
// when the previous answered), counting non-2xx answers and socket errors as failures.
// Latency percentiles: an open loop of our own at a fixed rate, each latency measured from the time
// the request was due, not from when it was sent (coordinated-omission correction, as wrk2 does).
// autocannon's own rate limit sends each second's quota in a burst, and its correction passes
// Math.ceil(1 / rate) as the expected interval in ms (1 ms for any rate above 1/s), so its
// corrected percentiles are not used.
import http from "node:http";
import autocannon from "autocannon";

export type Throughput = { rps: number; requests: number; failures: number; p99: number };

export async function saturate(opts: {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  method?: string;
  body?: Buffer;
  amount?: number;
}): Promise<Throughput> {
  // autocannon takes a key that is present but undefined as a value ("undefined HTTP method").
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.seconds,
    timeout: 30,
    ...(opts.amount !== undefined && { amount: opts.amount }),
    ...(opts.headers && { headers: opts.headers }),
    ...(opts.method && { method: opts.method }),
    ...(opts.body && { body: opts.body }),
  });
  const requests = result["2xx"];
  return {
    rps: requests / result.duration,
    requests,
    failures: result.non2xx + result.errors + result.timeouts,
    p99: result.latency.p99,
  };
}

export type LatencyStats = { p50: number; p99: number; max: number; count: number; failures: number; rate: number };

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summarize(latencies: number[], failures: number, seconds: number): LatencyStats {
  const sorted = latencies.toSorted((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    count: latencies.length,
    failures,
    rate: latencies.length / seconds,
  };
}

type RequestSpec = { url: string; method?: string; headers?: Record<string, string>; body?: string };

function send(agent: http.Agent, spec: RequestSpec): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(spec.url, { agent, method: spec.method ?? "GET", headers: spec.headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(spec.body);
  });
}

/** Sends `rate` requests per second, evenly spaced, over at most `connections` sockets. */
export async function openLoop(opts: {
  request: RequestSpec | ((i: number) => RequestSpec);
  rate: number;
  seconds: number;
  connections: number;
}): Promise<LatencyStats> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const latencies: number[] = [];
  let failures = 0;
  const inFlight: Promise<void>[] = [];
  const total = Math.max(1, Math.round(opts.rate * opts.seconds));
  const intervalMs = 1000 / opts.rate;
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const spec = typeof opts.request === "function" ? opts.request(i) : opts.request;
    inFlight.push(
      send(agent, spec).then(
        (status) => {
          if (status >= 200 && status < 300) latencies.push(performance.now() - due);
          else failures++;
        },
        () => {
          failures++;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  return summarize(latencies, failures, (performance.now() - start) / 1000);
}

/** One request after another: the service time of a single request, without queueing. */
export async function sequential(spec: RequestSpec, opts: { seconds: number; maxRequests: number }): Promise<LatencyStats> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let failures = 0;
  const start = performance.now();
  while (performance.now() - start < opts.seconds * 1000 && latencies.length + failures < opts.maxRequests) {
    const t0 = performance.now();
    const status = await send(agent, spec).catch(() => 0);
    if (status >= 200 && status < 300) latencies.push(performance.now() - t0);
    else failures++;
  }
  agent.destroy();
  return summarize(latencies, failures, (performance.now() - start) / 1000);
}
