/**
 * docs/runs.md's library example, run as written against the sandbox on loopback (plain http, as
 * a user runs it): only its imports point at the sources and its run id at the sandbox's seeded
 * failed run, given a screenshot kept as the sandbox keeps a real run's. The page it writes embeds
 * that screenshot: `httpOrigins` lets the service's own plain-http origin through, and the rule
 * still refuses the rest.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { SEED_IDS } from "@reduck-client/sandbox";
import { keepScreenshots } from "@reduck-client/sandbox/internal";
import { expect, test } from "vitest";
import { temporaryFolder } from "../support/files.js";
import { useCliSandbox } from "../support/sandbox.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const sandbox = useCliSandbox({ home: "reduck-runs-example-" });

/** The ```ts block of docs/runs.md that writes a run's page with fetchScreenshot. */
function example(): string {
  const text = readFileSync(path.join(ROOT, "docs/runs.md"), "utf8");
  const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const found = blocks.filter((b) => b.includes("fetchScreenshot(") && b.includes("renderTraceHtml("));
  expect(found).toHaveLength(1);
  return found[0]!;
}

test("docs/runs.md's library example embeds the sandbox's screenshot, as written", async () => {
  const runId = SEED_IDS.runs.error;
  const png = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(400, 9)]);
  const run = sandbox.store.runs.get(runId)!;
  const screenshots = await keepScreenshots(sandbox.store, sandbox.server.url, runId, [{ kind: "failure", afterStep: 1, png }]);
  run.trace = { ...(run.trace as object), screenshots };

  const code = example()
    .replaceAll('"reduck-client/report"', JSON.stringify(path.join(ROOT, "src/report/index.ts")))
    .replaceAll('"reduck-client"', JSON.stringify(path.join(ROOT, "src/index.ts")))
    .replace(/runId: "[0-9a-f-]{36}"/, `runId: "${runId}"`);
  // The example must name the service by REDUCK_API_URL, or it would reach past this machine.
  expect(code).toContain("baseUrl: process.env.REDUCK_API_URL");
  const folder = temporaryFolder("reduck-runs-example-");
  writeFileSync(path.join(folder, "example.mts"), code);
  await promisify(execFile)(path.join(ROOT, "node_modules/.bin/tsx"), ["example.mts"], {
    cwd: folder,
    env: { ...process.env, REDUCK_API_KEY: sandbox.store.demo.apiKey, REDUCK_API_URL: sandbox.server.url },
  });
  const html = readFileSync(path.join(folder, "run.html"), "utf8");
  expect(html).toContain(`data:image/png;base64,${png.toString("base64")}`);
  expect(html).toContain('Failed at <a href="#step-2">step 2</a>');
});
