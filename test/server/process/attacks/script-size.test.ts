// A script body over the limit is refused with 413 at POST /api/scripts and at
// version creation and editing, from Content-Length or as the count passes 1 MiB, before the body
// is read whole; nothing is stored, a run beside it succeeds and the server answers afterwards.
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { BESIDE, MiB } from "../../testing/sandbox-under-attack.js";
import { attackedSandbox } from "./fixtures/attacked-sandbox.js";

const sandbox = attackedSandbox();

/**
 * Sends `total` bytes of a JSON body in 1 MiB writes (with Content-Length, or chunked without),
 * and resolves with the status as soon as the answer comes, and how much had been written then.
 */
function sendBig(
  method: string,
  where: string,
  total: number,
  { declared }: { declared: boolean },
): Promise<{ status: number; body: string; written: number }> {
  return new Promise((resolve, reject) => {
    const url = new URL(where, sandbox.url);
    const headers: Record<string, string | number> = { "x-api-key": sandbox.key, "content-type": "application/json" };
    if (declared) headers["content-length"] = total;
    const req = request(url, { method, headers });
    let written = 0;
    let answered = false;
    req.on("response", (response) => {
      answered = true;
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode!, body, written }));
    });
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(MiB, 0x20);
    chunk.write('{"content":"', 0);
    const next = () => {
      if (answered || written >= total) return void req.end();
      written += chunk.length;
      if (req.write(chunk)) setImmediate(next);
      else req.once("drain", next);
    };
    next();
  });
}

describe("script bodies have a size limit", () => {
  it("413 for a 200 MB body at POST /api/scripts, from Content-Length and counted, before it is read whole", async () => {
    const beside = sandbox.createAndRun(BESIDE);
    for (const declared of [true, false]) {
      const refused = await sendBig("POST", "/api/scripts/@demo", 200 * MiB, { declared });
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body).error).toMatch(/^Payload Too Large: the request body is over 1 MiB/);
      // Answered long before the client had sent it all.
      expect(refused.written).toBeLessThan(100 * MiB);
    }
    expect(await beside).toMatchObject({ status: 200, body: { result: { beside: "fine" } } });
    expect(sandbox.stderr()).toMatch(/413 POST \/api\/scripts\/@demo: the request body is over 1 MiB/);
  }, 60_000);

  it("413 at version creation and draft editing; a draft just under the limit is kept", async () => {
    const content = `return { size: ${"1".padEnd(1000, " ")}.length };`;
    const ran = await sandbox.createAndRun(content);
    expect(ran.status).toBe(200);
    const scripts = await sandbox.call("GET", "/api/scripts/@demo?pageSize=100");
    const slug = scripts.body.data.find((s: { slug: string }) => s.slug.startsWith("attack_")).slug;
    const base = `/api/scripts/@demo/example.org/${slug}/versions`;
    const big = "x".repeat(2 * MiB);
    const created = await sandbox.call("POST", base, { content: `return '${big}';`, note: "too big" });
    expect(created.status).toBe(413);
    const draft = await sandbox.call("POST", base, { content: "return { draft: true };", note: "a draft" });
    expect(draft.status).toBe(201);
    expect((await sandbox.call("PATCH", `${base}/${draft.body.id}`, { content: `return '${big}';` })).status).toBe(413);
    // Just under: 1 MiB of request in all is accepted.
    expect((await sandbox.call("PATCH", `${base}/${draft.body.id}`, { content: `return '${"y".repeat(MiB - 100)}';` })).status).toBe(200);
    expect((await sandbox.call("GET", "/api/ping")).status).toBe(200);
  }, 60_000);
});
