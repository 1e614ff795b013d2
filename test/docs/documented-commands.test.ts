/** How documented commands are found, and how the "not run" marker is read (only that marker). */
import { expect, test } from "vitest";
import { helpExamples, notRunReason, readmeCommands } from "./documented-commands.js";

test("shell blocks give reduck commands, continuation lines joined; other blocks and other programs do not", () => {
  const md = [
    "Text `reduck runs list` inline is prose.",
    "```sh",
    "npm install reduck-client",
    "$ reduck run --script reduck/mail.google.com/send_email \\",
    '  to=me@example.com subject="a # b"',
    "# reduck whoami (a comment line)",
    "REDUCK_API_URL=http://127.0.0.1:4010 reduck whoami",
    "op read x | reduck login --with-api-key",
    "```",
    "```ts",
    "reduck runs list",
    "```",
  ].join("\n");
  expect(readmeCommands(md, "R")).toEqual([
    { where: "R:4", text: 'reduck run --script reduck/mail.google.com/send_email to=me@example.com subject="a # b"' },
    { where: "R:7", text: "REDUCK_API_URL=http://127.0.0.1:4010 reduck whoami" },
    { where: "R:8", text: "op read x | reduck login --with-api-key" },
  ]);
});

test("only a trailing `# not run by the tests: why` comment leaves a command out", () => {
  expect(notRunReason("reduck login  # not run by the tests: signs in with a browser")).toBe("signs in with a browser");
  expect(notRunReason("reduck login  # sign in; not run by the tests: signs in with a browser")).toBe("signs in with a browser");
  expect(notRunReason("reduck login  # sign in in your browser")).toBeUndefined();
  expect(notRunReason('reduck run --script a.com/b note="# not run by the tests: quoted"')).toBeUndefined();
  expect(notRunReason("reduck run --script a.com/b note=not-run-by-the-tests")).toBeUndefined();
});

test("help examples are every command's examples, with config.bin as reduck", () => {
  const found = helpExamples({
    commands: {
      "runs:list": { examples: [{ command: "<%= config.bin %> runs list", description: "x" }, "$ <%= config.bin %> runs list --all"] },
      login: { examples: [{ command: "<%= config.bin %> login  # not run by the tests: a browser" }] },
    },
  });
  expect(found).toEqual([
    { where: "--help of runs list", text: "reduck runs list" },
    { where: "--help of runs list", text: "reduck runs list --all" },
    { where: "--help of login", text: "reduck login  # not run by the tests: a browser", notRun: "a browser" },
  ]);
});
