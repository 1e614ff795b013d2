// The body's side of a run, evaluated in its context: the objects it is given (page, builtins,
// args, files), crypto and timers, and the entry points the host calls.
import { apply, parse, then } from "./intrinsics.js";
import { connect, type Post, type PostSync, type Random } from "./host.js";
import { type Methods, deliver, surface } from "./calls.js";
import { errorText } from "./errors.js";
import { addBuilders } from "./locators.js";
import { finish, returned } from "./outcome.js";
import { installCrypto } from "./crypto.js";
import { fire, installTimers, usedDeferred, watchDeferred } from "./timers.js";

/** The run as the host sends it: the body's args and files, and the methods of each object. */
type Run = {
  args: unknown;
  files: unknown;
  surface: {
    page: Methods;
    builtins: Methods;
    keyboard?: Methods;
    mouse?: Methods;
    locator?: Methods;
    builders?: { page: string[]; locator: string[] };
  };
};

/** The body, compiled: an async function of page, args, files and builtins. */
type Body = (page: unknown, args: unknown, files: unknown, builtins: unknown) => unknown;

function start(runText: string, body: Body): void {
  const run: Run = parse(runText);
  const page = surface("page", run.surface.page);
  const builtins = surface("builtins", run.surface.builtins);
  if (run.surface.keyboard) page.keyboard = surface("keyboard", run.surface.keyboard) as never;
  if (run.surface.mouse) page.mouse = surface("mouse", run.surface.mouse) as never;
  if (run.surface.locator && run.surface.builders) {
    addBuilders(page, run.surface.builders.page, undefined, { methods: run.surface.locator, builders: run.surface.builders.locator });
  }
  let promise: unknown;
  try {
    promise = body(page, run.args, run.files, builtins);
  } catch (error) {
    return finish({ ok: false, stage: "throw", error: errorText(error) });
  }
  apply(then, promise, [returned, (error: unknown) => finish({ ok: false, stage: "throw", error: errorText(error) })]);
}

/**
 * Connects the context to the host's `post(kind, id, text)`, `postSync(text)` and `random(count)`
 * (which return true/false, a string, and a string of 2 * count hex digits), puts crypto and the
 * timers on its globalThis, watches the callbacks no host can cancel, and returns the entry points
 * the host calls: start(runText, body), deliver(id, replyText), fire(timerId), describe(thrown) and
 * usedDeferred() (whether the body asked for one of those callbacks).
 *
 * @example
 * const { start } = inside(post, postSync, random, 1024 * 1024, "1 MiB");
 */
export function inside(post: Post, postSync: PostSync, random: Random, maxText: number, maxTextLabel: string) {
  connect({ post, postSync, random }, maxText, maxTextLabel);
  installCrypto();
  installTimers();
  watchDeferred();
  return { start, deliver, fire, describe: errorText, usedDeferred };
}
