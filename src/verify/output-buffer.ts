/**
 * A bounded output accumulator: keeps the first `headBytes` and the last `tailBytes`
 * of a byte stream, whatever its length. A check that prints 1 GB costs
 * `headBytes + tailBytes` of memory, never more: bytes are copied into two fixed
 * buffers chunk by chunk (the tail is a ring), nothing else is retained.
 */
export class HeadTailBuffer {
  readonly headBytes: number;
  readonly tailBytes: number;
  private readonly head: Buffer;
  private headLength = 0;
  private readonly ring: Buffer;
  /** Next write position in the ring. */
  private ringPos = 0;
  /** Bytes currently held in the ring (≤ tailBytes). */
  private ringLength = 0;
  /** Every byte ever pushed. */
  private total = 0;

  constructor(headBytes: number, tailBytes: number) {
    this.headBytes = Math.max(0, Math.floor(headBytes));
    this.tailBytes = Math.max(0, Math.floor(tailBytes));
    this.head = Buffer.alloc(this.headBytes);
    this.ring = Buffer.alloc(this.tailBytes);
  }

  /** Total bytes pushed so far (kept or not). */
  get totalBytes(): number {
    return this.total;
  }

  push(chunk: Uint8Array | string): void {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.total += bytes.length;
    if (this.headLength < this.headBytes) {
      const n = Math.min(this.headBytes - this.headLength, bytes.length);
      this.head.set(bytes.subarray(0, n), this.headLength);
      this.headLength += n;
      bytes = bytes.subarray(n);
    }
    if (bytes.length === 0 || this.tailBytes === 0) return;
    if (bytes.length >= this.tailBytes) {
      // The chunk alone fills the ring: keep its last tailBytes.
      this.ring.set(bytes.subarray(bytes.length - this.tailBytes), 0);
      this.ringPos = 0;
      this.ringLength = this.tailBytes;
      return;
    }
    const first = Math.min(bytes.length, this.tailBytes - this.ringPos);
    this.ring.set(bytes.subarray(0, first), this.ringPos);
    if (first < bytes.length) this.ring.set(bytes.subarray(first), 0);
    this.ringPos = (this.ringPos + bytes.length) % this.tailBytes;
    this.ringLength = Math.min(this.tailBytes, this.ringLength + bytes.length);
  }

  /** The ring's bytes in stream order. */
  private tail(): Buffer {
    if (this.ringLength < this.tailBytes) return this.ring.subarray(0, this.ringLength);
    return Buffer.concat([this.ring.subarray(this.ringPos), this.ring.subarray(0, this.ringPos)]);
  }

  /**
   * Head and tail decoded as UTF-8. When bytes were dropped, the two parts are joined
   * by `\n… [X bytes omitted] …\n`; partial multi-byte characters at the cut are
   * dropped (and counted as omitted) rather than decoded into replacement characters.
   */
  toString(): string {
    const head = this.head.subarray(0, this.headLength);
    const tail = this.tail();
    const omitted = this.total - head.length - tail.length;
    if (omitted === 0) return Buffer.concat([head, tail]).toString('utf8');
    const headCut = completeUtf8Prefix(head);
    const tailStart = utf8CharStart(tail);
    const shownHead = head.subarray(0, headCut);
    const shownTail = tail.subarray(tailStart);
    const dropped = omitted + (head.length - headCut) + tailStart;
    return `${shownHead.toString('utf8')}${omissionMarker(dropped)}${shownTail.toString('utf8')}`;
  }
}

export function omissionMarker(bytes: number): string {
  return `\n… [${bytes} bytes omitted] …\n`;
}

/** Length of the longest prefix of `buf` that does not end inside a multi-byte UTF-8 sequence. */
export function completeUtf8Prefix(buf: Uint8Array): number {
  const len = buf.length;
  // Walk back over at most 3 continuation bytes to the lead byte of the last character.
  let i = len - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && ((buf[i] as number) & 0xc0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return len;
  const lead = buf[i] as number;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need > continuation + 1 ? i : len;
}

/** Index of the first byte of `buf` that is not a UTF-8 continuation byte (skips at most 3). */
export function utf8CharStart(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length && i < 3 && ((buf[i] as number) & 0xc0) === 0x80) i++;
  return i;
}
