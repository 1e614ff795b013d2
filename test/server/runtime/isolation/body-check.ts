// The body as the service runs it, compiled and checked before it may run.
import vm from "node:vm";
import { Parser } from "acorn";

const PARAMETERS = "page, args, files, builtins";

/**
 * The body as the service runs it: the body of an async function of page, args, files and builtins.
 * Throws V8's SyntaxError for a body that does not compile.
 *
 * @example
 * const fn = compile("return 1;").runInContext(context);
 */
export function compile(content: string): vm.Script {
  // Line 1 of the body is line 1 of the script, so V8's messages point at the right line.
  return new vm.Script(`(async function (${PARAMETERS}) {\n${content}\n})`, { filename: "script.js", lineOffset: -1 });
}

type Node = { type: string; [key: string]: unknown };

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && typeof (value as Node).type === "string";

/**
 * Why the body may not run, or null. Parsed on its own as a function body, so that it cannot close
 * the wrapper above and add code outside it; walked without recursion for `import()`, which is
 * refused before it can run: on Node 20 the host's answer to `import()` (even when a callback is
 * set) can be an outer error object.
 *
 * @example
 * refusal("return await import('node:fs');"); // "SyntaxError: import() is not available to scripts: ..."
 */
export function refusal(content: string): string | null {
  let tree: Node;
  try {
    tree = Parser.parse(content, {
      ecmaVersion: "latest",
      sourceType: "script",
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
    }) as unknown as Node;
  } catch (error) {
    return `SyntaxError: ${error instanceof Error ? error.message : "the script could not be read"}`;
  }
  const stack = [tree];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === "ImportExpression") {
      return "SyntaxError: import() is not available to scripts: a script sees only page, args, files and builtins";
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) {
        for (const child of value) if (isNode(child)) stack.push(child);
      } else if (isNode(value)) {
        stack.push(value);
      }
    }
  }
  return null;
}
