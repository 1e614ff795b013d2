/**
 * The agreement tests (limits.test.ts) must notice a client limit that is one
 * byte off. Each case runs them in a child vitest whose config swaps the client's
 * `src/run/limits.ts` for a copy with one limit moved by one byte, and expects exactly the
 * agreement tests of that limit to fail; the same run without the change passes. Nothing in the
 * tree is edited: the copy lives in a temporary folder, removed afterwards.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";
import { temporaryFolder } from "../support/files.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const LIMITS = path.join(ROOT, "src", "run", "limits.ts");
const AGREEMENT = "test/agreement/limits.test.ts";
const SETUP = path.join(ROOT, "test", "support", "sandbox-cleanup.ts");
const VITEST = path.join(ROOT, "node_modules", "vitest", "vitest.mjs");
let temp: string;

beforeAll(() => {
  temp = temporaryFolder("reduck-limit-mutations-");
});

/**
 * A vitest config (importing only node:path, so it loads from the temporary folder) whose plugin answers every
 * import that resolves to src/run/limits.ts with `replacement`, when one is given.
 */
function configText(replacement: string | undefined): string {
  return `import path from "node:path";
const limits = ${JSON.stringify(LIMITS)};
const replacement = ${JSON.stringify(replacement ?? null)};
export default {
  root: ${JSON.stringify(ROOT)},
  plugins: [{
    name: "swap-client-limits",
    enforce: "pre",
    resolveId(source, importer) {
      if (!replacement || !importer || !source.startsWith(".")) return null;
      const resolved = path.resolve(path.dirname(importer), source).replace(/\\.js$/, ".ts");
      return resolved === limits ? replacement : null;
    },
  }],
  // The root config's setup too, so the child's sandbox leaves no temporary folder behind.
  test: { environment: "node", include: [${JSON.stringify(AGREEMENT)}], setupFiles: [${JSON.stringify(SETUP)}], testTimeout: 60000 },
};
`;
}

interface Outcome {
  code: number | null;
  failed: string[];
  passed: string[];
}

/** Runs the agreement tests in a child vitest, with the client's limits module swapped when asked. */
async function runAgreement(name: string, change?: { constant: string; by: number }): Promise<Outcome> {
  let replacement: string | undefined;
  if (change) {
    const original = await readFile(LIMITS, "utf8");
    const declaration = `export const ${change.constant} =`;
    expect(original).toContain(declaration);
    replacement = path.join(temp, `${name}-limits.ts`);
    await writeFile(
      replacement,
      original.replace(declaration, `const CLIENT_${change.constant} =`) + `\nexport const ${change.constant} = CLIENT_${change.constant} + (${change.by});\n`,
    );
  }
  const config = path.join(temp, `${name}.config.mjs`);
  const report = path.join(temp, `${name}.json`);
  await writeFile(config, configText(replacement));
  const child = spawn(process.execPath, [VITEST, "run", "--config", config, "--reporter=json", `--outputFile=${report}`], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  const json = JSON.parse(await readFile(report, "utf8").catch(() => `{"testResults":[]}`)) as {
    testResults: Array<{ assertionResults: Array<{ fullName: string; status: string }> }>;
  };
  const results = json.testResults.flatMap((file) => file.assertionResults);
  if (results.length === 0) throw new Error(`the agreement tests did not run (exit ${code}):\n${stderr}`);
  return {
    code,
    failed: results.filter((r) => r.status === "failed").map((r) => r.fullName),
    passed: results.filter((r) => r.status === "passed").map((r) => r.fullName),
  };
}

describe("the agreement tests catch a client limit one byte off", { timeout: 180_000 }, () => {
  test("as the client is, they pass", async () => {
    const outcome = await runAgreement("unchanged");
    expect(outcome.failed).toEqual([]);
    expect(outcome.code).toBe(0);
    expect(outcome.passed.length).toBeGreaterThanOrEqual(4);
  });

  test("MAX_FILE_BYTES one byte more: the file agreement fails", async () => {
    const outcome = await runAgreement("file-plus-one", { constant: "MAX_FILE_BYTES", by: 1 });
    expect(outcome.code).toBe(1);
    expect(outcome.failed).toContain("a file of the client's MAX_FILE_BYTES exactly the limit: the client sends it and the sandbox takes it whole");
    expect(outcome.failed.every((name) => name.startsWith("a file of"))).toBe(true);
  });

  test("MAX_FILE_BYTES one byte less: the file agreement fails", async () => {
    const outcome = await runAgreement("file-minus-one", { constant: "MAX_FILE_BYTES", by: -1 });
    expect(outcome.code).toBe(1);
    expect(outcome.failed).toContain(
      "a file of the client's MAX_FILE_BYTES one byte more: the client refuses it before sending, and the sandbox refuses it too",
    );
    expect(outcome.failed.every((name) => name.startsWith("a file of"))).toBe(true);
  });

  test("MAX_JSON_BODY_BYTES one byte more: the JSON agreement fails", async () => {
    const outcome = await runAgreement("json-plus-one", { constant: "MAX_JSON_BODY_BYTES", by: 1 });
    expect(outcome.code).toBe(1);
    expect(outcome.failed).toContain("a JSON run request of the client's MAX_JSON_BODY_BYTES exactly the limit: the client sends it and the sandbox runs it");
    expect(outcome.failed.every((name) => name.startsWith("a JSON run request"))).toBe(true);
  });
});
