// Splits a byte stream into lines with a hard bound: a line longer than `maxLine` is dropped whole
// (the rest of it is skipped up to the next newline) and counted, so a hostile or broken peer that
// never sends a newline cannot make the buffer grow past `maxLine` characters.
export class BoundedLines {
  private buffer = '';
  private skipping = false;

  constructor(
    private readonly maxLine: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverlong: () => void,
  ) {}

  push(text: string): void {
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      const piece = newline < 0 ? text.slice(start) : text.slice(start, newline);
      if (this.skipping) {
        if (newline >= 0) this.skipping = false;
      } else if (this.buffer.length + piece.length > this.maxLine) {
        this.buffer = '';
        this.onOverlong();
        this.skipping = newline < 0;
      } else if (newline < 0) {
        this.buffer += piece;
      } else {
        const line = this.buffer + piece;
        this.buffer = '';
        this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      }
      if (newline < 0) return;
      start = newline + 1;
    }
  }

  /** Characters held for an unfinished line (never more than maxLine). */
  get held(): number {
    return this.buffer.length;
  }

  reset(): void {
    this.buffer = '';
    this.skipping = false;
  }
}
