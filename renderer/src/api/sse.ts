// An incremental reader of the text/event-stream format (the part the browser host sends: `data:`
// lines, blank-line frame ends, `:` comments). EventSource cannot send an Authorization header, so
// the page reads the stream with fetch and feeds the decoded text here chunk by chunk; a frame split
// across chunks is held until its blank line arrives.

export class SseParser {
  private buffer = '';
  private data: string[] = [];

  constructor(private readonly onData: (data: string) => void) {}

  /** Feeds decoded text; calls onData once per complete frame that carried data. */
  push(text: string): void {
    this.buffer += text;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) return;
      // A lone CR at the very end may be the first half of CRLF: wait for the next chunk.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) return;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) {
        const data = this.data.join('\n');
        this.data = [];
        this.onData(data);
      }
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
  }
}
