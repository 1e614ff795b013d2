// Loaded with `node --import`: makes the npm package `mime-types` unresolvable, both to `import`
// and to `require` (the CLI's bundle is CommonJS), so a process that reaches for it fails (a
// common file type must not need its database).
import Module, { register } from "node:module";

const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === "mime-types") throw Object.assign(new Error("mime-types was loaded"), { code: "ERR_MODULE_NOT_FOUND" });
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "mime-types") throw Object.assign(new Error("mime-types was loaded"), { code: "MODULE_NOT_FOUND" });
  return resolveFilename.call(this, request, ...rest);
};
