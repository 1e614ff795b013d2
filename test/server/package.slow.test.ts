// The sandbox as a user installs it: its packed tarball and reduck-client's, installed with npm
// into an empty folder (nothing of this repository reachable from there). Then `npx reduck-sandbox
// --help`; the installed command serving, and the installed reduck CLI running a script with a
// file against it; and a vitest file of that folder using startSandbox(): a run, runs() with the
// file's SHA-256, next() making the next run a 202 that the library polls to its result, and a
// failure with its errorType; and an author's vitest file that starts the sandbox with their
// scripts folder (as `reduck scripts pull` writes it) and a saved copy of the page their script
// drives, and runs the script there, on the simulated page and in a real Chromium. Needs reduck-client built: the root suite's own build (REDUCK_TEST_BUILD,
// laid out as the package), else the repository's dist/ (npm run build); and the registry (npm
// install fetches the dependencies, or takes them from its cache).
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(path.join(os.tmpdir(), "reduck-sandbox-pack-"));
const project = path.join(work, "project");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const env = { PATH: process.env.PATH ?? "", HOME: work, npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), ".npm"), NO_COLOR: "1" };

beforeAll(async () => {
  await exec(npm, ["pack", "-w", "@reduck-client/sandbox", "--pack-destination", work], { cwd: ROOT, env: { ...process.env } });
  // The client as already built (prepack would build it again): the root suite's build, else dist/.
  await exec(npm, ["pack", "--ignore-scripts", "--pack-destination", work], { cwd: process.env.REDUCK_TEST_BUILD ?? ROOT, env: { ...process.env } });
  const tarballs = readdirSync(work).filter((name) => name.endsWith(".tgz"));
  expect(tarballs.sort()).toEqual(["reduck-client-0.1.0.tgz", "reduck-client-sandbox-0.1.0.tgz"]);
  await exec("mkdir", [project]);
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "my-project", private: true, type: "module" }));
  await exec(npm, ["install", "--no-audit", "--no-fund", ...tarballs.map((name) => path.join(work, name)), "vitest@4.1.12"], {
    cwd: project,
    env,
    timeout: 240_000,
  });
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

it("npx reduck-sandbox --help lists its options", async () => {
  const { stdout } = await exec("npx", ["reduck-sandbox", "--help"], { cwd: project, env });
  expect(stdout).toMatch(/Usage: reduck-sandbox \[options\]/);
  for (const option of ["--port N", "--write-env FILE", "--browser simulated|real", "--scripts DIR"]) expect(stdout).toContain(option);
}, 60_000);

it("the installed command serves, and the installed reduck CLI runs a script with a file against it", async () => {
  const bin = path.join(project, "node_modules", "@reduck-client", "sandbox", "bin", "reduck-sandbox.mjs");
  const child = spawn(process.execPath, [bin, "--port", "0", "--browser", "simulated"], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
  const closed = once(child, "close");
  try {
    let stdout = "";
    const vars = await new Promise<Record<string, string>>((resolve, reject) => {
      closed.then(() => reject(new Error("the sandbox exited")));
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk;
        const found = Object.fromEntries([...stdout.matchAll(/^(REDUCK_API_URL|REDUCK_API_KEY)=(.+)$/gm)].map((m) => [m[1]!, m[2]!]));
        if (found.REDUCK_API_URL && found.REDUCK_API_KEY) resolve(found);
      });
    });
    writeFileSync(path.join(project, "report.txt"), "the quarterly report");
    const reduck = path.join(project, "node_modules", "reduck-client", "bin", "run.js");
    const { stdout: answer } = await exec(
      process.execPath,
      [
        reduck,
        "run",
        "--json",
        "--browser",
        "extension",
        "--script",
        "reduck/mail.google.com/send_email",
        "to=me@example.com",
        "subject=Report",
        "file:attachment=report.txt",
      ],
      { cwd: project, env: { ...env, ...vars } },
    );
    expect(JSON.parse(answer)).toMatchObject({ status: "completed", result: { sent: true } });
  } finally {
    child.kill("SIGTERM");
    await closed;
  }
}, 60_000);

it("a vitest file of that folder tests its own code with startSandbox()", async () => {
  writeFileSync(
    path.join(project, "my-code.test.ts"),
    `import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startSandbox } from "@reduck-client/sandbox";
import { createReduckClient, runScript } from "reduck-client";
import { afterAll, beforeAll, expect, test } from "vitest";

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => { sandbox = await startSandbox(); });
afterAll(async () => { await sandbox.close(); });

const bytes = Buffer.from("my invoice");
const send = (extra = {}) => {
  const file = path.join(sandbox.desktop, "invoice.pdf");
  writeFileSync(file, bytes);
  return runScript({
    client: createReduckClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.url }),
    browser: "extension",
    script: { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "me@example.com", subject: "Invoice" }, files: { attachment: { path: file } } },
    ...extra,
  });
};

test("a run, with the file's SHA-256 in runs()", async () => {
  const { data, error } = await send();
  expect(error).toBeUndefined();
  expect(data!.result).toMatchObject({ sent: true });
  expect(sandbox.runs()[0]!.files[0]!.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
});

test("next(): a 202 the library polls to its result, and a failure with its errorType", async () => {
  sandbox.next({ held: 2 });
  const statuses: string[] = [];
  const held = await send({ waitForSeconds: 1, onStatus: (update: { status: string }) => statuses.push(update.status) });
  expect(held.data!.result).toMatchObject({ sent: true });
  expect(statuses[0]).toBe("running");
  sandbox.next({ failed: { errorType: "site_error", externalMessage: "The site is down." } });
  const failed = await send();
  expect(failed.error).toMatchObject({ errorType: "site_error", externalMessage: "The site is down." });
});
`,
  );
  const { stdout } = await exec("npx", ["--no", "vitest", "run"], { cwd: project, env });
  expect(stdout).toMatch(/Tests\s+2 passed/);
}, 120_000);

it("an author's vitest file runs their script from its folder against a saved copy of its page, with no network", async () => {
  // The folder as `reduck scripts pull` writes it, the code in TypeScript, and the saved pages.
  const script = path.join(project, "scripts", "@alice", "shop.example", "cart_total");
  mkdirSync(script, { recursive: true });
  writeFileSync(
    path.join(script, "script.ts"),
    `await page.goto(\`https://shop.example/cart?currency=\${args.currency}\`);
const prices: string[] = await page.locator("li.item").evaluateAll((items) => items.map((item) => item.getAttribute("data-price") ?? "0"));
const total: number = prices.reduce((sum: number, price: string) => sum + Number(price), 0);
return { heading: await page.locator("h1").innerText(), items: prices.length, total };
`,
  );
  writeFileSync(
    path.join(script, "contract.json"),
    `${JSON.stringify(
      {
        name: "Cart total",
        description: "The total of the cart",
        input_schema: { type: "object", properties: { currency: { type: "string" } }, required: ["currency"] },
        output_schema: { type: "object", properties: { total: { type: "number" } } },
        side_effects: "none",
        logged_in: false,
        visibility: "private",
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(path.join(project, "scripts", "reduck.lock.json"), `${JSON.stringify({ lockVersion: 1, scripts: {} }, null, 2)}\n`);
  const saved = path.join(project, "saved", "shop.example");
  mkdirSync(path.join(saved, "cart"), { recursive: true });
  writeFileSync(
    path.join(saved, "cart", "index.html"),
    '<!doctype html><html><head><title>Cart</title><link rel="stylesheet" href="/style.css"></head><body><h1>Your cart</h1><ul>' +
      '<li class="item" data-price="4.5">Tea</li><li class="item" data-price="3.25">Milk</li></ul></body></html>',
  );
  writeFileSync(path.join(saved, "style.css"), "h1 { font-size: 20px; }");
  writeFileSync(
    path.join(project, "cart-total.test.ts"),
    `import { startSandbox } from "@reduck-client/sandbox";
import { createReduckClient, runScript } from "reduck-client";
import { expect, test } from "vitest";

for (const browser of ["simulated", "real"] as const) {
  test(\`cart_total against the saved cart (\${browser})\`, async () => {
    const sandbox = await startSandbox({ browser, scripts: "./scripts", sites: { "shop.example": "./saved/shop.example" } });
    try {
      const client = createReduckClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.url });
      const { data, error } = await runScript({ client, script: { handle: "@alice", host: "shop.example", slug: "cart_total", args: { currency: "EUR" } } });
      expect(error).toBeUndefined();
      expect(data!.result).toEqual({ heading: "Your cart", items: 2, total: 7.75 });
      expect(sandbox.runs()).toMatchObject([{ script: "@alice/shop.example/cart_total", status: "success" }]);
    } finally {
      await sandbox.close();
    }
  }, 90_000);
}
`,
  );
  const { stdout } = await exec("npx", ["--no", "vitest", "run", "cart-total.test.ts"], { cwd: project, env, timeout: 180_000 });
  expect(stdout).toMatch(/Tests\s+2 passed/);
}, 200_000);
