// How the next runs answer, when a test asks (startSandbox's `next()`): the real service's ways of
// answering that a user's code must handle, on demand. Kept per store, in the order asked; a shape
// of the request (429, a reset connection) is used by the next POST /run, a shape of a run (held,
// failed, no outcome) by the next run that reaches its body (each script of a batch is a run).

import type { ErrorType } from "./failures.js";

export type RunShape =
  /** The run takes `seconds` longer before its body runs: past the request's waitForSeconds, a 202 and a batch to poll. */
  | { held: number }
  /** The run fails as the service's do: 422 with this errorType and externalMessage (and `error`, default the message). */
  | { failed: { errorType: ErrorType; externalMessage: string; error?: string } }
  /** The run ends with neither result nor error (as a run on a signed-out managed browser). */
  | { noOutcome: true }
  /** POST /run is refused with 429 and `Retry-After: seconds`; no run is made. */
  | { rateLimited: { retryAfterSeconds: number } }
  /** The connection is cut before any answer (in-process: a network error). */
  | { reset: true };

const queues = new WeakMap<object, RunShape[]>();

function queueOf(store: object): RunShape[] {
  let queue = queues.get(store);
  if (!queue) queues.set(store, (queue = []));
  return queue;
}

/** Queues `shape` for the next `times` runs (or requests) of this store. */
export function shapeNextRuns(store: object, shape: RunShape, times = 1): void {
  for (let i = 0; i < times; i++) queueOf(store).push(shape);
}

function isRequestShape(shape: RunShape): shape is Extract<RunShape, { rateLimited: unknown } | { reset: true }> {
  return "rateLimited" in shape || "reset" in shape;
}

/** The shape of this POST /run, when the next queued one is a request's. */
export function takeRequestShape(store: object): Extract<RunShape, { rateLimited: unknown } | { reset: true }> | undefined {
  const queue = queues.get(store);
  const head = queue?.[0];
  if (!head || !isRequestShape(head)) return undefined;
  queue!.shift();
  return head;
}

/** The shape of this run, when the next queued one is a run's. */
export function takeRunShape(store: object): Exclude<RunShape, { rateLimited: unknown } | { reset: true }> | undefined {
  const queue = queues.get(store);
  const head = queue?.[0];
  if (!head || isRequestShape(head)) return undefined;
  queue!.shift();
  return head;
}

/** Drops every queued shape. */
export function clearShapes(store: object): void {
  queues.delete(store);
}
