// Write load for bench/writes.ts, in its own process: `connections` keep-alive connections, each writing in a loop
// (closed loop) or, with `rate`, requests started on a fixed schedule (open loop, latency from the scheduled start).
// Each connection writes its own slice of the ids [idFrom, idTo) in turn, so two requests never wait on one row:
//   one:    PATCH <url>/<id> {"n": k}
//   many:   PATCH <url> {"keys": [<batch> ids of the slice], "data": {"n": k}}
//   create: POST <url> {"title": "…", "n": k}
//   nested: POST <url> {"title": "…", "n": k, "notes": [<batch − 1> × {"text": "…"}]}  (an item and its notes)
//   version: POST <url>/<id>/save {"n": k}  (url: the versions; the ids: `ids`, each connection its own slice)
// Prints one JSON line: requests answered by status, writes acknowledged (2xx × items per request), p50/p99/max ms.
//   node bench/write-load-client.mjs '{"url","mode","connections","seconds","idFrom","idTo","batch"?,"ids"?,"rate"?,"headers"}'
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const o = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: o.rate ? 64 : o.connections });
const perRequest = o.mode === 'many' || o.mode === 'nested' ? o.batch : 1;
const sliceSize = Math.floor((o.ids ? o.ids.length : o.idTo - o.idFrom) / o.connections);
const latencies = [];
const status = {};
let errors = 0;
// values never repeat across runs (a PATCH of the stored value writes nothing and records no revision)
let counter = Math.floor(Math.random() * 1e9);
let inFlight = 0;
const until = performance.now() + o.seconds * 1000;

/** The request a connection (slice) sends next. */
function nextRequest(slice, turn) {
  const first = o.idFrom + slice * sliceSize;
  const k = ++counter;
  if (o.mode === 'create') return { method: 'POST', path: o.url, body: { title: `created ${k}`, n: k } };
  if (o.mode === 'nested') {
    const notes = Array.from({ length: perRequest - 1 }, (_, i) => ({ text: `note ${i} of ${k}` }));
    return { method: 'POST', path: o.url, body: { title: `created ${k}`, n: k, notes } };
  }
  if (o.mode === 'version') return { method: 'POST', path: `${o.url}/${o.ids[slice * sliceSize + (turn % sliceSize)]}/save`, body: { n: k } };
  if (o.mode === 'many') {
    const start = first + ((turn * perRequest) % Math.max(perRequest, sliceSize - perRequest + 1));
    return { method: 'PATCH', path: o.url, body: { keys: Array.from({ length: perRequest }, (_, i) => start + i), data: { n: k } } };
  }
  return { method: 'PATCH', path: `${o.url}/${first + (turn % sliceSize)}`, body: { n: k } };
}

function send(r, started) {
  return new Promise((resolve) => {
    const body = Buffer.from(JSON.stringify(r.body));
    const req = http.request(
      r.path,
      { method: r.method, agent, headers: { ...o.headers, 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - started);
          status[res.statusCode] = (status[res.statusCode] ?? 0) + 1;
          resolve();
        });
      },
    );
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end(body);
  });
}

async function closedLoop(slice) {
  for (let turn = 0; performance.now() < until; turn++) await send(nextRequest(slice, turn), performance.now());
}

/** Open loop: request i starts at start + i / rate, on slice i % connections, whatever the answers do. */
async function openLoop() {
  const start = performance.now();
  const total = Math.round(o.rate * o.seconds);
  const turns = new Array(o.connections).fill(0);
  const all = [];
  let sent = 0;
  await new Promise((done) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * o.rate));
      for (; sent < due; sent++) {
        const slice = sent % o.connections;
        inFlight++;
        all.push(send(nextRequest(slice, turns[slice]++), start + (sent * 1000) / o.rate).then(() => inFlight--));
      }
      if (sent < total) setTimeout(tick, 1);
      else done();
    };
    tick();
  });
  await Promise.all(all);
}

await (o.rate ? openLoop() : Promise.all(Array.from({ length: o.connections }, (_, i) => closedLoop(i))));
latencies.sort((a, b) => a - b);
const q = (p) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] * 10) / 10 : NaN);
const ok = Object.entries(status).reduce((n, [s, c]) => (s.startsWith('2') ? n + c : n), 0);
const cpu = process.cpuUsage();
process.stdout.write(
  JSON.stringify({ status, errors, requests: latencies.length, writes: ok * perRequest, p50: q(0.5), p99: q(0.99), max: q(1), cpu: cpu.user + cpu.system }) +
    '\n',
);
agent.destroy();
