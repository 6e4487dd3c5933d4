// RFC 5734's framing: each EPP message is a 4-byte big-endian length (counting those 4 bytes
// themselves) followed by that many bytes of XML. A length beyond the limit ends the connection
// rather than buffering whatever a broken or hostile peer announces.

/** The largest frame either side accepts (an info of a domain with 13 hosts is a few kB). */
export const MAX_FRAME_BYTES = 1024 * 1024;

export class FrameError extends Error {}

export function encodeFrame(xml: string): Buffer {
  const body = Buffer.from(xml, 'utf8');
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length + 4);
  return Buffer.concat([head, body]);
}

/** Collects a stream's bytes and hands out whole frames. */
export class FrameReader {
  private buf: Buffer = Buffer.alloc(0);
  constructor(private readonly maxBytes = MAX_FRAME_BYTES) {}

  /** Adds bytes; returns every frame now complete (throws FrameError on a bad length). */
  push(chunk: Buffer): string[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: string[] = [];
    while (this.buf.length >= 4) {
      const total = this.buf.readUInt32BE(0);
      if (total <= 4) throw new FrameError(`Frame length ${total} is too small (it counts its own 4 bytes)`);
      if (total > this.maxBytes) throw new FrameError(`Frame length ${total} exceeds the limit of ${this.maxBytes} bytes`);
      if (this.buf.length < total) break;
      out.push(this.buf.subarray(4, total).toString('utf8'));
      this.buf = this.buf.subarray(total);
    }
    return out;
  }
}
