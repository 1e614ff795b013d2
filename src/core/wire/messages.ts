/**
 * What travels on the wire: a request as it goes out (its body whole or streamed) and one answer
 * as it arrived. Apart from exchange.ts so that the two ways a request leaves (over-node.ts,
 * over-fetch.ts), which the exchange chooses between, can name them without importing it.
 */
import type { Buffers } from "./buffers.js";

/** A body sent in pieces as they are read (a run's files, an app's file): never held whole. */
export interface StreamedBody {
  /** Its exact size, sent as Content-Length before the first byte. */
  length: number;
  /** The bytes in order, read into buffers taken from `buffers`; read once per attempt. */
  chunks(buffers: Buffers): AsyncIterable<Uint8Array>;
  /** Told the bytes sent so far, as they leave (only when someone listens). */
  onSent?: (sent: number) => void;
}

export type RequestBody = string | Uint8Array | StreamedBody;

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: RequestBody;
}

/** One answer, as it arrived. */
export interface Hop {
  status: number;
  statusText: string;
  /** Names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Every header line as it came (repeated ones, such as Set-Cookie, apart). */
  rawHeaders(): Array<[string, string]>;
  /** The whole body, at most `limit` bytes (AnswerTooLarge past it), under the attempt's guard. */
  read(limit: number): Promise<Uint8Array>;
  /** The body as it arrives, unbounded: for a download written to disk. `onClose` once it is over. */
  stream(onClose?: () => void): ReadableStream<Uint8Array>;
  /** Done with it: an upload still going (the server answered first) is ended, an unread body dropped. */
  finish(): void;
}
