// Loaded with `node --import`: makes the npm package `undici` unresolvable, as in a broken
// install, to show that a run still works (and nothing rejects unhandled) without it.
import { register } from "node:module";

const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === "undici") throw Object.assign(new Error("Cannot find package 'undici'"), { code: "ERR_MODULE_NOT_FOUND" });
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
