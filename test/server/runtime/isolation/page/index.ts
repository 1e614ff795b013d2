// The simulated page's code, bundled by ../build.ts into one script text that the script worker
// evaluates in a realm of its own for each document a run's page opens (../script-worker.ts): the
// document, its page's own script, and the functions a script body gives to evaluate all live in
// that realm, inside the run's process, never in the sandbox. It talks to the worker through two
// functions given to start(), both taking and returning strings and numbers only: reply(id, text)
// and random(count). Nothing here depends on anything outside page/ and inside/.
import { connect } from "../inside/host.js";
import { watchDeferred, usedDeferred } from "../inside/timers.js";
import { parse, stringify } from "../inside/intrinsics.js";
import "./controls.js";
import { answer, type Op, whereabouts } from "./ops.js";
import { installWindow } from "./window.js";

type Reply = (id: number, text: string) => unknown;
type Random = (count: number) => unknown;

/** What the sandbox is told when an answer cannot be made into text within the limit. */
function refusal(name: string, message: string): string {
  return stringify({ ok: false, error: { name, message }, ...whereabouts() });
}

/**
 * Readies this realm as a page: its window's globals, and the entry points the worker calls.
 * `maxText` is the most an answer may carry (characters of JSON).
 *
 * @example
 * const { handle } = vm.runInContext(pageScript(), context).start(reply, random, 1024 * 1024, "1 MiB");
 */
export function start(reply: Reply, random: Random, maxText: number, maxTextLabel: string) {
  connect({ post: () => false, postSync: () => "", random }, maxText, maxTextLabel);
  installWindow();
  watchDeferred();
  const send = (id: number, text: string) => {
    try {
      reply(id, text);
    } catch (_) {
      // The worker's reply never throws; were it to, the sandbox's wait for this answer times out.
    }
  };
  return {
    /** Answers operation `id` (JSON text); `code` is what the worker compiled for it in this realm. */
    handle(id: number, text: string, code: unknown): void {
      let op: Op;
      try {
        op = parse(text);
      } catch (_) {
        return send(id, refusal("Error", "the operation could not be read"));
      }
      answer(op, code).then(
        (answered) => {
          let out: string | undefined;
          try {
            out = stringify({ ...answered, ...whereabouts() });
          } catch (error) {
            return send(id, refusal("Error", `its value can't be sent as JSON (${error instanceof Error ? error.message : "it has no JSON form"})`));
          }
          if (typeof out !== "string") return send(id, refusal("Error", "its value can't be sent as JSON"));
          if (out.length > maxText) return send(id, refusal("RangeError", `its result is over ${maxTextLabel} as JSON`));
          send(id, out);
        },
        () => send(id, refusal("Error", "the page could not answer")),
      );
    },
    usedDeferred,
  };
}

export type PageScript = { start: typeof start };
