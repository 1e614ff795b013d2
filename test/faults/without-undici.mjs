// Loaded with `node --import`: makes the npm package `undici` unresolvable, to show that runs
// (over node:http, with no 300 s header limit to lift) never need it.
import { register } from "node:module";

const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === "undici") throw Object.assign(new Error("Cannot find package 'undici'"), { code: "ERR_MODULE_NOT_FOUND" });
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
