/**
 * A malformed answer is an error, not a crash. Each command that prints details gets the
 * sandbox's own answer, bent at random (a field dropped, or made null, a number, a
 * string, a list, an object; an id out of its shape; the whole answer replaced), from a seeded
 * generator so a failure can be replayed: the command either prints (the bent field was one it does
 * not read) or exits 1 with one line naming what it was doing, never a TypeError or a stack.
 */
import { http, HttpResponse, type JsonBodyType } from "msw";
import { describe, expect, test } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { API_URL, reduck, useSandboxForCli } from "./harness.js";
import { seededRandom } from "../../support/random.js";

const server = useSandboxForCli();
const API = API_URL;
const SEED = Number(process.env.FUZZ_SEED ?? 35);
const CASES = Number(process.env.FUZZ_CASES ?? 20);

type Json = JsonBodyType;
const REPLACEMENTS: Json[] = [null, 7, "x", "../..", true, [], {}, [1, "two"], { nested: { deeper: [] } }];

/** Every place in `value` (a path of keys and indexes), the root included. */
function places(value: Json, path: Array<string | number> = []): Array<Array<string | number>> {
  const here = [path];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => places(v, [...path, i]))];
  if (value && typeof value === "object") return [...here, ...Object.entries(value).flatMap(([k, v]) => places(v as Json, [...path, k]))];
  return here;
}

/** `answer` with one place dropped or replaced, and what was done (to name a failure). */
function bend(answer: Json, next: () => number): { bent: Json; how: string } {
  const all = places(answer);
  const path = all[Math.floor(next() * all.length)]!;
  const replacement = REPLACEMENTS[Math.floor(next() * REPLACEMENTS.length)]!;
  if (path.length === 0) return { bent: replacement, how: `the whole answer is ${JSON.stringify(replacement)}` };
  const bent = structuredClone(answer) as Record<string | number, Json>;
  let parent = bent;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  const drop = next() < 0.3 && !Array.isArray(parent);
  if (drop) delete parent[last];
  else parent[last] = replacement;
  return { bent, how: `${path.join(".")} ${drop ? "dropped" : `is ${JSON.stringify(replacement)}`}` };
}

/** Commands that print details, the answer each reads, and what its error says it was doing. */
const COMMANDS: Array<{ args: string[]; path: string; doing: RegExp }> = [
  { args: ["whoami"], path: "/api/me", doing: /^Error: reading your account: / },
  { args: ["runs", "get", SEED_IDS.runs.success], path: `/api/runs/${SEED_IDS.runs.success}`, doing: /^Error: reading run [0-9a-f-]+: / },
  { args: ["runs", "get", SEED_IDS.runs.error], path: `/api/runs/${SEED_IDS.runs.error}`, doing: /^Error: reading run [0-9a-f-]+: / },
  { args: ["runs", "list"], path: "/api/runs", doing: /^Error: listing runs: / },
  { args: ["scripts", "list"], path: "/api/scripts", doing: /^Error: listing scripts: / },
  {
    args: ["scripts", "get", "reduck/mail.google.com/send_email"],
    path: "/api/scripts/reduck/mail.google.com/send_email",
    doing: /^Error: reading reduck\/mail\.google\.com\/send_email: /,
  },
  { args: ["devices", "list"], path: "/api/devices", doing: /^Error: listing devices: / },
  {
    args: ["scripts", "versions", "list", "@demo/example.com/get_title"],
    path: "/api/scripts/%40demo/example.com/get_title/versions",
    doing: /^Error: listing the versions of @demo\/example\.com\/get_title: /,
  },
  {
    args: ["scripts", "versions", "get", "@demo/example.com/get_title", SEED_IDS.versions.getTitleV1],
    path: `/api/scripts/%40demo/example.com/get_title/versions/${SEED_IDS.versions.getTitleV1}`,
    doing: /^Error: reading @demo\/example\.com\/get_title version [0-9a-f-]+: /,
  },
  {
    args: ["scripts", "targets", "@demo/example.com/get_title"],
    path: "/api/scripts/%40demo/example.com/get_title/transfer",
    doing: /^Error: listing where @demo\/example\.com\/get_title can go: /,
  },
];

/** What no user should ever see from a malformed answer. */
const CRASH = /TypeError|ReferenceError|Cannot read|is not a function|is not iterable|unexpected failure|^\s+at /m;

describe("a malformed answer is one clear error, never a crash", () => {
  test.each(COMMANDS.map((c) => ({ ...c, name: c.args.join(" ") })))("$name", async ({ args, path, doing }) => {
    const ok = await reduck(...args);
    expect(ok.exitCode, ok.stderr).toBe(0);
    const valid = await answerOf(path);
    const next = seededRandom(SEED + args.join(" ").length);
    let failures = 0;
    for (let i = 0; i < CASES; i++) {
      const { bent, how } = bend(valid, next);
      server.use(http.get(`${API}${path}`, () => HttpResponse.json(bent), { once: true }));
      const { exitCode, stderr, stdout } = await reduck(...args);
      const what = `${args.join(" ")} with ${how} (FUZZ_SEED=${SEED})`;
      expect(stderr, what).not.toMatch(CRASH);
      expect([0, 1], what).toContain(exitCode);
      if (exitCode === 1) {
        failures++;
        expect(stderr.trimEnd().split("\n"), what).toHaveLength(1);
        expect(stderr, what).toMatch(doing);
      } else expect(stdout + stderr, what).not.toBe("");
    }
    // The bends are not all harmless: most reach a field the command reads.
    expect(failures).toBeGreaterThan(0);
  });

  test.each([
    ["whoami", ["whoami"], "/api/me", { name: "Ann", email: "a@example.com", handle: "@ann", projects: 3 }, "projects is the number 3 (expected a list)"],
    [
      "runs get",
      ["runs", "get", SEED_IDS.runs.success],
      `/api/runs/${SEED_IDS.runs.success}`,
      { id: SEED_IDS.runs.success },
      "status is missing (expected a string)",
    ],
    ["runs list", ["runs", "list"], "/api/runs", { data: [{ id: 5 }], hasNextPage: false }, "[0].id is the number 5 (expected a string)"],
    ["devices list", ["devices", "list"], "/api/devices", { devices: [] }, "it is an object (expected a list)"],
  ] as Array<[string, string[], string, Json, string]>)("%s: names the field and what it should be", async (_, args, path, answer, said) => {
    server.use(http.get(`${API}${path}`, () => HttpResponse.json(answer)));
    const { exitCode, stderr } = await reduck(...args);
    expect(exitCode).toBe(1);
    expect(stderr.trim()).toMatch(/^Error: .*: the service's answer is not as documented: /);
    expect(stderr).toContain(said);
  });
});

describe("a refusal that names a run by a malformed id", () => {
  test("is one clear error: the id is shown as text, never offered as a command to copy", async () => {
    server.use(http.post(`${API}/run`, () => HttpResponse.json({ error: "boom", runId: "../../api/me", errorType: "site_error" }, { status: 422 })));
    const { exitCode, stdout, stderr } = await reduck("run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi");
    expect(exitCode).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toEqual(["Error: run ../../api/me failed: boom"]);
    expect(stderr).not.toContain("reduck runs");
  });
});

describe("a did-you-mean whose lookups answer nonsense is left out, never a crash", () => {
  const nonsense = { data: [null, 5, { slug: 3 }, { host: "mail.google.com", slug: "send_email", author: { handle: "../x" } }], hasNextPage: false };

  test("an unknown script: the service's no, without a hint built from bad entries", async () => {
    server.use(
      http.get(`${API}/api/scripts`, () => HttpResponse.json(nonsense)),
      http.get(`${API}/api/scripts/reduck`, () => HttpResponse.json(nonsense)),
    );
    const { exitCode, stderr } = await reduck("scripts", "get", "reduck/mail.google.com/send_emial");
    expect(exitCode).toBe(2);
    expect(stderr).not.toMatch(CRASH);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).not.toContain("../x");
  });

  test("an unknown owner, when the account's own handles cannot be read", async () => {
    server.use(http.get(`${API}/api/me`, () => HttpResponse.json({ handle: 7, projects: 5 })));
    const { exitCode, stderr } = await reduck("scripts", "list", "redcuk");
    expect(exitCode).toBe(2);
    expect(stderr).not.toMatch(CRASH);
    expect(stderr).toMatch(/^Error: listing redcuk's scripts: /);
  });
});

describe("ids the service hands out are shown as text, and offered as a command only where one could take them", () => {
  const EMAIL = ["run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi"];
  test.each([
    ["a finished run's id", [], { result: { sent: true }, runId: "../../api/me" }, 200, 0, "run ../../api/me"],
    ["a pending batch's id (--no-wait)", ["--no-wait"], { batchId: "b1\u001b[2J", status: "running", runs: [] }, 202, 0, "\\u001b[2J"],
    ["a failed run's id", [], { error: "boom", runId: "r1" }, 200, 1, "Error: run r1 failed: boom"],
  ] as Array<[string, string[], Json, number, number, string]>)("%s", async (_, extra, answer, status, code, said) => {
    server.use(http.post(`${API}/run`, () => HttpResponse.json(answer, { status })));
    const { exitCode, stderr } = await reduck(...EMAIL, ...extra);
    expect(exitCode).toBe(code);
    expect(stderr).toContain(said);
    // Never raw to the terminal, never a command that would put it into a URL.
    expect(stderr).not.toContain("\u001b");
    expect(stderr).not.toMatch(/reduck runs (wait|trace)/);
  });
});

/** The sandbox's answer to `GET path` (through the library's transport, as msw serves it). */
async function answerOf(path: string): Promise<Json> {
  const response = await fetch(`${API}${path}`, { headers: { "x-api-key": server.store.demo.apiKey } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as Json;
}
