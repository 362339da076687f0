// The page's bridge to the browser host holds a large answer (the site list of many sites) while the
// first frame of pins drawn from their positions is made: read as it comes, parsed once the hold is
// over; a small answer is never held. Against a host of our own on loopback.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { apiFromBridge, createHttpBridge, holdLargeAnswers } from '../../renderer/src/api/http-bridge';

describe('the bridge\'s hold of large answers', () => {
  it('parses a large answer only once the hold of the first frame is over, and never holds a small one', async () => {
    // A host of our own: a site list of megabytes, and a status of a few bytes.
    const large = { value: { name: 'x'.repeat(200_000) } };
    let listSent!: () => void;
    const sent = new Promise<void>((resolve) => (listSent = resolve));
    const server = createServer((request, response) => {
      response.setHeader('Content-Type', 'application/json');
      const isList = request.url?.endsWith('/listSitesPacked') === true;
      if (isList) response.on('finish', listSent);
      response.end(JSON.stringify(isList ? large : { value: { online: true } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const api = apiFromBridge(createHttpBridge({ token: 't', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
      let release!: () => void;
      holdLargeAnswers(new Promise<void>((resolve) => (release = resolve)));
      let listed: unknown = null;
      const listing = api.listSitesPacked().then((value) => (listed = value));
      await sent;
      expect(await api.getStatus()).toEqual({ online: true });
      // The status, asked once the list had been sent whole, came while the list waits for the hold.
      expect(listed).toBeNull();
      release();
      await listing;
      expect(listed).toEqual(large.value);
      // Held no more: the next large answer is parsed as it comes.
      expect(await api.listSitesPacked()).toEqual(large.value);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
