// A stand-in revisions service for the overhead benchmark: GET /revisions → a 20-row JSON list.
// argv[2] = milliseconds of CPU work per request (default 0): a realistic service spends about 1 ms.
import express from 'express';
import { listen } from '@vellum/http';

const workMs = Number(process.argv[2] ?? 0);
const rows = Array.from({ length: 20 }, (_, i) => ({
  id: i + 1,
  activity: i + 100,
  collection: 'articles',
  item: String(i),
  data: { title: `t${i}` },
  delta: null,
  parent: null,
  version: null,
}));
const app = express();
app.disable('x-powered-by');
app.get('/revisions', (_req, res) => {
  if (workMs > 0) {
    const until = process.hrtime.bigint() + BigInt(Math.round(workMs * 1e6));
    while (process.hrtime.bigint() < until) {
      /* busy: stands for query building, serialisation, permission checks */
    }
  }
  res.json({ data: rows });
});
// a request with a JSON body (as SEARCH carries a query; autocannon speaks no SEARCH): the proxy streams the body
app.post('/revisions', express.json(), (req, res) => {
  res.json({ data: rows.slice(0, Number((req.body as { query?: { limit?: number } }).query?.limit ?? rows.length)) });
});
app.get('/server/health', (_req, res) => {
  res.json({ status: 'ok', checks: {} });
});
void listen(app, 0).then((l) => console.log(`listening ${l.url}`));
