// The page side of the browser host: the token is taken from the address fragment and removed from
// the address bar (kept for this tab so a reload works), and the event stream reader rebuilds
// frames however the bytes were split.
import { describe, expect, it } from 'vitest';
import { SseParser } from '../../renderer/src/api/sse';
import { takeToken } from '../../renderer/src/api/http-bridge';

function place(hash: string, stored: string | null = null) {
  const storage = new Map<string, string>(stored ? [['sitewalk.token', stored]] : []);
  const replaced: string[] = [];
  return {
    replaced,
    storage,
    place: {
      location: { hash, pathname: '/', search: '' },
      history: { state: null, replaceState: (_state: unknown, _title: string, url?: string | URL | null) => void replaced.push(String(url)) },
      storage: { getItem: (key: string) => storage.get(key) ?? null, setItem: (key: string, value: string) => void storage.set(key, value) },
    },
  };
}

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

describe('token from the address', () => {
  it('reads the token, removes it from the address bar and keeps it for this tab', () => {
    const { place: where, replaced, storage } = place(`#token=${TOKEN}`);
    expect(takeToken(where)).toBe(TOKEN);
    expect(replaced).toEqual(['/']);
    expect(storage.get('sitewalk.token')).toBe(TOKEN);
  });

  it('keeps the rest of the fragment', () => {
    const { place: where, replaced } = place(`#token=${TOKEN}&view=outbox`);
    expect(takeToken(where)).toBe(TOKEN);
    expect(replaced).toEqual(['/#view=outbox']);
  });

  it('uses the kept token after a reload (no fragment any more)', () => {
    const { place: where, replaced } = place('', TOKEN);
    expect(takeToken(where)).toBe(TOKEN);
    expect(replaced).toEqual([]);
  });

  it('refuses a malformed token but still removes it from the address bar', () => {
    const { place: where, replaced } = place('#token=<script>');
    expect(takeToken(where)).toBeNull();
    expect(replaced).toEqual(['/']);
  });
});

describe('event stream reader', () => {
  it('rebuilds frames split anywhere, with CRLF or LF, skipping comments', () => {
    const frames: string[] = [];
    const text = ': keep-alive\r\n\r\ndata: {"a":1}\r\n\r\ndata: line one\ndata: line two\n\n:comment\ndata:{"b":2}\n\n';
    for (const size of [1, 2, 3, 7, text.length]) {
      frames.length = 0;
      const chunked = new SseParser((data) => frames.push(data));
      for (let index = 0; index < text.length; index += size) chunked.push(text.slice(index, index + size));
      expect(frames, `chunks of ${size}`).toEqual(['{"a":1}', 'line one\nline two', '{"b":2}']);
    }
  });

  it('holds a frame back until its blank line arrives', () => {
    const frames: string[] = [];
    const parser = new SseParser((data) => frames.push(data));
    parser.push('data: unfinished\n');
    expect(frames).toEqual([]);
    parser.push('\n');
    expect(frames).toEqual(['unfinished']);
  });
});
