// The run's outcome, sent to the host once: the body's result as JSON, or why it failed.
import { stringify } from "./intrinsics.js";
import { maxText, maxTextLabel, post } from "./host.js";

/** What the host reads from `done`: the result's JSON, or the stage that failed and its words. */
export type Outcome = { ok: true; result: string } | { ok: false; stage: "throw" | "return"; error: string };

let finished = false;

/** Sends the outcome, once: whatever comes after (a late timer, a second rejection) is dropped. */
export function finish(outcome: Outcome): void {
  if (finished) return;
  finished = true;
  let text: string;
  try {
    text = stringify(outcome);
  } catch (_) {
    text = stringify({ ok: false, stage: "return", error: "Error: the script's result could not be sent" });
  }
  try {
    post("done", 0, text);
  } catch (_) {
    // Nothing left to tell: the run times out on the other side.
  }
}

/** Finishes with what the body returned, as JSON within the limit. */
export function returned(value: unknown): void {
  if (value === undefined) return finish({ ok: true, result: "null" });
  let text: string;
  try {
    text = stringify(value);
  } catch (error) {
    return finish({ ok: false, stage: "return", error: `Error: the script's result is not JSON (${error && (error as Error).message})` });
  }
  if (typeof text !== "string") {
    return finish({ ok: false, stage: "return", error: `Error: the script's result is not JSON (a ${typeof value} has no JSON form)` });
  }
  if (text.length > maxText) return finish({ ok: false, stage: "return", error: `Error: the script's result is over ${maxTextLabel} as JSON` });
  finish({ ok: true, result: text });
}
