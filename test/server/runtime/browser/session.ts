// POST /run's session in the real browser: a context is opened at a step's first call to the page
// (a body that never touches it costs no browser), kept across the steps of a sequential batch, and
// closed when the session ends.
import type { BrowserSession, StepEnd } from "../session-shape.js";
import { realPageHost } from "./bridge.js";
import type { BrowserHost } from "./host.js";
import type { BrowserRun } from "./run.js";

/**
 * A session on `host`'s warm browser. `actionTimeoutMs` bounds each wait of a step (a click, a
 * navigation); the run's own time limit bounds the whole.
 *
 * @example
 * const session = realSession(host, 30_000);
 * const step = session.step({ files, content, deliver });
 * await runScriptBody({ ..., host: step.host });
 * const { steps, screenshots } = await step.end({ failed: false });
 * await session.close();
 */
export function realSession(host: BrowserHost, actionTimeoutMs: number): BrowserSession {
  /** The last step's run, finished but with its context (and page) kept for the next step. */
  let last: BrowserRun | undefined;
  /** The last step's end (its screenshot): the next step, and closing, wait for it. */
  let ending: Promise<unknown> = Promise.resolve();
  return {
    step({ content, deliver }) {
      const options = { files: content, deliver, actionTimeoutMs };
      let opened: Promise<BrowserRun> | undefined;
      const open = () =>
        (opened ??= ending.then(() =>
          last
            ? last.next(options)
            : host.newRun(options).catch((error: unknown) => {
                const [message = ""] = (error as Error).message.split("\n");
                throw new Error(message.startsWith("the sandbox's browser") ? message : `the sandbox's browser could not start: ${message}`);
              }),
        ));
      return {
        host: realPageHost(open),
        end({ failed }): Promise<StepEnd> {
          const ended = (async () => {
            const run = await opened?.catch(() => undefined);
            if (!run) return { steps: [], screenshots: [] };
            const end = await run.finish({ failed, keepOpen: true });
            last = run;
            return end;
          })();
          ending = ended.catch(() => undefined);
          return ended;
        },
      };
    },
    async close() {
      await ending;
      await last?.close();
    },
  };
}
