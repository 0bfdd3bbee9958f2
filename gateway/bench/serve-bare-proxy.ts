// The floor of any node:http proxy: a bare keep-alive pass-through (no request id, limits, token checks, headers)
// in front of the URL given as argv[2]. Only for the overhead benchmark's comparison.
import http from 'node:http';

const target = new URL(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256, scheduling: 'lifo' });
const server = http.createServer((req, res) => {
  const up = http.request({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', () => {
    res.statusCode = 502;
    res.end();
  });
  req.pipe(up);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`));
