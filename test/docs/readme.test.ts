/**
 * README.md's shape: short (at most 350 lines), a table of contents that names every section and
 * points only at headings that exist, a quick start that begins with the sandbox and covers the
 * CLI, the library, the agent tool and a batch, the test commands CI runs, and a list of pages
 * that links every page of docs/. Across README.md and docs/*.md, every link to a file of the
 * repository resolves, and every `#anchor` names a heading of its page.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { documentationPages } from "./documented-commands.js";

const ROOT = new URL("../../", import.meta.url);
const readme = readFileSync(new URL("README.md", ROOT), "utf8");

/** Headings outside code blocks. */
function headingsOf(markdown: string): string[] {
  return markdown
    .replace(/^\s*```[\s\S]*?^\s*```/gm, "")
    .split("\n")
    .filter((l) => /^#{1,6} /.test(l));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
const anchor = (heading: string) =>
  heading
    .replace(/^#+ /, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** The targets of a markdown text's links, code blocks and inline code left out. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

const headings = headingsOf(readme);
const contents = /^## Contents\n([\s\S]*?)\n## /m.exec(readme)?.[1] ?? "";

describe("README.md", () => {
  test("is at most 350 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(350);
  });

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
    const section = readme.slice(readme.indexOf("### Try it against the sandbox"), readme.indexOf("### The CLI"));
    expect(section).toMatch(/npm run sandbox -- .*--write-env \.sandbox\.env/);
    expect(section).toMatch(/^source \.sandbox\.env/m);
    expect(section).toMatch(/REDUCK_SANDBOX_API_KEY/);
  });

  test("the quick start covers the CLI, the library, typed scripts, the agent tool and a batch", () => {
    const quick = headings.slice(headings.indexOf("## Quick start") + 1);
    const subsections = quick.slice(
      0,
      quick.findIndex((h) => h.startsWith("## ")),
    );
    expect(subsections).toEqual(["### Try it against the sandbox", "### The CLI", "### The library", "### Typed scripts", "### The agent tool", "### A batch"]);
  });

  test("gives the test commands: `npm install && npm test` as it stands (.ci/run runs it), the slow suite and the Node versions", () => {
    const ci = readFileSync(new URL(".ci/run", ROOT), "utf8");
    // In a subshell, so that set -e stops .ci/run when npm install fails too.
    expect(ci).toMatch(/^\( npm install && npm test \)$/m);
    expect(readme).toMatch(/^npm install && npm test\b/m);
    expect(readme).toMatch(/^npm run test:slow\b/m);
    expect(readme).toMatch(/^npm run test:node-versions\b/m);
  });

  test("its first install block works while the packages are unpublished: it packs a clone and installs the tarball (test/package/ does the same)", () => {
    const { version } = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as { version: string };
    const install = /^## Install\n([\s\S]*?)\n## /m.exec(readme)?.[1] ?? "";
    const first = /^```sh\n([\s\S]*?)^```/m.exec(install)?.[1] ?? "";
    const commands = first.split("\n").map((line) => line.replace(/\s+#.*$/, "").trim());
    expect(commands[0]).toBe("npm install && npm pack");
    expect(commands).toContain(`npm install -g ./reduck-client-${version}.tgz`);
    expect(commands.some((c) => c.endsWith(`npm install ../reduck-client/reduck-client-${version}.tgz`))).toBe(true);
    // The registry's name comes after, as what works once it is published.
    expect(first).not.toMatch(/npm install (-g )?reduck-client\b(?!-)/);
    expect(install.indexOf("npm install reduck-client ")).toBeGreaterThan(install.indexOf(first));
  });

  test("links every page of docs/", () => {
    const linked = new Set(linksOf(readme).map((l) => l.split("#")[0]));
    for (const page of documentationPages(ROOT).slice(1)) expect(linked, `README.md does not link ${page}`).toContain(page);
  });
});

describe("README.md and docs/*.md", () => {
  const pages = documentationPages(ROOT);

  test("there are pages in docs/ to check", () => {
    expect(pages).toEqual(expect.arrayContaining(["docs/library.md", "docs/cli.md", "docs/batch.md", "docs/sandbox.md"]));
  });

  test.each(pages)("%s: every link to a file of the repository resolves, and every #anchor to a heading of its page", (page) => {
    const text = readFileSync(new URL(page, ROOT), "utf8");
    const broken: string[] = [];
    for (const link of linksOf(text)) {
      if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:
      const [file = "", hash] = link.split("#");
      const target = file ? path.join(path.dirname(page), file) : page;
      if (!existsSync(fileURLToPath(new URL(target, ROOT)))) {
        broken.push(`${link}: no file ${target}`);
        continue;
      }
      if (hash && target.endsWith(".md")) {
        const anchors = headingsOf(readFileSync(new URL(target, ROOT), "utf8")).map(anchor);
        if (!anchors.includes(hash)) broken.push(`${link}: no heading #${hash} in ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
