/**
 * `npm run demo` prints each command it runs shell-quoted (examples/shell-words.ts): a real bash
 * splits every printed line back into exactly the words the demo ran, for words with spaces,
 * quotes, `$`, backquotes, `!`, `~`, globs, newlines, non-ASCII and the empty word.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { shellCommand, shellWord } from "../../examples/shell-words.js";

const run = promisify(execFile);

/** The words bash makes of a command line (each printed NUL-terminated, so newlines survive). */
async function wordsBashSees(line: string): Promise<string[]> {
  const { stdout } = await run("bash", ["--noprofile", "--norc", "-c", `printf '%s\\0' ${line}`], {
    env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent-home" },
  });
  return stdout.split("\0").slice(0, -1);
}

const awkward = [
  "node",
  "bin/run.js",
  "run",
  "--script",
  "reduck/mail.google.com/send_email",
  "to=me@example.com",
  "subject=Our new banner",
  'attachmentName=it\'s "mine".png',
  "file:attachment=/tmp/reduck demo/banner.png",
  "$HOME",
  "`id`",
  "$(id)",
  "wow!",
  "~/Downloads/x",
  "*.png",
  "a;b&c|d>e<f",
  "line one\nline two",
  "tab\there",
  "café ☕ 日本",
  "",
  "back\\slash",
  "#not-a-comment",
];

test("bash reads each printed command back as exactly the words that were run", async () => {
  expect(await wordsBashSees(shellCommand(awkward))).toEqual(awkward);
  for (const word of awkward) expect(await wordsBashSees(shellWord(word))).toEqual([word]);
});

test("plain words stay unquoted, so the usual command reads as typed", () => {
  expect(shellCommand(["node", "bin/run.js", "scripts", "list", "reduck", "--host", "mail.google.com"])).toBe(
    "node bin/run.js scripts list reduck --host mail.google.com",
  );
  expect(shellCommand(["run", "subject=Our new banner"])).toBe("run 'subject=Our new banner'");
});

test("the demo prints its commands through shellCommand, and its exports too", () => {
  const demo = readFileSync(new URL("../../examples/demo.ts", import.meta.url), "utf8");
  expect(demo).toMatch(/console\.log\(`\$ \$\{shellCommand\(\[/);
  expect(demo).toMatch(/console\.log\(`export \$\{name\}=\$\{shellCommand\(\[value\]\)\}`\)/);
  expect(demo).not.toMatch(/\.join\(" "\)\}`\)/);
});
