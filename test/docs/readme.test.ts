/**
 * README.md's front matter: a table of contents that names every section and points only at
 * headings that exist, and a quick start that begins with the sandbox.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
/** Headings outside code blocks. */
const headings = readme
  .replace(/^\s*```[\s\S]*?^\s*```/gm, "")
  .split("\n")
  .filter((l) => /^#{2,3} /.test(l));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
const anchor = (heading: string) =>
  heading
    .replace(/^#+ /, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

const contents = /^## Contents\n([\s\S]*?)\n## /m.exec(readme)?.[1] ?? "";

test("the table of contents links every section, and only headings that exist", () => {
  const linked = [...contents.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
  const anchors = new Set(headings.map(anchor));
  for (const target of linked) expect(anchors.has(target), `#${target} is no heading`).toBe(true);
  for (const h of headings.filter((h) => h.startsWith("## ") && h !== "## Contents")) {
    expect(linked, `${h} is missing from ## Contents`).toContain(anchor(h));
  }
});

test("the quick start starts with trying it against the sandbox, and says how to use its two lines elsewhere", () => {
  const quick = headings.indexOf("## Quick start");
  expect(quick).toBeGreaterThan(0);
  expect(headings[quick + 1]).toBe("### Try it against the sandbox");
  const section = readme.slice(readme.indexOf("### Try it against the sandbox"), readme.indexOf("### Install"));
  expect(section).toMatch(/npm run sandbox -- .*--write-env \.sandbox\.env/);
  expect(section).toMatch(/^source \.sandbox\.env/m);
  expect(section).toMatch(/REDUCK_SANDBOX_API_KEY/);
});
