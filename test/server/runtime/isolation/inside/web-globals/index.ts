// The few web-platform globals script bodies use besides `page`: URL, URLSearchParams, atob, btoa,
// TextEncoder and TextDecoder, written from scratch and bundled with the rest of inside/, so that
// they are made of the body's context's own objects: handing in Node's would hand the body a way
// back to the server's realm (`URL.constructor.constructor("return process")()`).
// test/server/client-checks/web-globals.test.ts holds each against Node's own implementation.
import { atob, btoa } from "./base64.js";
import { URLSearchParams } from "./search-params.js";
import { TextDecoder, TextEncoder } from "./text.js";
import { URL } from "./url.js";

/**
 * Defines `name` on the realm's globalThis, named as the platform names it: the bundle may not keep
 * a name as written (esbuild turns a class that refers to itself into `var URL = class _URL`, and
 * renames a top-level name that another module's collides with).
 */
function define(name: string, value: object): void {
  Object.defineProperty(value, "name", { value: name, configurable: true });
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
}

/**
 * Defines the globals on the `globalThis` of the realm this code was evaluated in.
 *
 * @example
 * vm.runInContext(insideScript(), context).webGlobals();
 */
export function webGlobals(): void {
  define("URL", URL);
  define("URLSearchParams", URLSearchParams);
  define("atob", atob);
  define("btoa", btoa);
  define("TextEncoder", TextEncoder);
  define("TextDecoder", TextDecoder);
}
