// Open-loop load: requests start on a fixed schedule (rate per second) whatever the answers do, each on its own
// keep-alive connection when the others are busy; latency counts from the scheduled start (no coordinated
// omission). Prints one JSON line. Run by open-loop.ts in its own process:
//   node bench/open-loop-client.mjs '{"url":…,"rate":…,"seconds":…,"method":…,"headers":{…},"body":…,"timeoutMs":…}'
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const o = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const body = o.body === undefined ? undefined : Buffer.from(o.body);
const headers = { ...(o.headers ?? {}), ...(body ? { 'content-length': String(body.length) } : {}) };
const latencies = [];
const status = {};
let errors = 0;
let timeouts = 0;
let pending = 0;
const total = Math.round(o.rate * o.seconds);
const start = performance.now();
let sent = 0;

function fire(scheduled) {
  pending++;
  const req = http.request(o.url, { method: o.method ?? 'GET', headers, agent, timeout: o.timeoutMs ?? 10_000 }, (res) => {
    res.resume();
    res.on('end', () => {
      latencies.push(performance.now() - scheduled);
      status[res.statusCode] = (status[res.statusCode] ?? 0) + 1;
      done();
    });
  });
  req.on('timeout', () => {
    timeouts++;
    req.destroy(new Error('timeout'));
  });
  req.on('error', () => {
    errors++;
    done();
  });
  req.end(body);
}

function done() {
  if (--pending === 0 && sent === total) report();
}

function tick() {
  const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * o.rate));
  while (sent < due) fire(start + (sent++ * 1000) / o.rate);
  if (sent < total) setTimeout(tick, 2);
  else if (pending === 0) report();
}

function report() {
  latencies.sort((a, b) => a - b);
  const q = (p) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]) : NaN);
  const cpu = process.cpuUsage();
  process.stdout.write(JSON.stringify({ sent, status, errors, timeouts, p50: q(0.5), p99: q(0.99), max: q(1), cpu: cpu.user + cpu.system }) + '\n');
  agent.destroy();
}

tick();
