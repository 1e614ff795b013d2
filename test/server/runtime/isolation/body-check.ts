// The check a body passes before it may run, made by the script process (script-process.ts) once
// per body, before its worker compiles it (script-worker.ts). Not in the worker: acorn would be
// loaded and compiled anew in every fresh worker (about 16 ms of CPU).
import { Parser } from "acorn";

type Node = { type: string; [key: string]: unknown };

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && typeof (value as Node).type === "string";

/**
 * Why the body may not run, or null. Parsed on its own as a function body, so that it cannot close
 * the worker's wrapper (an async function around it) and add code outside it; walked without recursion for `import()`, which is
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
