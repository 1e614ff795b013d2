/**
 * Scripts as files, offline: the sandbox command started with `--scripts DIR` (the folder
 * `reduck scripts pull` writes) and `--site HOST=DIR` (a saved copy of the page the script drives),
 * and the built CLI's `reduck run` running the folder's own code against the saved page.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSandboxProcess } from "@reduck-client/sandbox";
import { runCli } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";
import { cliEnv } from "../support/sandbox.js";

let home: string;
let env: Record<string, string>;
let stop: () => void;
let exited: Promise<number | null>;

beforeAll(async () => {
  home = temporaryFolder("reduck-local-scripts-");
  const scripts = path.join(home, "scripts");
  const folder = path.join(scripts, "@alice", "shop.example", "cart_total");
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(folder, "script.ts"),
    [
      "await page.goto(`https://shop.example/cart/?currency=${args.currency}`);",
      'const prices: string[] = await page.locator("li.item").evaluateAll((items) => items.map((item) => item.getAttribute("data-price") ?? "0"));',
      'return { heading: await page.locator("h1").innerText(), currency: args.currency as string, total: prices.reduce((sum: number, p: string) => sum + Number(p), 0) };',
    ].join("\n"),
  );
  writeFileSync(
    path.join(folder, "contract.json"),
    `${JSON.stringify({ description: "The cart's total", input_schema: { type: "object", properties: { currency: { type: "string" } } }, output_schema: { type: "object" } }, null, 2)}\n`,
  );
  const site = path.join(home, "saved", "shop.example");
  mkdirSync(path.join(site, "cart"), { recursive: true });
  writeFileSync(
    path.join(site, "cart", "index.html"),
    '<!doctype html><title>Cart</title><h1>Your cart</h1><ul><li class="item" data-price="4.5">Tea</li><li class="item" data-price="3.25">Milk</li></ul>',
  );
  const desktop = temporaryFolder("reduck-local-scripts-desktop-");
  const sandbox = await startSandboxProcess(desktop, { browser: "simulated", args: ["--scripts", scripts, "--site", `shop.example=${site}`] });
  stop = sandbox.stop;
  exited = sandbox.exited;
  env = cliEnv({ url: sandbox.env.REDUCK_API_URL!, home, apiKey: sandbox.env.REDUCK_API_KEY! }).env;
}, 60_000);

afterAll(async () => {
  stop?.();
  await exited;
});

describe("reduck run against a sandbox started with --scripts and --site", () => {
  test("the caller is the folder's @user, and its script runs the local code against the saved page", async () => {
    const whoami = await runCli(["whoami", "--json"], { env });
    expect(JSON.parse(whoami.stdout)).toMatchObject({ handle: "@alice" });
    const ran = await runCli(["run", "--json", "--script", "@alice/shop.example/cart_total", "currency=EUR"], { env });
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ status: "completed", result: { heading: "Your cart", currency: "EUR", total: 7.75 } });
  });

  test("the script's code on the sandbox is the folder's, as written (types and all)", async () => {
    const got = await runCli(["scripts", "get", "@alice/shop.example/cart_total", "--code"], { env });
    expect(got.code).toBe(0);
    expect(got.stdout).toContain("const prices: string[] = await page.locator");
  });
});
