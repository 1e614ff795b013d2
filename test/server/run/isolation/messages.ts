// The messages the parts of a script process exchange, as types only (nothing here runs).
import type { MessagePort } from "node:worker_threads";

/** What the server sends a script process (../script-runner.ts). */
export type ServerMessage =
  | { type: "run"; content: string; runText: string }
  | { type: "reply"; id: number; text: string }
  | { type: "syncReply"; text: string }
  /** The run is over: end its worker, start a fresh one, say "ready" again (for the next run of the same script and caller). */
  | { type: "next" };

/**
 * What the process hands its worker: the run, with why its body may not run (null: it may; checked
 * by the process, see body-check.ts), then the replies to its asynchronous calls.
 */
export type RunMessage = { content: string; runText: string; refused: string | null };
export type ReplyMessage = { type: "reply"; id: number; text: string };

/** What the worker gets when it starts: the flag and port of synchronous calls, and the text limit. */
export type WorkerData = { flag: SharedArrayBuffer; replies: MessagePort; maxText: number };
