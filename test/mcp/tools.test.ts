/**
 * Each tool through the official SDK client, over stdio and over Streamable HTTP, against the
 * sandbox: its success, and the mistakes an agent is likely to make (a misspelt address, an
 * unknown version, a draft promoted twice, a page past the end, an argument of the wrong shape).
 * A mistake is a tool error in one line that says what to do, and sends nothing it need not.
 * Calls are shaped as the hosted server's are seen in real agent traffic (service-facts §4).
 */
import { describe, expect, test } from "vitest";
import { useCliSandbox } from "../support/sandbox.js";
import { useToolClient, type ToolAnswer } from "./support.js";

const sandbox = useCliSandbox({ desktop: {}, home: "reduck-mcp-tools-" });
const GET_TITLE = { handle: "@demo", host: "example.com", slug: "get_title" };
const TITLE = "reduck-mcp-tools";

describe.each(["stdio", "http"] as const)("over %s", (transport) => {
  /** A script of this transport's own, so the two never meet. */
  const own = (slug: string) => `${slug}_${transport}`;

  const agent = useToolClient(sandbox, transport);

  const call = agent.call;
  const runs = () => sandbox.store.runs.size;
  /** A tool error: one line, no stack. */
  const oneLineError = (r: ToolAnswer) => {
    expect(r.isError, r.text).toBe(true);
    expect(r.text).not.toContain("\n");
    expect(r.text).not.toMatch(/\bat .+:\d+:\d+\)?/);
    return r.text;
  };

  describe("run_script, with the inputs the hosted server is called with", () => {
    const script = { ...GET_TITLE, args: { url: "https://example.com/" } };

    test.each([
      ["a single script with fullOutput", { script, fullOutput: true }],
      ["a single script with waitForSeconds", { script, waitForSeconds: 60 }],
      ["both, and browser extension", { script, fullOutput: true, waitForSeconds: 30, browser: "extension" }],
      ["a hosted (managed) browser in a region", { script, browser: "managed", region: "eu-central-1" }],
    ])("%s: runs", async (_what, args) => {
      const r = await call("run_script", args);
      expect(r.isError, r.text).toBe(false);
      expect(r.structured).toEqual({ status: "completed", runId: expect.any(String), result: { title: "Example Domain" } });
    });

    test("a scripts array with fullOutput and waitForSeconds: each outcome in order", async () => {
      const r = await call("run_script", {
        scripts: [script, { ...script, args: { url: "https://www.example.com/" } }],
        fullOutput: true,
        waitForSeconds: 60,
      });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured).toMatchObject({ status: "completed", totalSteps: 2 });
      expect(r.structured.runs.map((s: { status: string }) => s.status)).toEqual(["completed", "completed"]);
    });

    test("a paired browser by deviceId, at the top level or in browser", async () => {
      const id: string = (await call("list_devices", {})).structured.devices[0].deviceId;
      for (const args of [
        { script, deviceId: id },
        { script, browser: { deviceId: id } },
        { script, browser: { deviceId: id }, deviceId: id },
      ]) {
        const r = await call("run_script", args);
        expect(r.structured, JSON.stringify(args)).toMatchObject({ status: "completed" });
      }
    });

    test("a long result is shortened unless fullOutput, and the answer says so", async () => {
      const created = await call("create_script", {
        host: "example.com",
        slug: own("long_text"),
        description: "Returns a long text",
        content: 'return { text: "x".repeat(50000), items: Array.from({ length: 3000 }, (_, i) => i) };',
        inputSchema: { type: "object", properties: {} },
        outputSchema: { type: "object" },
        sideEffects: "none",
      });
      const address = created.structured.address;
      const short = await call("run_script", { script: { address } });
      expect(short.isError).toBe(false);
      expect(short.text.length).toBeLessThan(30_000);
      expect(short.structured.result.text).toMatch(/^x+… \[\d+ more characters\]$/);
      expect(short.structured.shortened).toContain("fullOutput: true");
      const full = await call("run_script", { script: { address }, fullOutput: true });
      expect(full.structured.result.text).toBe("x".repeat(50_000));
      expect(full.structured.result.items).toHaveLength(3000);
      expect(full.structured.shortened).toBeUndefined();
      // The whole result of the first run, later.
      const again = await call("read_run_results", { runId: short.structured.runId, fullOutput: true });
      expect(again.structured.result.text).toBe("x".repeat(50_000));
    });

    test.each([
      [
        { script, browser: "local" },
        'browser "local" (a browser paired by the official CLI\'s `reduck local`) is not picked by kind by this server: call list_devices',
      ],
      [{ script, browser: { deviceId: "a" }, deviceId: "b" }, 'give browser or deviceId, not both: deviceId "b" is shorthand for browser: { deviceId: "b" }'],
      [
        { script, browser: "extension", region: "eu-central-1" },
        'region is for the cloud browser only, and this run goes to your own browser (extension): drop region, or run with browser: "cloud"',
      ],
      [{ script: { ...script, version_id: "2" } }, '"2" is not a version id: a version id is a UUID'],
      [{ script, waitForSeconds: 600 }, "Invalid arguments for run_script: waitForSeconds must be at most 110. Usage: run_script { script: { address:"],
      [{ script, fullOutput: "yes" }, "Invalid arguments for run_script: fullOutput must be a boolean (got a string). Usage: run_script"],
      [{ script, browser: "chrome" }, 'Invalid arguments for run_script: browser must be "extension", "local", "cloud", "managed" or { deviceId }. Usage:'],
      [{ scripts: Array.from({ length: 21 }, () => script) }, "Invalid arguments for run_script: scripts must hold at most 20 items."],
      [{ fullOutput: true }, "Give exactly one of script (one run: script: { address, args }) or scripts"],
    ])("refused before anything is run: %j", async (args, message) => {
      const before = runs();
      const text = oneLineError(await call("run_script", args));
      expect(text).toContain(message);
      expect(runs()).toBe(before);
    });

    test("a device this account does not have: the service's refusal, and where the ids are", async () => {
      const r = await call("run_script", { script, deviceId: "00000000-0000-4000-8000-00000000dead" });
      expect(r.isError).toBe(true);
      expect(r.structured).toMatchObject({
        status: "failed",
        error: expect.stringContaining("No paired browser 00000000-0000-4000-8000-00000000dead on this account"),
        next: expect.stringMatching(/^list_devices shows your paired browsers/),
      });
    });

    test("a version that is not the script's: the versions it has", async () => {
      const text = oneLineError(await call("run_script", { script: { ...script, version_id: "00000000-0000-4000-8000-00000000beef" } }));
      expect(text).toMatch(/Versions of @demo\/example\.com\/get_title: 1 = [0-9a-f-]{36}, 2 \(current\) = [0-9a-f-]{36}\.$/);
    });
  });

  describe("reading runs", () => {
    test("read_run_results and read_run_trace refuse what is not a run id, and name the ids likely meant for an unknown one", async () => {
      expect(oneLineError(await call("read_run_results", { runId: "86b0" }))).toContain('"86b0" is not a run id: a run id is a UUID');
      expect(oneLineError(await call("read_run_trace", { runId: "latest" }))).toContain('"latest" is not a run id');
      const ran = await call("run_script", { script: { ...GET_TITLE, args: { url: "https://example.com/" } } });
      const runId: string = ran.structured.runId;
      const typo = `${runId.slice(0, -2)}${runId.endsWith("00") ? "11" : "00"}`;
      const text = oneLineError(await call("read_run_trace", { runId: typo }));
      expect(text).toContain(`Did you mean ${runId}?`);
    });

    test("read_run_trace of a run that never reached a browser says it recorded none, and why", async () => {
      const inspect = await call("create_script", {
        host: "example.org",
        slug: own("needs_doc"),
        description: "Needs a file",
        content: "return {};",
        inputSchema: { type: "object", properties: { doc: { type: "string", format: "file" } }, required: ["doc"] },
        outputSchema: { type: "object" },
        sideEffects: "none",
      });
      const failed = await call("run_script", { script: { address: inspect.structured.address } });
      expect(failed.structured).toMatchObject({ status: "failed", error: "missing file input doc" });
      const text = oneLineError(await call("read_run_trace", { runId: failed.structured.runId }));
      expect(text).toBe(
        `Run ${failed.structured.runId} recorded no trace. It failed before a browser step: missing file input doc read_run_results with { "runId": "${failed.structured.runId}" } gives its outcome.`,
      );
    });

    test("read_run_trace of a run that completed: every step ok, the page it ended on", async () => {
      const ran = await call("run_script", { script: { ...GET_TITLE, args: { url: "https://example.com/" } } });
      const trace = await call("read_run_trace", { runId: ran.structured.runId });
      expect(trace.structured).toMatchObject({
        address: "@demo/example.com/get_title",
        status: "completed",
        failedStep: null,
        screenshots: [{ kind: "last", shown: true }],
      });
      expect(trace.text).toMatch(/\(completed\): \d+ steps, none failed\./);
      expect(trace.content.filter((c) => c.type === "image")).toHaveLength(1);
    });

    test("list_runs pages and says when there is more; a page past the end says which pages there are", async () => {
      const first = await call("list_runs", { pageSize: 2 });
      expect(first.structured).toMatchObject({ page: 0, pageSize: 2, hasNextPage: true });
      expect(first.structured.next).toMatch(/^More runs \(\d+ in all\): call list_runs again with page: 1 and pageSize: 2/);
      const total: number = first.structured.totalCount;
      const text = oneLineError(await call("list_runs", { page: 5000, pageSize: 2 }));
      expect(text).toBe(
        `page 5000 is past the end: ${total} runs make ${Math.ceil(total / 2)} pages of 2 (page 0 to ${Math.ceil(total / 2) - 1}). Call list_runs with page: ${Math.ceil(total / 2) - 1} for the last.`,
      );
    });
  });

  describe("the catalogue", () => {
    test("list_scripts pages; a page past the end is a tool error", async () => {
      const first = await call("list_scripts", { handle: "reduck", pageSize: 3 });
      expect(first.structured.scripts).toHaveLength(3);
      expect(first.structured.next).toContain("call list_scripts again with page: 1");
      const text = oneLineError(await call("list_scripts", { handle: "reduck", page: 400 }));
      expect(text).toMatch(/^page 400 is past the end: \d+ scripts make \d+ pages? of 20/);
    });

    test("read_script with code: true shows the code a draft would change", async () => {
      const r = await call("read_script", { address: "example.com/get_title", code: true });
      expect(r.structured).toMatchObject({ address: "@demo/example.com/get_title", content: expect.stringContaining("page.title()") });
      expect(r.structured.codeWithheld).toBeUndefined();
    });

    test("read_script with code: true on an official script whose code the service withholds says so, as the CLI does", async () => {
      const r = await call("read_script", { address: "reduck/mail.google.com/send_email", code: true });
      expect(r.structured.content).toBeUndefined();
      expect(r.structured.codeWithheld).toBe(
        "The service withheld this version's code: the code of an official catalogue script is shown only to members of the project that owns it.",
      );
    });

    test("list_devices: the paired browser, and which one run_script picks", async () => {
      const r = await call("list_devices", {});
      expect(r.structured.devices[0]).toMatchObject({ deviceId: expect.any(String), reachable: expect.any(Boolean), fileAccess: true });
      expect(r.structured.next).toContain("run_script runs on it by default");
    });

    test("create_script: its mistakes are caught here when they can be, and named by the service when not", async () => {
      const base = {
        host: "example.com",
        slug: own("title_again"),
        description: "x",
        content: "return {};",
        inputSchema: { type: "object" },
        outputSchema: { type: "object" },
        sideEffects: "none",
      };
      const lastRequest = sandbox.store.requestLog.at(-1);
      expect(oneLineError(await call("create_script", { ...base, slug: "Get-Title" }))).toContain(
        '"Get-Title" is not a script slug (lowercase letters, digits, _ and -)',
      );
      // A slug with a dot is a bad slug here, not an address that ends at a host.
      expect(oneLineError(await call("create_script", { ...base, slug: "get.title" }))).toContain('"get.title" is not a script slug');
      expect(oneLineError(await call("create_script", { ...base, draft: true, visibility: "public" }))).toContain("a public script needs one");
      expect(oneLineError(await call("create_script", { ...base, input_schema: {} }))).toContain(
        'unknown argument "input_schema" (did you mean "inputSchema"?',
      );
      // The snake-case name in place of the camel-case one: the did-you-mean leads, before the
      // missing inputSchema it explains.
      const { inputSchema, ...withoutInputSchema } = base;
      expect(oneLineError(await call("create_script", { ...withoutInputSchema, input_schema: inputSchema }))).toMatch(
        /^Invalid arguments for create_script: unknown argument "input_schema" \(did you mean "inputSchema"\? .*\) \(and 1 more problem\)\. Usage: /,
      );
      expect(oneLineError(await call("create_script", { ...base, sideEffects: "read" }))).toContain('sideEffects must be "none", "write" (got "read")');
      // Nothing was sent for any of them.
      expect(sandbox.store.requestLog.at(-1)).toBe(lastRequest);
      const taken = oneLineError(await call("create_script", { ...base, slug: "get_title" }));
      expect(taken).toContain(
        'To change @demo/example.com/get_title, add a draft version to it (create_draft_script_version with address: "@demo/example.com/get_title")',
      );
    });

    test("versions: list, draft, patch, try, promote twice, delete; an unknown version names the ones there are", async () => {
      const created = await call("create_script", {
        host: "example.com",
        slug: own("versions"),
        description: "Versions",
        content: "return { v: 1 };",
        inputSchema: { type: "object", properties: {} },
        outputSchema: { type: "object" },
        sideEffects: "none",
      });
      const address: string = created.structured.address;
      const listed = await call("list_script_versions", { address });
      expect(listed.structured.versions).toEqual([expect.objectContaining({ version: 1, current: true, draft: false })]);

      const same = oneLineError(await call("create_draft_script_version", { address, note: "Nothing new" }));
      expect(same).toContain("A draft must differ from its parent in code or contract");

      const draft = await call("create_draft_script_version", { address, note: "Two", content: "return { v: 2 };" });
      expect(draft.structured).toMatchObject({ version: 2, draft: true, current: false });
      const patched = await call("patch_draft_script_version", { address, version: 2, content: "return { v: 22 };" });
      expect(patched.structured).toMatchObject({ version: 2, draft: true, changed: expect.anything() });
      const tried = await call("run_script", { script: { address, version_id: draft.structured.versionId } });
      expect(tried.structured.result).toEqual({ v: 22 });

      expect(oneLineError(await call("promote_script_version", { address, version: 7 }))).toMatch(
        new RegExp(`^${address.replace(/\./g, "\\.")} has no version 7\\. Its versions: 1 \\(current\\) = [0-9a-f-]{36}, 2 \\(draft\\) = [0-9a-f-]{36}\\.$`),
      );
      const id: string = draft.structured.versionId;
      const typo = `${id.slice(0, -1)}${id.endsWith("0") ? "1" : "0"}`;
      expect(oneLineError(await call("promote_script_version", { address, version_id: typo }))).toContain(`Did you mean ${id}?`);
      expect(oneLineError(await call("promote_script_version", { address }))).toContain("Name the version by version_id (its id) or by version (its number)");

      const promoted = await call("promote_script_version", { address, version_id: id });
      expect(promoted.structured).toMatchObject({ current: true, draft: false });
      const twice = await call("promote_script_version", { address, version_id: id });
      expect(twice.isError).toBe(false);
      expect(twice.structured).toMatchObject({ alreadyCurrent: true });

      // A promoted version never changes, and is not deleted.
      expect(oneLineError(await call("patch_draft_script_version", { address, version: 2, note: "late" }))).toContain(
        `A promoted version never changes: create_draft_script_version { address: "${address}", note } starts a new draft from it.`,
      );
      expect(oneLineError(await call("delete_draft_script_version", { address, version: 2 }))).toContain("Only a draft can be deleted");
      expect(oneLineError(await call("patch_draft_script_version", { address, version: 2 }))).toContain("Nothing to change");

      const three = await call("create_draft_script_version", { address, note: "Three", content: "return { v: 3 };" });
      const deleted = await call("delete_draft_script_version", { address, version_id: three.structured.versionId });
      expect(deleted.structured).toEqual({ address, deleted: `draft ${three.structured.versionId}` });
      expect(oneLineError(await call("delete_draft_script_version", { address, version_id: three.structured.versionId }))).toContain(`Versions of ${address}:`);
      const page = oneLineError(await call("list_script_versions", { address, page: 3 }));
      expect(page).toBe(`page 3 is past the end: 2 versions make 1 page of 20 (page 0). Call list_script_versions with page: 0 for the last.`);
    });

    test("a misspelt address, for a version tool, is answered with the script likely meant", async () => {
      const text = oneLineError(await call("list_script_versions", { address: "example.com/get_titel" }));
      expect(text).toContain("Did you mean @demo/example.com/get_title?");
    });

    test("update_script_metadata: what changed; visibility through publish; nothing to change is a usage line", async () => {
      const address = "@demo/example.com/get_title";
      expect(oneLineError(await call("update_script_metadata", { address }))).toContain("Nothing to change: give name, description, visibility");
      const renamed = await call("update_script_metadata", { address, description: `Opens a page and returns its title (${TITLE})` });
      expect(renamed.structured).toMatchObject({ changed: ["description"], description: `Opens a page and returns its title (${TITLE})` });
      const shown = await call("update_script_metadata", { address, visibility: "public" });
      expect(shown.structured).toMatchObject({ visibility: "public", changed: ["visibility"] });
      const hidden = await call("update_script_metadata", { address, visibility: "private" });
      expect(hidden.structured.visibility).toBe("private");
    });

    test("archive_script twice changes nothing more; unarchive_script restores it", async () => {
      const created = await call("create_script", {
        host: "example.com",
        slug: own("archived"),
        description: "To archive",
        content: "return {};",
        inputSchema: { type: "object" },
        outputSchema: { type: "object" },
        sideEffects: "none",
      });
      const address = created.structured.address;
      expect((await call("archive_script", { address })).structured.archived).toBe(true);
      expect((await call("archive_script", { address })).structured.archived).toBe(true);
      const restored = await call("unarchive_script", { address });
      expect(restored.structured).toMatchObject({ archived: false, next: `${address} is listed and can be run again.` });
    });

    test("host READMEs: an owner misspelt is answered with the handle likely meant", async () => {
      const text = oneLineError(await call("read_host_readme", { host: "mail.google.com", handle: "redcuk" }));
      expect(text).toContain("Did you mean reduck?");
      const official = await call("read_host_readme", { host: "mail.google.com", handle: "reduck" });
      expect(official.isError, official.text).toBe(false);
      expect(oneLineError(await call("set_host_readme", { host: "mail.google.com/inbox", content: "x" }))).toContain(
        '"mail.google.com/inbox" is not a host name',
      );
    });
  });
});
