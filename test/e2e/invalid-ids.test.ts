/**
 * A malformed id given to a command or an agent tool is refused by the library's one rule for
 * ids (where an id becomes part of a URL), with the machine code `invalid_id`, before anything is
 * sent: the sandbox's request log is the witness.
 */
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { useCliSandbox } from "../support/sandbox.js";
import { useToolClient } from "../mcp/support.js";

const sandbox = useCliSandbox({ store: { browser: "simulated" }, desktop: {}, home: "reduck-invalid-ids-" });
const SCRIPT = "@demo/example.com/get_title";
const RUN = "00000000-0000-4000-8005-000000000001";
/** Not a UUID of the description's pattern: a path, a name, and a UUID whose version digit is 0. */
const BAD = ["../../api/me", "latest", "86b0479f-a68f-0fcd-92d1-b68f485ee3d9"];

/** `text` as a regular expression matching itself. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** The requests the sandbox has received from here on. */
function requestsFrom(): () => number {
  const start = sandbox.store.requestLog.length;
  return () => sandbox.store.requestLog.length - start;
}

describe("the CLI", () => {
  const commands = (id: string): string[][] => [
    ["runs", "get", id],
    ["runs", "trace", id],
    ["runs", "trace", id, "--html", "page.html"],
    ["runs", "wait", id],
    ["runs", "delete", id, "--yes"],
    ["runs", "delete", RUN, id, "--yes"],
    ["scripts", "versions", "get", SCRIPT, id],
    ["scripts", "versions", "promote", SCRIPT, id],
    ["scripts", "versions", "delete", SCRIPT, id, "--yes"],
    ["scripts", "get", SCRIPT, "--version", id],
    ["scripts", "types", SCRIPT, "--version", id],
  ];

  test.each(BAD.flatMap((id) => commands(id).map((args) => [args.join(" "), args, id] as const)))(
    "%s: invalid_id, exit 2, nothing sent",
    async (_, args, id) => {
      const sent = requestsFrom();
      const human = await runCli(args, { env: sandbox.env, cwd: sandbox.home });
      expect(human.code, human.stderr).toBe(2);
      expect(human.stderr.trim().split("\n")).toHaveLength(1);
      expect(human.stderr).toMatch(new RegExp(`"${escaped(id)}",? is not a`));
      expect(human.stderr).toMatch(/UUID/);
      const json = await runCli([...args, "--json"], { env: sandbox.env, cwd: sandbox.home });
      expect(json.code).toBe(2);
      expect(JSON.parse(json.stdout || json.stderr).error).toMatchObject({ code: "invalid_id" });
      expect(sent()).toBe(0);
    },
  );
});

describe("the agent tool", () => {
  const agent = useToolClient(sandbox, "stdio");
  const tools = (id: string): Array<[string, Record<string, unknown>]> => [
    ["read_run_trace", { runId: id }],
    ["read_run_results", { runId: id }],
    ["read_run_results", { batchId: id }],
    ["read_script", { address: SCRIPT, version_id: id }],
    ["promote_script_version", { address: SCRIPT, version_id: id }],
    ["delete_draft_script_version", { address: SCRIPT, version_id: id }],
    ["patch_draft_script_version", { address: SCRIPT, version_id: id, note: "x" }],
    ["create_draft_script_version", { address: SCRIPT, note: "x", parent_version_id: id }],
    ["run_script", { script: { address: SCRIPT, args: { url: "https://example.com/" }, version_id: id } }],
  ];

  test.each(BAD.flatMap((id) => tools(id).map(([name, args]) => [name, JSON.stringify(args), args, id] as const)))(
    "%s %s: refused in words, nothing sent",
    async (name, _, args, id) => {
      const sent = requestsFrom();
      const answer = await agent.call(name, args);
      expect(answer.isError, answer.text).toBe(true);
      expect(answer.text).toMatch(new RegExp(`^"${escaped(id)}" is not a (run|batch|version) id: a \\1 id is a UUID`));
      expect(sent()).toBe(0);
    },
  );
});
