// The messages the parts of a script process exchange, as types only (nothing here runs).
import type { MessagePort } from "node:worker_threads";

/** What the server sends a script process (../script-runner.ts). */
export type ServerMessage =
  | { type: "run"; content: string; runText: string }
  | { type: "reply"; id: number; text: string }
  | { type: "syncReply"; text: string }
  /**
   * An operation for the run's simulated page (pages.ts): `code`, checked by the process before
   * the worker compiles it in the page's realm, is the page's scripts or an evaluate function;
   * `fresh` opens a new document. Answered `{ type: "pageReply", id, text }`.
   */
  | PageMessage
  /**
   * The run is over: ready the process for the next run of the same script and caller (a fresh
   * realm, in the same worker when it is clean, else in a fresh one) and say "ready" again.
   */
  | { type: "next" };

/**
 * What the process hands its worker: the run, with why its body may not run (null: it may; checked
 * by the process, see body-check.ts), then the replies to its asynchronous calls.
 */
export type RunMessage = { type: "run"; content: string; runText: string; refused: string | null };
export type ReplyMessage = { type: "reply"; id: number; text: string };
export type PageMessage = { type: "page"; id: number; text: string; code?: string; fresh?: boolean };
/**
 * The run is over: the worker ends it (its timers cancelled, its calls dead) and answers `{ type:
 * "reset", clean }`, clean when none of its code can run again, so the worker may serve another run.
 */
export type ResetMessage = { type: "reset" };

/** What the worker gets when it starts: the flag and port of synchronous calls, and the text limit. */
export type WorkerData = { flag: SharedArrayBuffer; replies: MessagePort; maxText: number };
