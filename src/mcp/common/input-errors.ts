/**
 * A tool call whose arguments do not fit its input schema, said in one line: the first problem
 * (where, what is wrong, the closest name for a misspelt one), how many more there are, and a
 * call that fits. Nothing is sent to the service for such a call.
 */
import type { z as Zod } from "zod";
import { closest } from "../../core/words/suggest.js";
import { oneLine } from "./bounded.js";

/** `scripts[1].files.attachment`: where in the arguments, as the SDK writes it. */
function where(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** What a union accepts, written out: `"extension", "cloud" or { deviceId }`. */
function unionChoices(schema: Zod.ZodTypeAny | undefined): string | undefined {
  let inner: Zod.ZodTypeAny | undefined = schema;
  while (inner && "innerType" in inner._def) inner = inner._def.innerType as Zod.ZodTypeAny;
  const options = (inner?._def as { options?: Zod.ZodTypeAny[] } | undefined)?.options;
  if (!Array.isArray(options)) return undefined;
  const parts = options.flatMap((option) => {
    const def = option._def as { values?: string[]; shape?: () => Record<string, unknown>; typeName?: string };
    if (Array.isArray(def.values)) return def.values.map((v) => JSON.stringify(v));
    if (typeof def.shape === "function") return [`{ ${Object.keys(def.shape()).join(", ")} }`];
    return [def.typeName?.replace(/^Zod/, "").toLowerCase() ?? "another value"];
  });
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} or ${parts.at(-1)}` : parts[0];
}

/** The schema at `path` inside `root`, as far as objects, arrays and optionals lead. */
function schemaAt(root: Zod.ZodTypeAny, path: (string | number)[]): Zod.ZodTypeAny | undefined {
  let node: Zod.ZodTypeAny | undefined = root;
  for (const step of path) {
    while (node && "innerType" in node._def) node = node._def.innerType as Zod.ZodTypeAny;
    const def = node?._def as { shape?: () => Record<string, Zod.ZodTypeAny>; type?: Zod.ZodTypeAny; valueType?: Zod.ZodTypeAny } | undefined;
    if (typeof step === "string" && typeof def?.shape === "function") node = def.shape()[step];
    else if (typeof step === "number" && def?.type) node = def.type;
    else if (typeof step === "string" && def?.valueType) node = def.valueType;
    else return undefined;
  }
  return node;
}

function issueText(issue: Zod.ZodIssue, root: Zod.ZodTypeAny): string {
  const at = where(issue.path);
  const name = at || "the arguments";
  switch (issue.code) {
    case "unrecognized_keys":
      // Worded by the schema itself (schema-parts.ts), with the closest known name.
      return at ? `${issue.message} at ${at}` : issue.message;
    case "invalid_type":
      if (issue.received === "undefined") return `${name} is required`;
      return `${name} must be ${article(issue.expected)} (got ${article(issue.received)})`;
    case "invalid_enum_value": {
      const meant = typeof issue.received === "string" ? closest(issue.received, issue.options.map(String)) : undefined;
      return `${name} must be ${issue.options.map((o) => JSON.stringify(o)).join(", ")} (got ${JSON.stringify(issue.received)}${meant ? `: did you mean ${JSON.stringify(meant)}?` : ""})`;
    }
    case "invalid_union": {
      // A branch that failed on a misspelt key inside says the most (browser: { deviceId, regoin }).
      const keyed = issue.unionErrors.flatMap((e) => e.issues).find((i) => i.code === "unrecognized_keys");
      if (keyed) return issueText(keyed, root);
      const choices = unionChoices(schemaAt(root, issue.path));
      return choices ? `${name} must be ${choices}` : `${name} is not a value it takes`;
    }
    case "too_small":
    case "too_big": {
      const bound = issue.code === "too_small" ? "at least" : "at most";
      const limit = String(issue.code === "too_small" ? issue.minimum : issue.maximum);
      if (issue.type === "string") return `${name} must be ${bound} ${limit} characters long`;
      if (issue.type === "array") return `${name} must hold ${bound} ${limit} items`;
      return `${name} must be ${bound} ${limit}${issue.type === "number" ? "" : ` (${issue.type})`}`;
    }
    default:
      return at ? `${at} ${issue.message.replace(/^./, (c) => c.toLowerCase())}` : issue.message;
  }
}

/**
 * The one line for a call to `tool` whose arguments failed `schema`.
 *
 * @example
 * inputErrorLine("list_runs", schema, error, 'list_runs { status: "failed" }');
 * // 'Invalid arguments for list_runs: status must be "completed", "failed", ... (got "faild": did you mean "failed"?). Usage: list_runs { status: "failed" }'
 */
export function inputErrorLine(tool: string, schema: Zod.ZodTypeAny, error: Zod.ZodError, usage: string): string {
  // A misspelt name leads: its did-you-mean explains the "required" that usually follows it
  // (input_schema given, inputSchema missing), and would be lost inside "(and 1 more problem)".
  const [first, ...rest] = [...error.issues].sort((a, b) => Number(b.code === "unrecognized_keys") - Number(a.code === "unrecognized_keys"));
  const problem = first ? issueText(first, schema) : "they do not fit its input schema";
  const more = rest.length ? ` (and ${rest.length} more problem${rest.length > 1 ? "s" : ""})` : "";
  return oneLine(`Invalid arguments for ${tool}: ${problem}${more}. Usage: ${usage}`, 2_000);
}
