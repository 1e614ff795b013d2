// The worker thread one script body runs in (plain JavaScript: Node loads it as is, with no loader).
// script-process.mjs starts it, in a process of its own that the server kills when the run ends or
// times out; it hands it one run.
//
// The body runs in a fresh `vm` context, a realm of its own. A context alone is no boundary: any
// object of this (outer) realm that reaches the body leads back here through its constructor
// (`x.constructor.constructor("return process")()`). So no outer object ever enters the context:
// - `page`, `builtins`, `args` and `files` are built by `inside` (below), evaluated in the context;
// - `inside` talks to this realm through three functions (post, postSync, random) it keeps in its
//   closure, never shows the body, and calls only inside try/catch that drops whatever they threw
//   (an outer error, even a stack overflow raised on entering them);
// - both ways carry strings (JSON) and numbers only, and this side only checks their `typeof`
//   (what JSON has no form for crosses as marker objects: a function given to page.evaluate as its
//   source text, taken with the context's own Function.prototype.toString, which runs in the browser
//   page; a regular expression as its source and flags; a locator as the calls that made it);
// - the context cannot compile code from strings (no eval, no Function), so every line it runs is
//   the body checked here: `import()` is refused before it can run, because on Node 20 the host's
//   answer to `import()` (even when a callback is set) can be an outer error object.
import { randomBytes } from "node:crypto";
import vm from "node:vm";
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { Parser } from "acorn";
import { webGlobals } from "./web-globals.mjs";

/** Largest text a call or the result may be (characters of JSON), and how it is said. */
const maxText = Number(workerData.maxText) || 1024 * 1024;
const maxTextLabel = maxText % (1024 * 1024) === 0 ? `${maxText / (1024 * 1024)} MiB` : `${maxText} characters`;

/** Sync calls: the worker waits on this flag until the main thread has put the answer on `replies`. */
const flag = new Int32Array(workerData.flag);
/** @type {import("node:worker_threads").MessagePort} */
const replies = workerData.replies;

/**
 * Evaluated inside the context (its source text is what counts, so it must not depend on anything
 * of this module). Returns the entry points this side calls: start(runText, body), deliver(id, replyText)
 * and fire(timerId).
 * `post(kind, id, text)`, `postSync(text)` and `random(count)` are this side's; they return
 * true/false, a string, and a string of 2 * count hex digits.
 */
function inside(post, postSync, random, maxText, maxTextLabel) {
  "use strict";
  // Taken now, before the body can replace them.
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const ErrorType = Error;
  const TypeErrorType = TypeError;
  const RangeErrorType = RangeError;
  const EvalErrorType = EvalError;
  const PromiseType = Promise;
  const StringType = String;
  const apply = Reflect.apply;
  const then = Promise.prototype.then;
  const keys = Object.keys;
  const hasOwn = Object.prototype.hasOwnProperty;
  const functionSource = Function.prototype.toString;
  const regexpSource = Object.getOwnPropertyDescriptor(RegExp.prototype, "source").get;
  const regexpFlags = Object.getOwnPropertyDescriptor(RegExp.prototype, "flags").get;
  const WeakMapType = WeakMap;
  const weakGet = WeakMap.prototype.get;
  const weakSet = WeakMap.prototype.set;
  const arrayFrom = Array.from;
  const pending = Object.create(null);
  let nextId = 1;
  let finished = false;

  function errorText(thrown) {
    try {
      // V8's own words ("Code generation from strings disallowed for this context") say less.
      if (thrown instanceof EvalErrorType) return "EvalError: scripts can't run code given as a string (eval, Function): write it in the script";
      if (thrown instanceof ErrorType) return `${thrown.name || "Error"}: ${thrown.message}`;
      const shown = typeof thrown === "string" ? thrown : stringify(thrown);
      return `Error: ${shown === undefined ? StringType(thrown) : shown}`;
    } catch (_) {
      return "Error: the script threw a value that can't be shown";
    }
  }

  function fromHost(reply, what) {
    let answer;
    try {
      answer = parse(reply);
    } catch (_) {
      throw new ErrorType(`${what}: no answer from the page`);
    }
    if (answer.ok) return answer.value;
    const error = new ErrorType(StringType(answer.error.message));
    if (answer.error.name !== "Error") error.name = StringType(answer.error.name);
    throw error;
  }

  // Values JSON has no form for, sent as one-key marker objects the host reads: a function as its
  // source text (page.evaluate runs it in the browser page, never here nor in the server), a regular
  // expression as its source and flags, a locator as the chain of calls that made it.
  const FUNCTION = "\u0000function";
  const REGEXP = "\u0000regexp";
  const LOCATOR = "\u0000locator";
  /** Locator objects this side made, and the chain each stands for. */
  const chains = new WeakMapType();

  function marked(key, value) {
    if (typeof value === "function") return { [FUNCTION]: apply(functionSource, value, []) };
    if (typeof value !== "object" || value === null) return value;
    const chain = apply(weakGet, chains, [value]);
    if (chain !== undefined) return { [LOCATOR]: chain };
    let source;
    try {
      source = apply(regexpSource, value, []);
    } catch (_) {
      return value;
    }
    return { [REGEXP]: [source, apply(regexpFlags, value, [])] };
  }

  /** `given` as a JSON array of arguments: trailing undefined ones dropped, as if not given. */
  function argumentsJson(what, given) {
    let count = given.length;
    while (count > 0 && given[count - 1] === undefined) count--;
    const list = [];
    for (let i = 0; i < count; i++) list[i] = given[i] === undefined ? null : given[i];
    let text;
    try {
      text = stringify(list, marked);
    } catch (error) {
      throw new TypeErrorType(`${what}: its arguments must be JSON values (${errorText(error)})`);
    }
    return text;
  }

  // The call as JSON; `chain` (already JSON) for a locator's.
  function request(on, method, given, chain) {
    const args = argumentsJson(`${on}.${method}`, given);
    // Refused here, before it leaves: the server never holds a call over the limit.
    if (args.length > maxText) throw new RangeErrorType(`${on}.${method}: its arguments are over ${maxTextLabel} as JSON`);
    return `{"on":${stringify(on)},"method":${stringify(method)},"args":${args}${chain === undefined ? "" : `,"chain":${stringify(chain)}`}}`;
  }

  function callSync(on, method, given, chain) {
    const text = request(on, method, given, chain);
    let reply;
    try {
      reply = postSync(text);
    } catch (_) {
      reply = undefined;
    }
    if (typeof reply !== "string" || reply === "") throw new ErrorType(`${on}.${method}: the page could not be reached`);
    return fromHost(reply, `${on}.${method}`);
  }

  function callAsync(on, method, given, chain) {
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

  function surface(on, methods, chain) {
    const object = {};
    const names = keys(methods);
    for (let i = 0; i < names.length; i++) {
      const method = names[i];
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

  // Locators, made here as Playwright makes them (no call to the page until an action): each is
  // the chain of builder calls that made it, sent with each of its actions.
  function describeChain(chain) {
    let text = "";
    for (let i = 0; i < chain.length; i++) {
      const step = chain[i];
      let shown = "";
      for (let j = 1; j < step.length; j++) shown += (j > 1 ? ", " : "") + stringify(step[j]);
      text += `${i ? "." : ""}${step[0]}(${shown})`;
    }
    return text;
  }

  function addBuilders(object, names, chain, actions) {
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      object[name] = function () {
        // Taken now, as Playwright does: changing an options object later changes no locator.
        const args = parse(argumentsJson(name, arguments));
        const step = [name];
        for (let j = 0; j < args.length; j++) step[j + 1] = args[j];
        const next = [];
        const length = chain ? chain.length : 0;
        for (let j = 0; j < length; j++) next[j] = chain[j];
        next[length] = step;
        return locator(next, actions);
      };
    }
  }

  function locator(chain, actions) {
    const object = surface("locator", actions.methods, chain);
    addBuilders(object, actions.builders, chain, actions);
    if (object.count) {
      object.all = function () {
        return apply(then, object.count(), [(count) => arrayFrom({ length: count }, (_, i) => object.nth(i))]);
      };
    }
    object.toString = function () {
      return describeChain(chain);
    };
    apply(weakSet, chains, [object, chain]);
    return object;
  }

  // Web Crypto's two synchronous calls, as scripts use them (crypto.randomUUID() in the catalogue's
  // examples), with random bytes from this side.
  function randomBytes(count) {
    let hex;
    try {
      hex = random(count);
    } catch (_) {
      hex = undefined;
    }
    if (typeof hex !== "string" || hex.length !== 2 * count) throw new ErrorType("crypto: no random bytes available");
    const bytes = new Uint8Array(count);
    for (let i = 0; i < count; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    return bytes;
  }
  const crypto = {
    getRandomValues(array) {
      if (!ArrayBuffer.isView(array) || array instanceof Float32Array || array instanceof Float64Array || array instanceof DataView) {
        throw new TypeErrorType("crypto.getRandomValues: give an integer typed array");
      }
      if (array.byteLength > 65536) throw new RangeError("crypto.getRandomValues: at most 65536 bytes at a time");
      new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(randomBytes(array.byteLength));
      return array;
    },
    randomUUID() {
      const b = randomBytes(16);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      let hex = "";
      for (let i = 0; i < 16; i++) hex += (b[i] < 16 ? "0" : "") + b[i].toString(16);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
  Object.defineProperty(globalThis, "crypto", { value: crypto, writable: true, configurable: true });

  // setTimeout and clearTimeout, as scripts wait with them (`await new Promise((r) => setTimeout(r, 500))`):
  // the timer runs on this side, which calls fire(id) when it is due.
  const timers = Object.create(null);
  let nextTimer = 1;
  function setTimeout(callback, delay, ...rest) {
    if (typeof callback !== "function") throw new TypeErrorType("setTimeout: give a function (code in a string is not run)");
    const id = nextTimer++;
    timers[id] = { callback, rest };
    const ms = +delay > 0 ? +delay : 0;
    let armed = false;
    try {
      armed = post("timer", id, StringType(ms)) === true;
    } catch (_) {
      armed = false;
    }
    if (!armed) {
      delete timers[id];
      throw new ErrorType("setTimeout: no timer available");
    }
    return id;
  }
  function clearTimeout(id) {
    if (typeof id === "number") delete timers[id];
  }
  function fire(id) {
    const timer = timers[id];
    if (!timer) return;
    delete timers[id];
    try {
      apply(timer.callback, undefined, timer.rest);
    } catch (error) {
      // Uncaught in a timer, as in Node: the run fails with it.
      finish({ ok: false, stage: "throw", error: errorText(error) });
    }
  }
  Object.defineProperty(globalThis, "setTimeout", { value: setTimeout, writable: true, configurable: true });
  Object.defineProperty(globalThis, "clearTimeout", { value: clearTimeout, writable: true, configurable: true });

  function finish(outcome) {
    if (finished) return;
    finished = true;
    let text;
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

  function returned(value) {
    if (value === undefined) return finish({ ok: true, result: "null" });
    let text;
    try {
      text = stringify(value);
    } catch (error) {
      return finish({ ok: false, stage: "return", error: `Error: the script's result is not JSON (${error && error.message})` });
    }
    if (typeof text !== "string") {
      return finish({ ok: false, stage: "return", error: `Error: the script's result is not JSON (a ${typeof value} has no JSON form)` });
    }
    if (text.length > maxText) return finish({ ok: false, stage: "return", error: `Error: the script's result is over ${maxTextLabel} as JSON` });
    finish({ ok: true, result: text });
  }

  function start(runText, body) {
    const run = parse(runText);
    const page = surface("page", run.surface.page);
    const builtins = surface("builtins", run.surface.builtins);
    if (run.surface.keyboard) page.keyboard = surface("keyboard", run.surface.keyboard);
    if (run.surface.mouse) page.mouse = surface("mouse", run.surface.mouse);
    if (run.surface.locator && run.surface.builders) {
      addBuilders(page, run.surface.builders.page, undefined, { methods: run.surface.locator, builders: run.surface.builders.locator });
    }
    let promise;
    try {
      promise = body(page, run.args, run.files, builtins);
    } catch (error) {
      return finish({ ok: false, stage: "throw", error: errorText(error) });
    }
    apply(then, promise, [returned, (error) => finish({ ok: false, stage: "throw", error: errorText(error) })]);
  }

  function deliver(id, reply) {
    if (!apply(hasOwn, pending, [id])) return;
    const { resolve, reject, what } = pending[id];
    delete pending[id];
    try {
      resolve(fromHost(reply, what));
    } catch (error) {
      reject(error);
    }
  }

  return { start, deliver, fire, describe: errorText };
}

/** The context's fire(id) and describe(thrown), once it exists. */
let fire = () => undefined;
let describe = () => "Error: the script failed";

// A rejection nobody handled fails the run with its reason, as it would end a Node process. Node's
// own handling would crash the worker and inspect the reason from this realm (calling a custom
// inspect function of the body's with this realm's objects), so it never gets the chance: the reason
// is only ever described by the context's own code. Anything else uncaught ends the run unread.
process.on("unhandledRejection", (reason) => {
  let text;
  try {
    text = describe(reason);
  } catch {
    text = undefined;
  }
  done({ ok: false, stage: "throw", error: typeof text === "string" ? text : "Error: the script failed" });
});
process.on("uncaughtException", () => done({ ok: false, stage: "crash", error: "script stopped unexpectedly" }));

/** Largest delay a Node timer takes. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Arms a timer (`timer`, text = the delay in ms), or passes an asynchronous call (`call`) or the
 * outcome (`done`) to the main thread. Never throws.
 */
function post(kind, id, text) {
  try {
    if (typeof id !== "number" || typeof text !== "string") return false;
    if (kind === "timer") {
      setTimeout(
        () => {
          try {
            fire(id);
          } catch {
            // The callback's own failure is the context's to report.
          }
        },
        Math.min(Number(text) || 0, MAX_DELAY_MS),
      );
      return true;
    }
    if (kind !== "call" && kind !== "done") return false;
    parentPort.postMessage({ type: kind, id, text });
    return true;
  } catch {
    return false;
  }
}

/** A call that answers at once (`page.url()`): blocks until the main thread has answered. Never throws. */
function postSync(text) {
  try {
    if (typeof text !== "string") return "";
    Atomics.store(flag, 0, 0);
    parentPort.postMessage({ type: "call", id: 0, sync: true, text });
    Atomics.wait(flag, 0, 0);
    const received = receiveMessageOnPort(replies);
    return received && typeof received.message === "string" ? received.message : "";
  } catch {
    return "";
  }
}

/** Random bytes for the body's `crypto`, as hex. Never throws. */
function random(count) {
  try {
    return typeof count === "number" && Number.isInteger(count) && count >= 0 && count <= 65536 ? randomBytes(count).toString("hex") : "";
  } catch {
    return "";
  }
}

const PARAMETERS = "page, args, files, builtins";

/** The body as the service runs it: the body of an async function of page, args, files and builtins. */
function compile(content) {
  // Line 1 of the body is line 1 of the script, so V8's messages point at the right line.
  return new vm.Script(`(async function (${PARAMETERS}) {\n${content}\n})`, { filename: "script.js", lineOffset: -1 });
}

/**
 * Why the body may not run, or null. Parsed on its own as a function body, so that it cannot close
 * the wrapper above and add code outside it; walked without recursion for `import()`.
 */
function refusal(content) {
  let tree;
  try {
    tree = Parser.parse(content, {
      ecmaVersion: "latest",
      sourceType: "script",
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
    });
  } catch (error) {
    return `SyntaxError: ${error instanceof Error ? error.message : "the script could not be read"}`;
  }
  const stack = [tree];
  while (stack.length) {
    const node = stack.pop();
    if (node.type === "ImportExpression") {
      return "SyntaxError: import() is not available to scripts: a script sees only page, args, files and builtins";
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) {
        for (const child of value) if (child && typeof child.type === "string") stack.push(child);
      } else if (value && typeof value.type === "string") {
        stack.push(value);
      }
    }
  }
  return null;
}

function done(outcome) {
  parentPort.postMessage({ type: "done", id: 0, text: JSON.stringify(outcome) });
}

parentPort.once("message", ({ content, runText }) => {
  let script;
  try {
    script = compile(content);
  } catch (error) {
    return done({ ok: false, stage: "compile", error: `${error.name}: ${error.message}` });
  }
  const refused = refusal(content);
  if (refused) return done({ ok: false, stage: "compile", error: refused });

  const context = vm.createContext(Object.create(null), { name: "script", codeGeneration: { strings: false, wasm: false } });
  vm.runInContext(`(${webGlobals.toString()})()`, context);
  const entries = vm.runInContext(`(${inside.toString()})`, context)(post, postSync, random, maxText, maxTextLabel);
  const { start, deliver } = entries;
  fire = entries.fire;
  describe = entries.describe;
  parentPort.on("message", (message) => {
    if (message.type !== "reply" || typeof message.id !== "number" || typeof message.text !== "string") return;
    try {
      deliver(message.id, message.text);
    } catch {
      // A reply the body's own code made throw: its run, its outcome.
    }
  });
  try {
    parentPort.postMessage({ type: "started", id: 0, text: "" });
    start(runText, script.runInContext(context));
  } catch {
    done({ ok: false, stage: "throw", error: "Error: the script could not start" });
  }
});
