/**
 * `reduck scripts types --from DIR`: the typed-scripts module from the contracts of a pulled tree,
 * offline, compiled with a program under `strict`: the program type-checks against the contracts
 * as they are in the folder (an input added here is required at once).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { runCli } from "../../support/cli.js";
import { temporaryFolder } from "../../support/files.js";
import { useCliSandbox } from "../../support/sandbox.js";
import { typecheck } from "../../support/typecheck.js";

const sandbox = useCliSandbox({ home: "reduck-types-from-" });

const PROGRAM = (args: string) => `import "./reduck-scripts.js";
import { createReduckClient, runScript } from "reduck-client";
const client = createReduckClient({ apiKey: "rk_x" });
export async function go() {
  const { data } = await runScript({ client, script: { handle: "@demo", host: "example.com", slug: "get_title", args: ${args} } });
  if (data) void (data.result.title satisfies string);
}
`;

it("writes the module from the folder's contracts without the network, and a program compiles against it under strict", async () => {
  const dir = temporaryFolder("tree-", { inside: sandbox.home });
  expect((await runCli(["scripts", "pull", "--dir", dir], { env: sandbox.env })).code).toBe(0);
  const file = path.join(dir, "@demo/example.com/get_title/contract.json");
  const contract = JSON.parse(readFileSync(file, "utf8"));
  contract.input_schema.properties.waitMs = { type: "integer" };
  contract.input_schema.required = [...contract.input_schema.required, "waitMs"];
  writeFileSync(file, `${JSON.stringify(contract, null, 2)}\n`);

  const out = path.join(dir, "reduck-scripts.ts");
  // Offline: the API address points nowhere.
  const made = await runCli(["scripts", "types", "--from", dir, "--out", out, "--strict"], { env: { ...sandbox.env, REDUCK_API_URL: "http://127.0.0.1:9" } });
  expect(made.code, made.stderr).toBe(0);
  const text = readFileSync(out, "utf8");
  expect(text).toContain('"@demo/example.com/get_title": {');
  expect(text).toContain("--from");

  const problems = typecheck(
    { "reduck-scripts.ts": text, "good.ts": PROGRAM('{ url: "https://example.com", waitMs: 5 }'), "bad.ts": PROGRAM('{ url: "https://example.com" }') },
    { options: { strict: true } },
  );
  expect(problems.get("reduck-scripts.ts")).toEqual([]);
  expect(problems.get("good.ts")).toEqual([]);
  expect(
    problems
      .get("bad.ts")!
      .map((p) => p.message)
      .join("\n"),
  ).toContain("waitMs");
});
