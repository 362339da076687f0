// The floor for a map page's first paint, measured in the same Chromium in the same run as ours: a
// bare Leaflet page (Leaflet's own script and stylesheet, one tile layer, one marker) served from
// loopback. Its tiles are a 1×1 PNG from the same server, so nothing waits on a network.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LEAFLET_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', 'leaflet', 'dist');
const TILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4//8/AwAI/AL+hc2rNAAAAABJRU5ErkJggg==', 'base64');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Bare Leaflet</title>
    <link rel="stylesheet" href="/leaflet/leaflet.css" />
    <style>html, body, #map { height: 100%; margin: 0; }</style>
  </head>
  <body>
    <div id="map"></div>
    <script src="/leaflet/leaflet.js"></script>
    <script>
      const map = L.map('map').setView([40.5, -80.25], 9);
      L.tileLayer('/tiles/{z}/{x}/{y}.png', { attribution: 'bench' }).addTo(map);
      L.marker([40.5, -80.25]).addTo(map);
    </script>
  </body>
</html>
`;

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png' };

export interface BarePage {
  url: string;
  close(): Promise<void>;
}

export async function serveBareLeaflet(): Promise<BarePage> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, type: string, body: string | Buffer) => {
      response.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      response.end(body);
    };
    if (url.pathname === '/') return send(200, 'text/html; charset=utf-8', PAGE);
    if (url.pathname.startsWith('/tiles/')) return send(200, 'image/png', TILE);
    const match = /^\/leaflet\/((?:images\/)?[\w.-]+)$/.exec(url.pathname);
    if (!match) return send(404, 'text/plain', 'not here');
    readFile(path.join(LEAFLET_DIST, match[1]!)).then(
      (body) => send(200, TYPES[path.extname(match[1]!)] ?? 'application/octet-stream', body),
      () => send(404, 'text/plain', 'not here'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
