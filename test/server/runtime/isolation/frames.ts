// Messages between the server and a script process (script-process.ts), over one socket: each a
// 4-byte big-endian length and that many bytes of JSON. Shared by the server and the child (which
// gets it bundled in, as it runs without a loader). The length comes first so that a reader
// refuses a message over its limit from its header, before holding any of it.

/** One message as bytes. */
export function frame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
}

/**
 * Reads frames from a stream's chunks: `onMessage(value)` per whole frame, `onOversize(bytes)`
 * once (and nothing after) for a frame announced over `maxBytes`.
 *
 * @example
 * const reader = new FrameReader(1024, (message) => console.log(message), () => socket.destroy());
 * socket.on("data", (chunk) => reader.push(chunk));
 */
export class FrameReader<Message = unknown> {
  private chunks: Buffer[] = [];
  private held = 0;
  private stopped = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onMessage: (message: Message) => void,
    private readonly onOversize: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.stopped) return;
    this.chunks.push(chunk);
    this.held += chunk.length;
    for (;;) {
      if (this.held < 4) return;
      if (this.chunks[0]!.length < 4) this.chunks = [Buffer.concat(this.chunks)];
      const length = this.chunks[0]!.readUInt32BE(0);
      if (length > this.maxBytes) {
        this.stopped = true;
        this.chunks = [];
        return this.onOversize(length);
      }
      if (this.held < 4 + length) return;
      const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      const text = all.toString("utf8", 4, 4 + length);
      const rest = all.subarray(4 + length);
      this.chunks = rest.length ? [rest] : [];
      this.held = rest.length;
      let message: Message;
      try {
        message = JSON.parse(text) as Message;
      } catch {
        continue;
      }
      this.onMessage(message);
      if (this.stopped) return;
    }
  }

  /** Reads nothing more. */
  stop(): void {
    this.stopped = true;
    this.chunks = [];
  }
}
