/** One message as bytes: a 4-byte big-endian length, then the message as JSON (see frames.mjs). */
export declare function frame(message: unknown): Buffer;
/** Reads frames from a stream's chunks, refusing one announced over `maxBytes` from its header. */
export declare class FrameReader {
  constructor(maxBytes: number, onMessage: (message: any) => void, onOversize: (bytes: number) => void);
  push(chunk: Buffer): void;
  stop(): void;
}
