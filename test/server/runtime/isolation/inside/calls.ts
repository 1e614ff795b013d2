// The body's calls to page, builtins, keyboard, mouse and locators: each becomes JSON sent to the
// host (`post`, or `postSync` for a call answered at once), and its answer a value or an error of
// this context's own.
import { ErrorType, PromiseType, apply, hasOwn, keys } from "./intrinsics.js";
import { post, postSync } from "./host.js";
import { fromHost } from "./errors.js";
import { request, type Step } from "./markers.js";

/** How each method of an object is called: answered at once (as `page.url()`), or with a promise. */
export type Methods = Record<string, "sync" | "async">;
/** An object the body calls: page, builtins, keyboard, mouse, a locator. */
export type Surface = Record<string, (...args: unknown[]) => unknown>;

type Pending = { resolve: (value: unknown) => void; reject: (reason: unknown) => void; what: string };
const pending: Record<number, Pending> = Object.create(null);
let nextId = 1;

function callSync(on: string, method: string, given: ArrayLike<unknown>, chain?: Step[]): unknown {
  const text = request(on, method, given, chain);
  let reply: unknown;
  try {
    reply = postSync(text);
  } catch (_) {
    reply = undefined;
  }
  if (typeof reply !== "string" || reply === "") throw new ErrorType(`${on}.${method}: the page could not be reached`);
  return fromHost(reply, `${on}.${method}`);
}

function callAsync(on: string, method: string, given: ArrayLike<unknown>, chain?: Step[]): Promise<unknown> {
  return new PromiseType((resolve, reject) => {
    const text = request(on, method, given, chain);
    const id = nextId++;
    pending[id] = { resolve, reject, what: `${on}.${method}` };
    let sent = false;
    try {
      sent = post("call", id, text) === true;
    } catch (_) {
      sent = false;
    }
    if (!sent) {
      delete pending[id];
      reject(new ErrorType(`${on}.${method}: the page could not be reached`));
    }
  });
}

/** An object whose methods call the host as `on.method(...)`. */
export function surface(on: string, methods: Methods, chain?: Step[]): Surface {
  const object: Surface = {};
  const names = keys(methods);
  for (let i = 0; i < names.length; i++) {
    const method = names[i]!;
    object[method] =
      methods[method] === "sync"
        ? function () {
            return callSync(on, method, arguments, chain);
          }
        : function () {
            return callAsync(on, method, arguments, chain);
          };
  }
  return object;
}

/** Settles the asynchronous call `id` with the host's reply. */
export function deliver(id: number, reply: string): void {
  if (!apply(hasOwn, pending, [id])) return;
  const { resolve, reject, what } = pending[id]!;
  delete pending[id];
  try {
    resolve(fromHost(reply, what));
  } catch (error) {
    reject(error);
  }
}
