// Bare ampersands in KML text as it arrives in pieces. A hand-written <name>Tom & Jerry</name> is not
// XML, but the DOM reader we replaced took the "&" as text, so every "&" that starts no entity or
// character reference is written "&amp;" before saxes sees it — outside CDATA sections and
// comments, where it already is text. A piece's end that may be the start of a reference or of a
// section is held until the next piece decides it. Browser-safe.

const REFERENCE = /&(?:[A-Za-z_][\w.-]*;|#[0-9]+;|#x[0-9A-Fa-f]+;)/y;
/** What may still become a reference once more text arrives. */
const REFERENCE_START = /&(?:[A-Za-z_][\w.-]*|#[0-9]*|#x[0-9A-Fa-f]*)?$/y;
/** A name this long is no entity a KML writer uses: it is passed on as it is (saxes then judges it). */
const HELD_REFERENCE_CHARS = 1024;
const CDATA_OPEN = '<![CDATA[';
const COMMENT_OPEN = '<!--';

type Mode = 'text' | 'cdata' | 'comment';

export class AmpersandEscaper {
  private mode: Mode = 'text';
  private held = '';

  /** The piece with its bare ampersands escaped; a few characters at its end may wait for the next piece. */
  push(piece: string): string {
    return this.run(this.held + piece, false);
  }

  /** What was held back, now that no more text comes. */
  end(): string {
    return this.run(this.held, true);
  }

  private run(text: string, last: boolean): string {
    this.held = '';
    let out = '';
    let at = 0;
    while (at < text.length) {
      if (this.mode !== 'text') {
        const close = this.mode === 'cdata' ? ']]>' : '-->';
        const end = text.indexOf(close, at);
        if (end === -1) {
          // Keep what could be the start of the closing marker.
          const keep = last ? text.length : Math.max(at, text.length - (close.length - 1));
          out += text.slice(at, keep);
          this.held = text.slice(keep);
          return out;
        }
        out += text.slice(at, end + close.length);
        at = end + close.length;
        this.mode = 'text';
        continue;
      }
      const amp = text.indexOf('&', at);
      const bang = text.indexOf('<!', at);
      const next = amp === -1 ? bang : bang === -1 ? amp : Math.min(amp, bang);
      if (next === -1) {
        // A "<" at the very end may begin "<!".
        const keep = !last && text.endsWith('<') ? text.length - 1 : text.length;
        out += text.slice(at, keep);
        this.held = text.slice(keep);
        return out;
      }
      out += text.slice(at, next);
      if (next === bang) {
        const rest = text.length - next;
        const cdata = text.startsWith(CDATA_OPEN, next);
        const comment = text.startsWith(COMMENT_OPEN, next);
        if (!last && !cdata && !comment && (CDATA_OPEN.startsWith(text.slice(next, next + CDATA_OPEN.length)) || COMMENT_OPEN.startsWith(text.slice(next, next + COMMENT_OPEN.length))) && rest < CDATA_OPEN.length) {
          this.held = text.slice(next);
          return out;
        }
        const marker = cdata ? CDATA_OPEN : comment ? COMMENT_OPEN : '<!';
        if (cdata) this.mode = 'cdata';
        else if (comment) this.mode = 'comment';
        out += marker;
        at = next + marker.length;
        continue;
      }
      REFERENCE.lastIndex = next;
      const reference = REFERENCE.exec(text);
      if (reference !== null) {
        out += reference[0];
        at = next + reference[0].length;
        continue;
      }
      REFERENCE_START.lastIndex = next;
      if (!last && REFERENCE_START.test(text)) {
        if (text.length - next <= HELD_REFERENCE_CHARS) {
          this.held = text.slice(next);
          return out;
        }
        out += '&';
        at = next + 1;
        continue;
      }
      out += '&amp;';
      at = next + 1;
    }
    return out;
  }
}

/** The whole text at once, as one piece. */
export function escapeBareAmpersands(text: string): string {
  if (!text.includes('&')) return text;
  const escaper = new AmpersandEscaper();
  return escaper.push(text) + escaper.end();
}
