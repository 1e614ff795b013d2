/**
 * Every exported function that answers `{ data, error }` returns an `invalid_request` error
 * for any value a JavaScript caller can pass: it never throws, never rejects, and sends nothing.
 */
import { describe, expect, test } from "vitest";
import * as library from "../../src/index.js";
import { createReduckClient, getMe, listAll, listRuns, runScript, relativePathProblem, isPlainRelativePath } from "../../src/index.js";
import { operationTable } from "../../src/generated/operations.js";

// Port 9 (discard) on loopback: nothing listens, so anything that slipped through would fail
// as a network error rather than as invalid_request.
const client = createReduckClient({ apiKey: "k", baseUrl: "http://127.0.0.1:9", maxRetries: 0 });
const circular: Record<string, unknown> = { a: 1 };
circular.self = circular;

const hostile: Array<[string, unknown]> = [
  ["no argument", undefined],
  ["null", null],
  ["a number", 42],
  ["a string", "getMe"],
  ["an array", [client]],
  ["no client", {}],
  ["a fake client", { client: { api: { request: () => Promise.resolve() } } }],
  ["path as a string", { client, path: "runs/1" }],
  ["a signal that is not one", { client, path: { runId: "r" }, signal: "stop" }],
  ["query as a number", { client, query: 5 }],
  ["headers as a string", { client, headers: "X-A: b" }],
];

type AnyFunction = (options?: unknown) => Promise<{ data?: unknown; error?: { kind: string; error: string } }>;

describe.each(Object.keys(operationTable))("%s", (name) => {
  const fn = (library as unknown as Record<string, AnyFunction>)[name]!;
  test.each(hostile)("given %s: an invalid_request error, not an exception", async (_label, options) => {
    const result = await fn(options);
    expect(result.data).toBeUndefined();
    expect(result.error).toMatchObject({ kind: "invalid_request", error: expect.any(String) });
  });
});

describe("the cases that threw", () => {
  test("getMe() with no argument", async () => {
    expect((await (getMe as AnyFunction)()).error).toEqual({
      kind: "invalid_request",
      code: "invalid_options",
      error: "getMe takes an options object: call getMe({ client, ... }) with the client from createReduckClient()",
    });
  });

  test("a missing path parameter is named, with the fix", async () => {
    expect((await (library.getRun as AnyFunction)({ client, path: {} })).error?.error).toBe('getRun: path.runId is missing: give path: { runId: "..." }');
  });

  test.each([
    ["BigInt", { n: 1n }, "Do not know how to serialize a BigInt"],
    ["circular", circular, "circular"],
  ])("a %s body", async (_label, body, why) => {
    const { error } = await (library.createScript as AnyFunction)({ client, path: { handle: "@me" }, body });
    expect(error?.kind).toBe("invalid_request");
    expect(error?.error).toMatch(new RegExp(`^createScript: \`body\` cannot be sent as JSON \\(.*${why}`));
  });

  test("listAll with no client, or no list function", async () => {
    expect((await listAll(listRuns, {} as never)).error).toMatchObject({ kind: "invalid_request" });
    expect((await listAll(undefined as never, { client } as never)).error).toMatchObject({ kind: "invalid_request" });
  });

  test("relativePathProblem and isPlainRelativePath take anything", () => {
    for (const [, value] of [...hostile, ["a circular object", circular], ["a bigint", 10n], ["a symbol", Symbol("x")]]) {
      expect(() => relativePathProblem(value)).not.toThrow();
      expect(() => isPlainRelativePath(value)).not.toThrow();
    }
  });
});

describe("runScript", () => {
  const script = { host: "a.com", slug: "s" };
  test.each([
    ["no argument", undefined, "runScript takes an options object"],
    ["no client", { script }, "pass the client from createReduckClient() as `client`"],
    ["neither script nor scripts", { client }, "give exactly one of script (one run) or scripts (several steps)"],
    ["scripts that are not an array", { client, scripts: script }, "scripts must be an array"],
    ["a script without slug", { client, script: { host: "a.com" } }, "script: a script needs host and slug"],
    [
      "a key a script does not have",
      { client, script: { ...script, arguments: { to: "me" } } },
      'script: a script has no "arguments" (did you mean args?); it takes handle, host, slug, version_id, args, files',
    ],
    ["a mistyped key in step 1 of several", { client, scripts: [script, { ...script, fils: {} }] }, 'step 1: a script has no "fils" (did you mean files?)'],
    ["args as a string", { client, script: { ...script, args: "to=me" } }, "script: args must be an object"],
    ["BigInt args", { client, script: { ...script, args: { n: 10n } } }, "script: args cannot be sent as JSON (Do not know how to serialize a BigInt)"],
    ["circular args", { client, script: { ...script, args: circular } }, "script: args cannot be sent as JSON (Converting circular structure"],
    [
      "a file as a bare string",
      { client, script: { ...script, files: { attachment: "./x.png" } } },
      'file input attachment: give { path: "./x.png" } to send a file from this disk, or { relativePath: "./x.png" } for a file in the reduck folder',
    ],
    ["a file as a number", { client, script: { ...script, files: { attachment: 7 } } }, "file input attachment: expected { path }"],
    ["a path that is not a string", { client, script: { ...script, files: { attachment: { path: 7 } } } }, "file input attachment: path must be"],
    ["a handle that is not one", { client, script: { ...script, files: { attachment: { handle: 3 } } } }, "file input attachment: handle must be an open file"],
    ["files in step 1 of several", { client, scripts: [script, { ...script, files: { a: "x" } }] }, "step 1: file input a: give"],
    ["a signal that is not one", { client, script, signal: {} }, "signal must be an AbortSignal"],
    ["onUploadProgress that is not a function", { client, script, onUploadProgress: true }, "onUploadProgress must be a function"],
  ])("%s", async (_label, options, message) => {
    const result = await (runScript as AnyFunction)(options);
    expect(result.data).toBeUndefined();
    expect(result.error?.kind).toBe("invalid_request");
    expect(result.error?.error).toContain(message);
  });
});
