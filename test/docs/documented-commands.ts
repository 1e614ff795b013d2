/**
 * The commands the documentation shows, as a reader would copy them: every `reduck ...` line of
 * the shell code blocks of README.md and of every page in docs/, and every example of every
 * command's `--help` (oclif's `examples`, read from the built oclif.manifest.json, which is what
 * `--help` prints).
 *
 * A command that cannot run against the sandbox carries, next to it, a trailing shell comment
 * `# not run by the tests: <why>`; that marker (and only that) takes it out of the run.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { BUILD_ROOT } from "../support/cli.js";

export interface DocumentedCommand {
  /** Where it was found: `README.md:258`, `docs/batch.md:20` or `--help of scripts versions get`. */
  where: string;
  /** The command as a shell reads it (continuation lines joined), comment included. */
  text: string;
  /** The marker's reason, when the command is not run. */
  notRun?: string;
}

const MARKER = /not run by the tests:\s*(.*)$/;

/** Where the trailing `# ...` comment of a shell line starts (a `#` outside quotes, after a blank), or -1. */
function commentStart(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "\\") i++;
    else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return i;
  }
  return -1;
}

/** The trailing comment of a shell line, without its `#`, if any. */
export function shellComment(line: string): string | undefined {
  const at = commentStart(line);
  return at < 0 ? undefined : line.slice(at + 1).trim();
}

/** The marker's reason: `# not run by the tests: signs in on the real service` gives "signs in on the real service". */
export function notRunReason(command: string): string | undefined {
  const comment = shellComment(command);
  const match = comment === undefined ? null : MARKER.exec(comment);
  return match ? match[1]!.trim() : undefined;
}

/**
 * Whether a shell line runs this package's CLI: `reduck ...` (after `VAR=value` assignments, or
 * after a pipe), `./bin/run.js ...`, or `npx ... reduck-client ...`.
 */
export function invokesReduck(line: string): boolean {
  const at = commentStart(line);
  const code = at < 0 ? line : line.slice(0, at);
  return /(^|[|;&]\s*)(\w+=\S*\s+)*(reduck|\.\/bin\/run\.js)(\s|$)/.test(code.trim()) || /(^|\s)npx\s+(-\S+\s+)*reduck-client(\s|$)/.test(code);
}

function withMarker(where: string, text: string): DocumentedCommand {
  const reason = notRunReason(text);
  return reason === undefined ? { where, text } : { where, text, notRun: reason };
}

/**
 * The `reduck` commands in a markdown text's shell code blocks (```sh, bash, shell or console):
 * one per command, with `\` continuation lines joined and a leading `$ ` prompt dropped.
 *
 * @example
 * readmeCommands("```sh\nreduck runs list\n```\n", "README.md"); // [{ where: "README.md:2", text: "reduck runs list" }]
 */
export function readmeCommands(markdown: string, name: string): DocumentedCommand[] {
  const lines = markdown.split("\n");
  const found: DocumentedCommand[] = [];
  let inShell = false;
  let inOther = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s*```(\w*)/.exec(line);
    if (fence) {
      if (inShell || inOther) {
        inShell = inOther = false;
      } else if (["sh", "bash", "shell", "console"].includes(fence[1]!)) inShell = true;
      else inOther = true;
      continue;
    }
    if (!inShell) continue;
    const start = i;
    let text = line.trim().replace(/^\$\s+/, "");
    while (text.endsWith("\\") && i + 1 < lines.length) text = `${text.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`;
    if (text && !text.startsWith("#") && invokesReduck(text)) found.push(withMarker(`${name}:${start + 1}`, text));
  }
  return found;
}

interface Manifest {
  commands: Record<string, { examples?: Array<string | { command: string; description?: string }> }>;
}

/**
 * Every example of every command, as `--help` prints it (`<%= config.bin %>` is `reduck`).
 *
 * @example
 * helpExamples(manifest).find((c) => c.where === "--help of runs list");
 */
export function helpExamples(manifest: Manifest): DocumentedCommand[] {
  const found: DocumentedCommand[] = [];
  for (const [id, command] of Object.entries(manifest.commands)) {
    for (const example of command.examples ?? []) {
      const raw = typeof example === "string" ? example : example.command;
      const text = raw
        .replace(/<%=\s*config\.bin\s*%>/g, "reduck")
        .trim()
        .replace(/^\$\s+/, "");
      found.push(withMarker(`--help of ${id.split(":").join(" ")}`, text));
    }
  }
  return found;
}

/** The documentation pages: README.md, then every page of docs/ (by name), as paths from the root. */
export function documentationPages(root: URL): string[] {
  const pages = readdirSync(new URL("docs/", root))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...pages];
}

/**
 * The commands of README.md and docs/*.md, and every `--help` example, read now (so commands added
 * later are included): the examples from the test build's manifest (test/support/cli.ts), which is
 * the sources' as they are.
 */
export function documentedCommands(root: URL): DocumentedCommand[] {
  const pages = documentationPages(root).flatMap((page) => readmeCommands(readFileSync(new URL(page, root), "utf8"), page));
  const manifest = JSON.parse(readFileSync(path.join(BUILD_ROOT, "oclif.manifest.json"), "utf8")) as Manifest;
  return [...pages, ...helpExamples(manifest)];
}
