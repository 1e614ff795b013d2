/**
 * The one check of an id, where it becomes part of a URL: the path parameters the API
 * description gives `format: uuid`, and dot segments, refused with `invalid_id` before anything
 * is sent, whichever generated function carries them.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { createReduckClient, getRun, getScript, getScriptVersion } from "../../src/index.js";
import { pathIdProblem, UUID_PATH_PARAMS } from "../../src/core/path-ids.js";

const description = JSON.parse(readFileSync(new URL("../../openapi.json", import.meta.url), "utf8"));

/** A client whose every request is counted, and answered 200 `{}`. */
function counting() {
  const sent: string[] = [];
  const client = createReduckClient({
    apiKey: "k",
    baseUrl: "http://127.0.0.1:9",
    fetch: async (input: RequestInfo | URL) => {
      sent.push(String(input instanceof Request ? input.url : input));
      return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    },
  });
  return { client, sent };
}

describe("the ids a path takes", () => {
  test("are the description's path parameters of format uuid, and the run host's batchId", () => {
    const uuidParams = new Set<string>(["batchId"]);
    for (const item of Object.values<any>(description.paths)) {
      for (const op of Object.values<any>(item)) {
        for (const p of [...(item.parameters ?? []), ...(op?.parameters ?? [])]) if (p?.in === "path" && p.schema?.format === "uuid") uuidParams.add(p.name);
      }
    }
    expect(Object.keys(UUID_PATH_PARAMS).sort()).toEqual([...uuidParams].sort());
  });

  test.each([
    ["runId", "86b0479f-a68f-4fcd-92d1-b68f485ee3d9", true],
    ["runId", "00000000-0000-0000-0000-000000000000", true],
    ["runId", "ffffffff-ffff-ffff-ffff-ffffffffffff", true],
    ["runId", "86B0479F-A68F-4FCD-92D1-B68F485EE3D9", true],
    ["runId", "86b0479f-a68f-0fcd-92d1-b68f485ee3d9", false],
    ["runId", "string", false],
    ["versionId", "../../api/me", false],
    ["appId", "", false],
    ["handle", "string", true],
    ["handle", "@demo", true],
    ["handle", "..", false],
    ["host", ".", false],
  ])("%s %j: %s", (parameter, value, fits) => {
    const problem = pathIdProblem(parameter, value);
    if (fits) expect(problem).toBeUndefined();
    else expect(problem).toMatchObject({ kind: "invalid_request", code: "invalid_id", parameter });
  });

  test("a refusal shows the id as text: control and bidi characters escaped, cut at 80 characters", () => {
    expect(pathIdProblem("runId", "x\u001b[2J\u202e")!.error).toBe(
      '"x\\u001b[2J\\u202e" is not a run id: a run id is a UUID, such as 86b0479f-a68f-4fcd-92d1-b68f485ee3d9',
    );
    expect(pathIdProblem("runId", "y".repeat(500))!.error).toContain(`"${"y".repeat(80)}..."`);
  });

  test("every generated function refuses before anything is sent, and sends one that fits", async () => {
    const { client, sent } = counting();
    const script = { handle: "reduck", host: "mail.google.com", slug: "send_email" };
    expect((await getRun({ client, path: { runId: "latest" } })).error).toMatchObject({ code: "invalid_id", parameter: "runId" });
    expect((await getScriptVersion({ client, path: { ...script, versionId: "2" } })).error).toMatchObject({ code: "invalid_id", parameter: "versionId" });
    expect((await getScript({ client, path: { ...script, handle: ".." } })).error).toMatchObject({ code: "invalid_id", parameter: "handle" });
    expect(sent).toEqual([]);
    expect((await getRun({ client, path: { runId: "86b0479f-a68f-4fcd-92d1-b68f485ee3d9" } })).error).toBeUndefined();
    expect(sent).toEqual(["http://127.0.0.1:9/api/runs/86b0479f-a68f-4fcd-92d1-b68f485ee3d9"]);
  });
});
