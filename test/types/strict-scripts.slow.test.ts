/**
 * Typed scripts made strict, and addresses that need no `as const`, as a user gets them: a module
 * written by the generator (`reduck scripts types`, here from contracts given directly), compiled
 * with a program against the built package's types (dist/index.d.ts). Strict, an address the
 * module does not register fails with a first line that says which part is wrong; without it,
 * `scriptAt` keeps a stored address typed. And the generated `Run` type: a run's args are
 * `unknown` values under plain `strict`, not `never`.
 */
import { describe, expect, it } from "vitest";
import { scriptsModule, type ScriptContract } from "../../src/typegen/module.js";
import { typecheck, type Problem } from "../support/typecheck.js";

const version = { versionNumber: 1, versionId: "00000000-0000-4000-8004-000000000001" };
const CONTRACTS: ScriptContract[] = [
  {
    ...version,
    handle: "reduck",
    host: "mail.google.com",
    slug: "send_email",
    inputSchema: {
      type: "object",
      properties: { to: { type: "string" }, subject: { type: "string" }, attachment: { type: "string", format: "file" } },
      required: ["to", "subject"],
    },
    outputSchema: { type: "object", properties: { sent: { type: "boolean" } }, required: ["sent"] },
  },
  {
    ...version,
    handle: "reduck",
    host: "slack.com",
    slug: "upload_file",
    inputSchema: { type: "object", properties: { channel: { type: "string" }, content: { type: "string" } }, required: ["channel"] },
    outputSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  },
  {
    ...version,
    handle: "@demo",
    host: "example.com",
    slug: "get_title",
    inputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
    outputSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
  },
];

const HEAD = `import "./reduck-scripts.js";
import { createReduckClient, runMany, runScript, scriptAt, waitForRun } from "reduck-client";
const client = createReduckClient({ apiKey: process.env.REDUCK_API_KEY });
void client;
void runMany;
void runScript;
void scriptAt;
void waitForRun;
`;

/** Correct calls under the strict registry: no cast, no `as const`. */
const STRICT_CALLS = `${HEAD}
export async function typed() {
  const { data } = await runScript({ client, script: { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "a", subject: "Hi" } } });
  if (data) void (data.result.sent satisfies boolean);
  // A stored address: scriptAt keeps its parts literal.
  const send = scriptAt("reduck/mail.google.com/send_email");
  const again = await runScript({ client, script: { ...send, args: { to: "a", subject: "Hi" }, files: { attachment: { path: "./a.png" } } } });
  if (again.data) void (again.data.result.sent satisfies boolean);
  // @ts-expect-error a misspelt input is still caught through scriptAt
  await runScript({ client, script: { ...send, args: { to: "a", subjet: "Hi" } } });
  const steps = await runScript({
    client,
    scripts: [{ ...send, args: { to: "a", subject: "Hi" } }, { handle: "reduck", host: "slack.com", slug: "upload_file", args: { channel: "#c" } }],
  });
  if (steps.data) void (steps.data.runs[1].result?.ok satisfies boolean | undefined);
  for await (const row of runMany({ client, script: "@demo/example.com/get_title", rows: [{ url: "https://example.com" }] })) void row.result?.title;
  const waited = await waitForRun<"reduck/slack.com/upload_file">({ client, runId: "r" });
  if (waited.data) void (waited.data.result.ok satisfies boolean);
  // Waiting without naming a script stays allowed: nothing is named that could be wrong.
  void (await waitForRun({ client, runId: "r" }));
}
`;

interface Mistake {
  code: string;
  first: RegExp;
  /** The text the first diagnostic points at. */
  at?: string;
}

/** Each a program of its own beside the strict module: the first line of its first error. */
const STRICT_MISTAKES: Record<string, Mistake> = {
  "misspelt-slug": {
    code: 'await runScript({ client, script: { handle: "reduck", host: "mail.google.com", slug: "send_emial", args: { to: "a", subject: "Hi" } } });',
    first: /^Type '"send_emial"' is not assignable to type '"send_email"'\.$/,
    at: "slug",
  },
  "misspelt-host": {
    code: 'await runScript({ client, script: { handle: "reduck", host: "gmail.com", slug: "send_email" } });',
    first: /^Type '"gmail\.com"' is not assignable to type '"mail\.google\.com" \| "slack\.com"'\.$/,
    at: "host",
  },
  "misspelt-handle": {
    code: 'await runScript({ client, script: { handle: "reduk", host: "mail.google.com", slug: "send_email" } });',
    first: /^Type '"reduk"' is not assignable to type 'RegisteredHandle'\. Did you mean '"reduck"'\?$/,
    at: "handle",
  },
  "widened-object": {
    code: 'const send = { handle: "reduck", host: "mail.google.com", slug: "send_email" };\nawait runScript({ client, script: { ...send, args: { to: "a", subject: "Hi" } } });',
    first: /^Type '.*handle: string; host: string; slug: string; \}' is not assignable to type 'RegisteredScriptToRun<string, string, string>'\.$/,
  },
  "no-handle": {
    code: 'await runScript({ client, script: { host: "mail.google.com", slug: "send_email", args: { to: "a", subject: "Hi" } } });',
    first: /^Property 'handle' is missing in type '.*' but required in type 'RegisteredScriptToRun<string, "mail\.google\.com", "send_email">'\.$/,
  },
  "script-at-misspelt": {
    code: 'scriptAt("reduck/mail.google.com/send_emial");',
    first: /^Argument of type '"reduck\/mail\.google\.com\/send_emial"' is not assignable to parameter of type 'RegisteredScript'\.$/,
  },
  "run-many-misspelt": {
    code: 'runMany({ client, script: "reduck/mail.google.com/send_emial", rows: [] });',
    first:
      /^Type '"reduck\/mail\.google\.com\/send_emial"' is not assignable to type 'RegisteredScript'\. Did you mean '"reduck\/mail\.google\.com\/send_email"'\?$/,
  },
  "run-many-parts": {
    code: 'runMany({ client, script: { handle: "reduck", host: "mail.google.com", slug: "send_email" }, rows: [] });',
    first: /^Type '\{ handle: string; host: string; slug: string; \}' is not assignable to type 'RegisteredScript'\.$/,
  },
  "wait-unregistered": {
    code: 'await waitForRun<"reduck/mail.google.com/send_emial">({ client, runId: "r" });',
    first: /^Type '"reduck\/mail\.google\.com\/send_emial"' does not satisfy the constraint 'RegisteredScript'\.$/,
  },
  "step-misspelt-slug": {
    code: 'await runScript({ client, scripts: [{ handle: "reduck", host: "mail.google.com", slug: "send_emial" }] });',
    first: /^Type '"send_emial"' is not assignable to type '"get_title" \| "send_email" \| "upload_file"'\. Did you mean '"send_email"'\?$/,
  },
  "step-parts-of-two-scripts": {
    code: 'await runScript({ client, scripts: [{ handle: "reduck", host: "mail.google.com", slug: "upload_file" }] });',
    first: /"reduck\/mail\.google\.com\/upload_file is not a registered script": never/,
  },
};

/** Without strict: `scriptAt` types a stored address (no `as const`); a widened object stays loose, as before. */
const LOOSE_CALLS = `${HEAD}
export async function stored() {
  const send = scriptAt("reduck/mail.google.com/send_email");
  const { data } = await runScript({ client, script: { ...send, args: { to: "a", subject: "Hi" } } });
  if (data) void (data.result.sent satisfies boolean);
  // @ts-expect-error a misspelt input is caught: the address stayed literal
  await runScript({ client, script: { ...send, args: { to: "a", subjet: "Hi" } } });
  const own = scriptAt("example.com/anything");
  void (own satisfies { host: "example.com"; slug: "anything" });
  // Not strict: an address no module registers, or an object whose strings widened, is loose.
  const widened = { handle: "reduck", host: "mail.google.com", slug: "send_email" };
  await runScript({ client, script: { ...widened, args: { anything: 1 } } });
  await runScript({ client, script: { handle: "reduck", host: "mail.google.com", slug: "send_emial", args: { anything: 1 } } });
}
`;

/** The generated layer under plain \`strict\` (no noUncheckedIndexedAccess): a bare object's values are unknown. */
const RUN_ARGS = `import type { Run } from "reduck-client";
export function to(run: Run): string {
  const to: string = run.args.to;
  return to;
}
`;

const strictModule = () => scriptsModule(CONTRACTS, "reduck scripts types ... --strict", { strict: true });

let strictProblems: Map<string, Problem[]> | undefined;
function strict(): Map<string, Problem[]> {
  if (!strictProblems) {
    const files: Record<string, string> = { "reduck-scripts.ts": strictModule(), "calls.ts": STRICT_CALLS };
    for (const [name, { code }] of Object.entries(STRICT_MISTAKES)) files[`${name}.ts`] = `${HEAD}\n${code}\n`;
    strictProblems = typecheck(files);
  }
  return strictProblems;
}

describe("a strict registry (reduck scripts types --strict)", () => {
  it("compiles the module and every correct call, with no cast and no as const; each @ts-expect-error marks a real error", { timeout: 120_000 }, () => {
    const problems = strict();
    expect(problems.get("reduck-scripts.ts")).toEqual([]);
    expect(problems.get("calls.ts")).toEqual([]);
    expect(problems.get("(program)") ?? []).toEqual([]);
  });

  it.each(Object.keys(STRICT_MISTAKES))("%s: fails, and the first line says which part is wrong", { timeout: 120_000 }, (name) => {
    const found = strict().get(`${name}.ts`) ?? [];
    expect(found.length, `${name} compiled`).toBeGreaterThan(0);
    const [first] = found;
    expect(first!.first).toMatch(STRICT_MISTAKES[name]!.first);
    expect(first!.message).not.toContain("No overload matches this call");
    if (STRICT_MISTAKES[name]!.at) expect(first!.at).toBe(STRICT_MISTAKES[name]!.at);
  });
});

describe("without strict", () => {
  it("scriptAt keeps a stored address typed; an unregistered or widened address stays loose", { timeout: 120_000 }, () => {
    const problems = typecheck({ "reduck-scripts.ts": scriptsModule(CONTRACTS, "reduck scripts types ..."), "calls.ts": LOOSE_CALLS });
    expect(problems.get("reduck-scripts.ts")).toEqual([]);
    expect(problems.get("calls.ts")).toEqual([]);
  });

  it("a run's args, a bare object in the description, are unknown values: reading one as a string does not compile", { timeout: 120_000 }, () => {
    const problems = typecheck({ "run-args.ts": RUN_ARGS }, { options: { noUncheckedIndexedAccess: false } });
    expect(problems.get("run-args.ts")!.map((p) => p.first)).toEqual(["Type 'unknown' is not assignable to type 'string'."]);
  });
});
