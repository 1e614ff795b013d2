// A script on a host with no dot (the official catalogue has `reduck/ats-tools/detect_ats`; the
// service's rule for a host is 1 to 253 characters) through the library: by its parts to
// runScript, by its address text to runMany, and a close-but-dotless address gets its did-you-mean.
import { expect, test } from "vitest";
import { runMany, runScript } from "../../src/index.js";
import { unknownScriptHint } from "../../src/core/words/nearby-scripts.js";
import { useInProcessSandbox } from "../support/sandbox.js";

const sandbox = useInProcessSandbox({
  folder: "reduck-addresses-",
  seed: (store) => {
    store.addScript({
      handle: "reduck",
      host: "ats-tools",
      slug: "detect_ats",
      visibility: "public",
      language: "javascript",
      content: "return { ats: args.url.includes('greenhouse') ? 'greenhouse' : 'unknown' };",
      inputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
      outputSchema: { type: "object", properties: { ats: { type: "string" } } },
    });
  },
});

test("runScript runs reduck/ats-tools/detect_ats", async () => {
  const { data, error } = await runScript({
    client: sandbox.client,
    script: { handle: "reduck", host: "ats-tools", slug: "detect_ats", args: { url: "https://boards.greenhouse.io/acme" } },
  });
  expect(error).toBeUndefined();
  expect(data!.result).toEqual({ ats: "greenhouse" });
});

test("runMany takes it as an address text", async () => {
  const run = runMany({ client: sandbox.client, script: "reduck/ats-tools/detect_ats", rows: [{ url: "https://x.example/jobs" }], browser: "cloud" });
  const outcomes = [];
  for await (const outcome of run) outcomes.push(outcome);
  expect(run.error).toBeUndefined();
  expect(outcomes).toMatchObject([{ status: "completed", result: { ats: "unknown" } }]);
});

test("an owner where the host belongs (reduck/send_email, read as host/slug of your own): did you mean the scripts of that slug", async () => {
  const hint = await unknownScriptHint(sandbox.client, { handle: "@demo", host: "reduck", slug: "send_email", ownImplied: true });
  expect(hint).toBe("Did you mean reduck/mail.google.com/send_email? (reduck/send_email names a script of your own on a host called reduck)");
  // A dotted host a typo away keeps its own hint.
  expect(await unknownScriptHint(sandbox.client, { handle: "@demo", host: "mail.gogle.com", slug: "send_email", ownImplied: true })).toBe(
    "Did you mean reduck/mail.google.com/send_email?",
  );
});
