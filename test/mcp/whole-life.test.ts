/**
 * A script's whole life from an agent, through the official MCP SDK client, over stdio and over
 * Streamable HTTP: the built `reduck mcp` against the sandbox with its real browser (whose
 * screenshots are real PNGs) on its simulated web. Each step uses only what the previous
 * answers gave, as an agent would: the device id, the address, the run id, the version id.
 */
import { inflateSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { useCliSandbox } from "../support/sandbox.js";
import { useToolClient } from "./support.js";

const sandbox = useCliSandbox({ desktop: {}, home: "reduck-mcp-life-" });

/** A page of the simulated web: example.com has an h1, and no h2. */
const BROKEN = `await page.goto("https://example.com/");
const heading = await page.locator("h2").textContent({ timeout: 1500 });
return { heading };`;
// The fix waits as long as the page needs (the sandbox's default action timeout), so a busy machine does not fail it.
const FIXED = `await page.goto("https://example.com/");
return { heading: await page.locator("h1").textContent() };`;

/** Width and height from a PNG's IHDR chunk, after checking its signature and that its first IDAT inflates. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from("89504e470d0a1a0a", "hex"));
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  const idat = bytes.indexOf("IDAT", 0, "latin1");
  expect(idat).toBeGreaterThan(0);
  const length = bytes.readUInt32BE(idat - 4);
  // A real image: its compressed pixels inflate (only the first chunk's, which may stop mid-stream).
  expect(() => inflateSync(bytes.subarray(idat + 4, idat + 4 + length), { finishFlush: 2 })).not.toThrow();
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe.each(["stdio", "http"] as const)("over %s", (transport) => {
  const slug = `read_heading_${transport}`;

  const agent = useToolClient(sandbox, transport);

  const call = agent.call;

  test("list_devices, create_script, a failing run, its trace and screenshot, a draft that fixes it, promotion, the host README, archive", async () => {
    // 1. Which browser: the demo account's one paired browser.
    const devices = await call("list_devices", {});
    expect(devices.isError).toBe(false);
    expect(devices.structured.devices).toHaveLength(1);
    const deviceId: string = devices.structured.devices[0].deviceId;
    expect(devices.structured.extensionPicks).toBe(deviceId);

    // 2. A new script for a simulated site, with a mistake in it.
    const created = await call("create_script", {
      host: "example.com",
      slug,
      description: "Reads the page's heading",
      content: BROKEN,
      inputSchema: { type: "object", properties: {} },
      outputSchema: { type: "object", properties: { heading: { type: "string" } } },
      sideEffects: "none",
    });
    expect(created.isError, created.text).toBe(false);
    const address: string = created.structured.address;
    expect(address).toBe(`@demo/example.com/${slug}`);
    expect(created.structured.next).toContain(`run_script { script: { address: "${address}"`);

    // 3. It fails, and the answer says where to look.
    const failed = await call("run_script", { script: { address }, browser: { deviceId } });
    expect(failed.isError).toBe(true);
    expect(failed.structured).toMatchObject({ status: "failed", runId: expect.any(String) });
    expect(failed.structured.error).toContain("Timeout 1500ms exceeded");
    const runId: string = failed.structured.runId;
    expect(failed.structured.next).toContain(`read_run_trace with { "runId": "${runId}" }`);

    // 4. The trace: the failing step, and the page where it failed as an image.
    const trace = await call("read_run_trace", { runId });
    expect(trace.isError, trace.text).toBe(false);
    expect(trace.text).toContain(`Run ${runId} of ${address} (failed): 3 steps; step 2 failed: locator('h2').textContent().`);
    expect(trace.text).toMatch(/ {2}2 FAILED locator\('h2'\)\.textContent\(\) · \d+ ms — locator\.textContent: Timeout 1500ms exceeded/);
    // Counted from 1 in the text; the structured answer keeps the service's own index (from 0).
    expect(trace.text).toContain("failure after step 2: image 1 below");
    expect(trace.structured).toMatchObject({ failedStep: 1, totalSteps: 3, status: "failed", screenshots: [{ kind: "failure", afterStep: 1, shown: true }] });
    const images = trace.content.filter((c) => c.type === "image");
    expect(images).toHaveLength(1);
    expect(images[0]!.mimeType).toBe("image/png");
    const size = pngSize(Buffer.from(images[0]!.data!, "base64"));
    expect(size.width).toBeGreaterThan(100);
    expect(size.height).toBeGreaterThan(100);

    // 5. A draft with the fix; the script still runs its current version.
    const draft = await call("create_draft_script_version", { address, note: "The heading is an h1", content: FIXED });
    expect(draft.isError, draft.text).toBe(false);
    expect(draft.structured).toMatchObject({ address, version: 2, draft: true, current: false });
    const versionId: string = draft.structured.versionId;
    expect(draft.structured.next).toContain(`version_id: "${versionId}"`);

    // 6. The draft, tried before it is promoted.
    const tried = await call("run_script", { script: { address, version_id: versionId }, deviceId });
    expect(tried.isError, tried.text).toBe(false);
    expect(tried.structured).toEqual({ status: "completed", runId: expect.any(String), result: { heading: "Example Domain" } });
    const runs = await call("list_runs", { pageSize: 5 });
    expect(runs.structured.runs[0]).toMatchObject({ runId: tried.structured.runId, status: "completed", address, versionId });

    // 7. Promoted: runs use it from now on. Promoting it again changes nothing and says so.
    const promoted = await call("promote_script_version", { address, version_id: versionId });
    expect(promoted.isError, promoted.text).toBe(false);
    expect(promoted.structured).toMatchObject({ versionId, version: 2, draft: false, current: true });
    const again = await call("promote_script_version", { address, version: 2 });
    expect(again.structured).toMatchObject({ versionId, current: true, alreadyCurrent: true });
    expect(again.structured.next).toBe(`Version 2 was already the current version of ${address}: nothing changed.`);
    const now = await call("run_script", { script: { address } });
    expect(now.structured).toMatchObject({ status: "completed", result: { heading: "Example Domain" } });

    // 8. The host's README (the sandbox seeds one): read, replaced, read back; deleted, and then there is none.
    const seeded = await call("read_host_readme", { host: "example.com" });
    expect(seeded.isError, seeded.text).toBe(false);
    expect(seeded.structured).toMatchObject({ handle: "@demo", host: "example.com", content: expect.any(String) });
    const readme = `# example.com\nThe heading is an h1 (${transport}).`;
    const written = await call("set_host_readme", { host: "example.com", content: readme });
    expect(written.structured).toMatchObject({ handle: "@demo", host: "example.com", content: readme });
    expect((await call("read_host_readme", { host: "example.com" })).structured.content).toBe(readme);
    expect((await call("delete_host_readme", { host: "example.com" })).structured).toMatchObject({ address: "@demo/example.com" });
    const none = await call("read_host_readme", { host: "example.com" });
    expect(none.structured).toMatchObject({ handle: "@demo", host: "example.com", content: null });
    expect(none.structured.next).toContain('set_host_readme { host: "example.com", content }');
    // Put back for the next transport's turn.
    await call("set_host_readme", { host: "example.com", content: seeded.structured.content });

    // 9. Archived: it can no longer be run, and the answer says how to restore it.
    const archived = await call("archive_script", { address });
    expect(archived.isError, archived.text).toBe(false);
    expect(archived.structured).toMatchObject({ address, archived: true, currentVersionId: versionId });
    expect(archived.structured.next).toContain(`unarchive_script { address: "${address}" }`);
    const refused = await call("run_script", { script: { address } });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/archived/i);
  }, 120_000);
});
