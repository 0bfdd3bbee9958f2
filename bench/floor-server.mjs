// The floor a read is measured against (issue "reads at the floor"): a bare node:http server with one `pg` pool that
// runs exactly the SQL Vellum ran for the same request (recorded by bench/record-queries.ts) and sends the rows as
// JSON — no token check, no query language, no framework. Usage: node bench/floor-server.mjs <routes.json>
// routes.json: { "databaseUrl": "...", "poolMax": 10, "routes": { "/s0": [{ "text", "values" }, …] } }
// The first statement's rows are `data`; the rows of any further statement (counts) go under `meta`, as Vellum's
// reader runs them: in parallel with the list. Prints the port on stdout when listening.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const pool = new pg.Pool({ connectionString: spec.databaseUrl, max: spec.poolMax ?? 10 });
const routes = new Map(Object.entries(spec.routes));
// keyed by the URL alone: each measured read gets its own path (/s0, /s1, …), whatever method Vellum was asked with

const server = http.createServer((req, res) => {
  const statements = routes.get(req.url);
  if (!statements) {
    res.writeHead(404).end();
    return;
  }
  req.resume();
  Promise.all(statements.map((s) => pool.query(s))).then(
    ([list, ...counts]) => {
      const body = counts.length ? { data: list.rows, meta: counts.map((c) => c.rows[0]) } : { data: list.rows };
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    },
    (e) => res.writeHead(500).end(String(e)),
  );
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
