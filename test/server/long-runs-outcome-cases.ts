// Long runs, continued from long-runs-cases.ts: how failures are reported (errorType,
// externalMessage), the browser a run asks for, and the request's own limits.
import { describe, expect, it } from "vitest";
import { SEED_IDS } from "./index.js";
import { longRunClient, type Door, sleep } from "./long-runs-client.js";

export function longRunOutcomeCases(door: () => Door): void {
  const { run, getRun } = longRunClient(door);

  describe("errorType and externalMessage", () => {
    it("types a timeout, invalid input and an unavailable browser", async () => {
      const store = door().store;
      // A signed-in script on the cloud needs a connector for its host: demo has none for example.net.
      store.addScript({ handle: "@demo", host: "example.net", slug: "inbox", loggedIn: true, language: "javascript", content: "return {};" });
      store.runTimeoutMs = 500;
      const answered = await run({ scripts: [sleep(3), { ...sleep(0), args: {} }, { host: "example.net", slug: "inbox" }] });
      store.runTimeoutMs = 300_000;
      expect(answered.status).toBe(200);
      expect(answered.body[0]).toEqual({
        status: "failed",
        runId: expect.any(String),
        error: "script timed out after 0.5 s",
        errorType: "timeout",
        externalMessage: "sandbox/sandbox.test/sleep did not finish within 0.5 s, so it was stopped.",
      });
      const invalid = "Invalid arguments for sandbox/sandbox.test/sleep: seconds is required";
      expect(answered.body[1]).toEqual({ status: "failed", runId: expect.any(String), error: invalid, errorType: "invalid_input", externalMessage: invalid });
      expect(answered.body[2]).toMatchObject({ status: "failed", runId: expect.any(String), errorType: "browser_unavailable" });
      expect(answered.body[2].error).toMatch(/^no connector for example.net: a managed browser starts signed out/);
      expect(answered.body[2].externalMessage).toBe(answered.body[2].error);
    });

    it("types a script that cannot run to its end (it does not compile) as script_error", async () => {
      door().store.addScript({ handle: "@demo", host: "example.net", slug: "broken", language: "javascript", content: "return {" });
      const failed = await run({ script: { host: "example.net", slug: "broken" } });
      expect(failed.status).toBe(422);
      expect(failed.body).toMatchObject({ runId: expect.any(String), errorType: "script_error" });
      expect(failed.body.externalMessage).toMatch(/^@demo\/example\.net\/broken could not run to its end \(.+\): the script needs fixing\.$/);
    });

    it("carries errorType and externalMessage on a single run's failure beside its runId", async () => {
      const failed = await run({ script: sleep(0, { fail: "Out of stock" }) });
      expect(failed).toEqual({
        status: 422,
        body: {
          error: "Error: Out of stock",
          runId: expect.any(String),
          errorType: "site_error",
          externalMessage: "sandbox/sandbox.test/sleep failed on the site: Out of stock",
        },
      });
    });
  });

  describe("browser: cloud, region, country", () => {
    it('runs "cloud" (and "managed", the same) on a managed browser in the region and country asked for', async () => {
      const cloud = await run({ browser: "cloud", region: "us-west-2", country: "de", script: sleep(0) });
      expect(cloud.status).toBe(200);
      expect((await getRun(cloud.body.runId)).body.browser).toEqual({ type: "managed", region: "us-west-2", country: "DE" });
      const managed = await run({ browser: "managed", script: sleep(0) });
      expect((await getRun(managed.body.runId)).body.browser).toEqual({ type: "managed", region: "eu-central-1", country: "" });
      const absent = await run({ region: "ap-southeast-1", script: sleep(0) });
      expect((await getRun(absent.body.runId)).body.browser).toEqual({ type: "managed", region: "ap-southeast-1", country: "" });
    });

    it("refuses region and country on a device, an unknown region and a code that is no country, recording nothing", async () => {
      const before = door().store.runs.size;
      const onExtension = await run({ browser: "extension", region: "us-east-1", script: sleep(0) });
      expect(onExtension).toEqual({
        status: 400,
        body: {
          error: 'region chooses where a cloud browser runs, so it does not apply to your own browser: remove it, or run on the cloud (browser: "cloud")',
          variables: { region: ["is for the cloud browser only"] },
          errorType: "invalid_input",
          externalMessage:
            'region chooses where a cloud browser runs, so it does not apply to your own browser: remove it, or run on the cloud (browser: "cloud")',
        },
      });
      const onDevice = await run({ browser: { deviceId: door().store.demo.deviceId }, region: "us-east-1", country: "FR", scripts: [sleep(0)] });
      expect(onDevice.status).toBe(400);
      expect(onDevice.body.error).toMatch(/^region and country choose where a cloud browser runs/);
      expect(onDevice.body.variables).toEqual({ region: ["is for the cloud browser only"], country: ["is for the cloud browser only"] });
      const region = await run({ browser: "cloud", region: "mars-north-1", script: sleep(0) });
      expect(region.status).toBe(400);
      expect(region.body.error).toMatch(/region/);
      for (const country of ["XX", "EU", "FRA", "1A"]) {
        const refused = await run({ country, script: sleep(0) });
        expect(refused.status, country).toBe(400);
        expect(refused.body.error).toMatch(/country/);
      }
      expect(door().store.runs.size).toBe(before);
    });
  });

  describe('browser: "extension" and the paired browsers', () => {
    it("refuses with no paired browser, and with two, listing their ids; one works", async () => {
      const store = door().store;
      expect((await run({ browser: "extension", script: sleep(0) })).status).toBe(200);
      store.setDemoDevices(0);
      const none = await run({ browser: "extension", script: sleep(0) });
      expect(none.status).toBe(400);
      expect(none.body).toMatchObject({ errorType: "browser_unavailable" });
      expect(none.body.error).toBe(
        'No paired browser on this account: "extension" runs in your one paired browser, and none is paired. Install the Reduck extension and pair it, or run on the cloud (browser: "cloud")',
      );
      const ids = store.setDemoDevices(2).map((d) => d.id);
      expect(ids[0]).toBe(SEED_IDS.devices.demo);
      const two = await run({ browser: "extension", scripts: [sleep(0), sleep(0)] });
      expect(two.status).toBe(400);
      expect(two.body.error).toBe(
        `Several paired browsers match "extension" (${ids.join(", ")}): "extension" picks one only when exactly one is paired; pick one with browser: { deviceId }`,
      );
      expect(two.body.errorType).toBe("browser_unavailable");
      // Naming one of them works.
      expect((await run({ browser: { deviceId: ids[1] }, script: sleep(0) })).status).toBe(200);
    });
  });

  describe("the request's own limits", () => {
    it("refuses more than 20 scripts, accepts 20", async () => {
      const refused = await run({ scripts: Array.from({ length: 21 }, () => sleep(0)) });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/scripts/);
      const twenty = await run({ scripts: Array.from({ length: 20 }, (_, i) => sleep(0, { echo: i })) });
      expect(twenty.status).toBe(200);
      expect(twenty.body.map((e: { result: { echo: number } }) => e.result.echo)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    });
  });
}
