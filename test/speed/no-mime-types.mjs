// Loaded with `node --import`: makes the npm package `mime-types` unresolvable, so a process that
// reaches for it fails (a common file type must not need its database).
import { register } from "node:module";

const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === "mime-types") throw Object.assign(new Error("mime-types was loaded"), { code: "ERR_MODULE_NOT_FOUND" });
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
