/**
 * Typed scripts, as a user gets them: the module `reduck scripts types` writes for every script
 * the sandbox can run (its official catalogue, the demo account's own and its projects'), imported into a program compiled against the built package's types
 * (dist/index.d.ts). Correct calls compile with no cast; each mistake fails with a first line
 * that names what is wrong (never "No overload matches this call").
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { everyRunnableScript, reduck, tempDir, useSandboxForCli } from "../cli/commands/harness.js";
import { typecheck, type Problem } from "../support/typecheck.js";

useSandboxForCli();

const HEAD = `import "./reduck-scripts.js";
import { createReduckClient, runMany, runScript, waitForRun } from "reduck-client";
const client = createReduckClient({ apiKey: process.env.REDUCK_API_KEY });
const send = { handle: "reduck", host: "mail.google.com", slug: "send_email" } as const;
void runMany;
void runScript;
void waitForRun;
void send;
`;

/** Compiles with no error: typed calls without casts, the loose form for unregistered scripts, and each @ts-expect-error used. */
const CALLS = `${HEAD}
export async function typed() {
  const { data, error } = await runScript({
    client,
    script: { ...send, args: { to: ["a@example.com"], subject: "Hi", body: "Hello" }, files: { attachment: { path: "./banner.png" } } },
  });
  if (error) return;
  const sent: boolean = data.result.sent;
  const thread: string | null | undefined = data.result.threadId;
  // @ts-expect-error a misspelt input
  await runScript({ client, script: { ...send, args: { to: "a@example.com", subject: "Hi", subjet: "Hi" } } });
  // @ts-expect-error a wrong input type
  await runScript({ client, script: { ...send, args: { to: "a@example.com", subject: 42 } } });
  // @ts-expect-error a misspelt file input
  await runScript({ client, script: { ...send, args: { to: "a@example.com", subject: "Hi" }, files: { attachmnt: { path: "./x" } } } });
  // @ts-expect-error an unknown result field
  void data.result.sentt;

  // Several steps: each checked by its own address, the results typed step by step.
  const batch = await runScript({
    client,
    scripts: [
      { ...send, args: { to: "a@example.com", subject: "Hi" } },
      { handle: "reduck", host: "slack.com", slug: "upload_file", args: { channel: "#general", content: "notes" } },
      { host: "example.com", slug: "anything", args: { whatever: 1 } },
    ],
  });
  if (batch.data) {
    const first: boolean | undefined = batch.data.runs[0].result?.sent;
    const second: string | undefined = batch.data.runs[1].result?.id;
    const third: unknown = batch.data.runs[2].result;
    void [first, second, third];
  }
  // Every step registered.
  const both = await runScript({
    client,
    scripts: [
      { ...send, args: { to: "a@example.com", subject: "Hi" } },
      { handle: "reduck", host: "slack.com", slug: "upload_file", args: { channel: "#general", content: "notes" } },
    ],
  });
  if (both.data) void (both.data.runs[1].result?.ok satisfies boolean | undefined);
  // @ts-expect-error a misspelt input in one of several steps
  await runScript({ client, scripts: [{ ...send, args: { to: "a", subject: "Hi", bdy: "x" } }] });

  // wait: false gives the pending handle too.
  const later = await runScript({ client, wait: false, script: { ...send, args: { to: "a", subject: "Hi" } } });
  if (later.data && "result" in later.data) void (later.data.result.sent satisfies boolean);

  // runMany: rows written in code are checked; rows from a file are not.
  const many = runMany({ client, script: "reduck/mail.google.com/send_email", rows: [{ to: "a@example.com", subject: "Hi", "file:attachment": "./a.png" }] });
  for await (const row of many) if (row.result) void (row.result.sent satisfies boolean);
  // @ts-expect-error a misspelt input in a row
  runMany({ client, script: "reduck/mail.google.com/send_email", rows: [{ to: "a@example.com", subjet: "Hi" }] });

  // waitForRun: typed when told the script.
  const waited = await waitForRun<"reduck/mail.google.com/send_email">({ client, runId: "r" });
  if (waited.data) void (waited.data.result.sent satisfies boolean);
  const batchWaited = await waitForRun<["reduck/mail.google.com/send_email", "reduck/slack.com/upload_file"]>({ client, batchId: "b" });
  if (batchWaited.data) void (batchWaited.data.runs[1].result?.ok satisfies boolean | undefined);
  // @ts-expect-error an unknown result field after a wait
  if (waited.data) void waited.data.result.sentt;

  void [sent, thread];
}

export async function loose() {
  // Not registered: today's loose types, anything goes in and the result is unknown.
  const { data } = await runScript({ client, script: { handle: "someone", host: "example.com", slug: "thing", args: { anything: [1, 2] }, files: { any: { path: "./x" } } } });
  const result: unknown = data?.result;
  // Without a handle (your own script), nothing is looked up either.
  await runScript({ client, script: { host: "mail.google.com", slug: "send_email", args: { anything: 1 } } });
  runMany({ client, script: "example.com/get_title", rows: [{ url: "https://example.com" }] });
  void result;
}
`;

/** One mistake per file: the first line of its first diagnostic, and the text it points at. */
interface Mistake {
  code: string;
  first: RegExp;
  at?: string;
  /** The mistake is the file's one error. */
  only?: boolean;
}
const MISTAKES: Record<string, Mistake> = {
  "misspelt-input": {
    code: 'await runScript({ client, script: { ...send, args: { to: "a", subjet: "Hi" } } });',
    first: /^Object literal may only specify known properties, but 'subjet' does not exist in type 'SendEmailArgs'\. Did you mean to write 'subject'\?$/,
  },
  "missing-input": {
    code: 'await runScript({ client, script: { ...send, args: { to: "a" } } });',
    first: /^Property 'subject' is missing in type '\{ to: string; \}' but required in type 'SendEmailArgs'\.$/,
  },
  "wrong-input-type": {
    code: 'await runScript({ client, script: { ...send, args: { to: "a", subject: 42 } } });',
    first: /^Type 'number' is not assignable to type 'string'\.$/,
    at: "subject",
  },
  "misspelt-file-input": {
    code: 'await runScript({ client, script: { ...send, args: { to: "a", subject: "Hi" }, files: { attachmnt: { path: "./x" } } } });',
    first: /^Object literal may only specify known properties, but 'attachmnt' does not exist in type 'SendEmailFiles'\. Did you mean to write 'attachment'\?$/,
  },
  "file-source-field": {
    code: 'await runScript({ client, script: { host: "example.com", slug: "thing", files: { doc: { pth: "./x" } } } });',
    first: /^Object literal may only specify known properties, and 'pth' does not exist in type 'FileSource'\.$/,
  },
  "file-source-field-typed": {
    code: 'await runScript({ client, script: { ...send, args: { to: "a", subject: "Hi" }, files: { attachment: { pth: "./x" } } } });',
    first: /^Object literal may only specify known properties, and 'pth' does not exist in type 'FileSource'\.$/,
  },
  browser: {
    code: 'await runScript({ client, browser: "chrome", script: { host: "example.com", slug: "thing" } });',
    first: /^Type '"chrome"' is not assignable to type '.*"cloud" \| "managed" \| "extension".*'\.$/,
  },
  "unknown-result-field": {
    code: 'const { data } = await runScript({ client, script: { ...send, args: { to: "a", subject: "Hi" } } });\nvoid data?.result.sentt;',
    first: /^Property 'sentt' does not exist on type 'SendEmailResult'\. Did you mean 'sent'\?$/,
  },
  "step-misspelt-input": {
    code: 'await runScript({ client, scripts: [{ ...send, args: { to: "a", subject: "Hi", bdy: "x" } }] });',
    first: /bdy is not an input of reduck\/mail\.google\.com\/send_email/,
  },
  "step-wrong-input-type": {
    code: 'await runScript({ client, scripts: [{ ...send, args: { to: "a", subject: 42 } }] });',
    first: /^Type 'number' is not assignable to type 'never'\.$/,
    at: "subject",
    only: true,
  },
  "step-missing-input": {
    code: 'await runScript({ client, scripts: [{ handle: "reduck", host: "slack.com", slug: "upload_file", args: { channel: "#general" } }] });',
    first: /^Type '\{ channel: string; \}' is not assignable to type /,
  },
  "step-misspelt-file": {
    code: 'await runScript({ client, scripts: [{ ...send, args: { to: "a", subject: "Hi" }, files: { attachmnt: { path: "./x" } } }] });',
    first: /attachmnt is not a file input of reduck\/mail\.google\.com\/send_email/,
  },
  "row-misspelt-input": {
    code: 'runMany({ client, script: "reduck/mail.google.com/send_email", rows: [{ to: "a", subject: "Hi", bdy: "x" }] });',
    first:
      /^Object literal may only specify known properties, but 'bdy' does not exist in type 'SendEmailArgs & \{ "file:attachment"\?: string \| undefined; \}'\. Did you mean to write 'body'\?$/,
  },
};

let compiled: Promise<Map<string, Problem[]>> | undefined;

/** Generated and compiled once, on first use (the sandbox's key is set per test). */
function problemsOnce(): Promise<Map<string, Problem[]>> {
  compiled ??= compile();
  return compiled;
}

async function compile(): Promise<Map<string, Problem[]>> {
  const addresses = await everyRunnableScript();
  const out = path.join(tempDir(), "reduck-scripts.ts");
  const made = await reduck("scripts", "types", ...addresses, "--out", out);
  expect(made.exitCode, made.stderr).toBe(0);
  const files: Record<string, string> = { "reduck-scripts.ts": readFileSync(out, "utf8"), "calls.ts": CALLS };
  for (const [name, { code }] of Object.entries(MISTAKES)) files[`${name}.ts`] = `${HEAD}\n${code}\n`;
  return typecheck(files);
}

describe("the generated module for the whole catalogue", () => {
  it("compiles, and so does every correct call, with no cast; each @ts-expect-error marks a real error", { timeout: 120_000 }, async () => {
    const problems = await problemsOnce();
    expect(problems.get("reduck-scripts.ts")).toEqual([]);
    expect(problems.get("calls.ts")).toEqual([]);
    expect(problems.get("(program)") ?? []).toEqual([]);
  });

  it.each(Object.keys(MISTAKES))("%s: fails, and the first line says what is wrong", { timeout: 120_000 }, async (name) => {
    const found = (await problemsOnce()).get(`${name}.ts`) ?? [];
    expect(found.length, `${name} compiled`).toBeGreaterThan(0);
    const [first] = found;
    expect(first!.first).toMatch(MISTAKES[name]!.first);
    expect(first!.message).not.toContain("No overload matches this call");
    if (MISTAKES[name]!.at) expect(first!.at).toBe(MISTAKES[name]!.at);
    if (MISTAKES[name]!.only) expect(found.map((p) => p.first)).toHaveLength(1);
  });
});
