/**
 * What a person at a terminal meets: the built CLI on a real
 * pseudo-terminal against the sandbox over loopback HTTP, compared with the same
 * commands piped.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { runCli } from "../support/cli.js";
import { openTerminal, screenLines } from "./terminal.js";
import { waitFor } from "../support/wait.js";
import { useCliSandbox } from "../support/sandbox.js";

const sandbox = useCliSandbox({
  // A run that outlives the CLI when it is interrupted after sending it.
  seed: (store) => {
    store.addScript({ handle: "@demo", host: "slow.example", slug: "wait", content: "await new Promise((r) => setTimeout(r, 1500)); return { done: true };" });
  },
  home: "reduck-terminal-",
});

const newestRun = () => [...sandbox.store.runs.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt))[0];

describe("tables (§4)", () => {
  test("on an 80-column terminal no line is longer than 80: descriptions are cut with …, addresses never (test/e2e/tables.test.ts)", async () => {
    for (const args of [
      ["scripts", "list"],
      ["runs", "list"],
      ["scripts", "versions", "list", "reduck/mail.google.com/send_email"],
    ]) {
      const { code, output } = await openTerminal(args, { env: sandbox.env, columns: 80 }).exited;
      expect(code, args.join(" ")).toBe(0);
      const lines = screenLines(output).filter(Boolean);
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    }
    const { output } = await openTerminal(["scripts", "list"], { env: sandbox.env, columns: 80 }).exited;
    const lines = screenLines(output);
    // At 80 columns, side effects and visibility give way to whole addresses.
    expect(lines[0]).toMatch(/^ADDRESS\s+NAME\s+DESCRIPTION$/);
    expect(output).toContain("…");
  });

  test("a wider terminal shows more; piped, the same list is tab-separated, whole and unpadded", async () => {
    const wide = screenLines((await openTerminal(["scripts", "list"], { env: sandbox.env, columns: 200 }).exited).output).filter(Boolean);
    expect(Math.max(...wide.map((l) => l.length))).toBeGreaterThan(80);
    for (const line of wide) expect(line.length).toBeLessThanOrEqual(200);

    const piped = await runCli(["scripts", "list", "--page-size", "100"], { env: sandbox.env });
    expect(piped.code).toBe(0);
    const rows = piped.stdout
      .trimEnd()
      .split("\n")
      .map((r) => r.split("\t"));
    expect(piped.stdout).not.toMatch(/ {2}|\t /);
    // As `cut -f1` and `cut -f5` read it: every address with its whole description.
    for (const [address, , , , description] of rows) {
      const [handle, host, slug] = address!.split("/");
      expect(description).toBe(sandbox.store.findScriptByAddress(handle!, host!, slug!)!.description.replace(/\s+/g, " ").trim());
    }
  });
});

describe("upload progress and limits (§10)", () => {
  test("each redraw clears the line, sizes are binary, as the limits count (41,943,040 bytes is 40 MiB), and the bar is gone at the end", async () => {
    const file = path.join(sandbox.home, "big.pdf");
    await writeFile(file, Buffer.alloc(40 * 1024 * 1024, 1));
    const t = openTerminal(["run", "--script", "reduck/docusign.com/upload_document", "documentName=big.pdf", `file:document=${file}`], { env: sandbox.env });
    const { code, output } = await t.exited;
    expect(code, output).toBe(0);
    const redraws = output.split("Uploading [");
    expect(redraws.length).toBeGreaterThan(1);
    // Every redraw starts at the beginning of a cleared line.
    for (const before of redraws.slice(0, -1)) expect(before.endsWith("\r\x1b[K")).toBe(true);
    expect(output).toMatch(/Uploading \[#+\] 40 MiB \/ 40 MiB/);
    expect(output).not.toMatch(/ MB|MiBMiB|41\.9/);
    // On screen, no remnant of the bar is left: the result follows on clean lines.
    const screen = screenLines(output);
    expect(screen.some((l) => l.includes("Uploading"))).toBe(false);
    expect(screen.join("\n")).toContain('"name": "big.pdf"');
  });

  test("a file over 50 MiB is refused before anything is sent, in exact numbers", async () => {
    const file = path.join(sandbox.home, "toobig.pdf");
    await writeFile(file, "");
    await truncate(file, 52_428_801);
    const before = sandbox.store.runs.size;
    const r = await runCli(["run", "--script", "reduck/docusign.com/upload_document", "documentName=x.pdf", "file:document=toobig.pdf"], {
      env: sandbox.env,
      cwd: sandbox.home,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("Error: file input document: toobig.pdf is 52,428,801 bytes, over the 50 MiB limit per file (52,428,800 bytes)\n");
    expect(sandbox.store.runs.size).toBe(before);
  });
});

/** A run host that takes the request's headers and then reads nothing, so the upload never ends. */
async function stallingRunHost() {
  let seen = 0;
  const listeners: Array<() => void> = [];
  const host = http.createServer((req) => {
    req.pause();
    seen++;
    for (const l of listeners.splice(0)) l();
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(host.address() as AddressInfo).port}`,
    requested: () => new Promise<void>((resolve) => (seen ? resolve() : listeners.push(resolve))),
    close: () => {
      host.closeAllConnections();
      return new Promise((resolve) => host.close(resolve));
    },
  };
}

describe("Ctrl-C says what was left behind (§8)", () => {
  test("during the upload: nothing was run (exit 130)", async () => {
    const host = await stallingRunHost();
    const file = path.join(sandbox.home, "stuck.pdf");
    await writeFile(file, Buffer.alloc(30_000_000, 2));
    try {
      const t = openTerminal(["run", "--script", "reduck/docusign.com/upload_document", "documentName=stuck.pdf", `file:document=${file}`], {
        env: { ...sandbox.env, REDUCK_MCP_URL: host.url },
      });
      await host.requested();
      await t.waitFor(/Uploading \[/);
      t.type("\x03");
      const { code, output } = await t.exited;
      expect(code).toBe(130);
      expect(output).toContain("Interrupted: nothing was run");
      expect(output).not.toContain("already sent");
    } finally {
      await host.close();
    }
  });

  test("after the run was sent: it may still complete, and it does; exit 130", async () => {
    const before = new Set(sandbox.store.runs.keys());
    const t = openTerminal(["run", "--script", "slow.example/wait"], { env: sandbox.env });
    // The service has the run once it is recorded: interrupt then.
    await waitFor("the run of slow.example/wait to reach the sandbox", () => [...sandbox.store.runs.keys()].some((id) => !before.has(id)));
    t.type("\x03");
    const { code, output } = await t.exited;
    expect(code).toBe(130);
    // A terminal ends its lines with \r\n.
    expect(output).toMatch(
      /Interrupted: the run was already sent and may still complete, before the service said its id\. Find it with:\r?\n {2}reduck runs list --script slow\.example\/wait/,
    );
    const run = newestRun()!;
    await waitFor("the interrupted run to end at the sandbox", () => run.status !== "running");
    expect(run.status).toBe("success");
  });

  test("before anything is sent, while the contract is read: nothing was run", async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const asked = new Promise<void>((resolve) => silent.once("request", () => resolve()));
    try {
      const t = openTerminal(["run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi"], {
        env: { ...sandbox.env, REDUCK_API_URL: url },
      });
      await asked;
      t.type("\x03");
      const { code, output } = await t.exited;
      expect(code).toBe(130);
      expect(output).toContain("Interrupted: nothing was run");
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("destructive commands ask first (§12)", () => {
  test("runs delete asks on a terminal: y deletes, anything else cancels (exit 2), Ctrl-C leaves it (exit 130)", async () => {
    const keep = sandbox.store.addRun({ status: "success" });
    const no = openTerminal(["runs", "delete", keep.id], { env: sandbox.env });
    await no.waitFor(/\[y\/N\] /);
    expect(screenLines(no.output()).join("\n")).toContain(`Delete run ${keep.id} and its trace? This cannot be undone. [y/N]`);
    no.type("n\r");
    const cancelled = await no.exited;
    expect(cancelled.code).toBe(2);
    expect(cancelled.output).toContain("cancelled: nothing was changed");
    expect(sandbox.store.runs.has(keep.id)).toBe(true);

    const interrupted = openTerminal(["runs", "delete", keep.id], { env: sandbox.env });
    await interrupted.waitFor(/\[y\/N\] /);
    interrupted.type("\x03");
    expect((await interrupted.exited).code).toBe(130);
    expect(sandbox.store.runs.has(keep.id)).toBe(true);

    const yes = openTerminal(["runs", "delete", keep.id], { env: sandbox.env });
    await yes.waitFor(/\[y\/N\] /);
    yes.type("y\r");
    const deleted = await yes.exited;
    expect(deleted.code).toBe(0);
    expect(deleted.output).toContain(`Deleted run ${keep.id}`);
    expect(sandbox.store.runs.has(keep.id)).toBe(false);
  });

  test("scripts archive, scripts transfer and scripts versions delete ask too", async () => {
    const archive = openTerminal(["scripts", "archive", "example.com/get_title"], { env: sandbox.env });
    await archive.waitFor(/\[y\/N\] /);
    expect(archive.output()).toContain("Archive @demo/example.com/get_title?");
    archive.type("y\r");
    expect((await archive.exited).code).toBe(0);
    expect(sandbox.store.scripts.get(SEED_IDS.scripts.getTitle)!.archivedAt).not.toBeNull();

    const draft = sandbox.store.addVersion(SEED_IDS.scripts.topStories, { note: "Scrap", content: "return {};\n" });
    const drop = openTerminal(["scripts", "versions", "delete", "news.ycombinator.com/top_stories", String(draft.versionNumber)], { env: sandbox.env });
    await drop.waitFor(/\[y\/N\] /);
    expect(drop.output()).toContain(`Delete draft version ${draft.versionNumber} of @demo/news.ycombinator.com/top_stories?`);
    drop.type("yes\r");
    expect((await drop.exited).code).toBe(0);
    expect(sandbox.store.versions.has(draft.id)).toBe(false);

    const move = openTerminal(["scripts", "transfer", "news.ycombinator.com/top_stories", "--to", "acme"], { env: sandbox.env });
    await move.waitFor(/\[y\/N\] /);
    expect(move.output()).toContain("Move @demo/news.ycombinator.com/top_stories to acme? Its address becomes acme/news.ycombinator.com/top_stories.");
    move.type("\r");
    expect((await move.exited).code).toBe(2);
    expect(sandbox.store.handleOf(sandbox.store.scripts.get(SEED_IDS.scripts.topStories)!.owner)).toBe("@demo");
  });

  test("without a terminal and without --yes they refuse (exit 2) and change nothing; --yes goes ahead", async () => {
    const run = sandbox.store.addRun({ status: "success" });
    const draft = sandbox.store.addVersion(SEED_IDS.scripts.acmeExport, { note: "Scrap", content: "return {};\n" });
    const cases: string[][] = [
      ["runs", "delete", run.id],
      ["scripts", "archive", "acme/crm.acme.test/export_contacts"],
      ["scripts", "transfer", "acme/crm.acme.test/export_contacts", "--to", "@demo"],
      ["scripts", "versions", "delete", "acme/crm.acme.test/export_contacts", draft.id],
    ];
    for (const args of cases) {
      const r = await runCli(args, { env: sandbox.env });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/needs confirmation, and there is no terminal to ask on: add --yes to go ahead/);
    }
    expect(sandbox.store.runs.has(run.id)).toBe(true);
    expect(sandbox.store.versions.has(draft.id)).toBe(true);
    const script = sandbox.store.scripts.get(SEED_IDS.scripts.acmeExport)!;
    expect(script.archivedAt).toBeNull();
    expect(sandbox.store.handleOf(script.owner)).toBe("acme");

    expect((await runCli(["runs", "delete", run.id, "--yes"], { env: sandbox.env })).code).toBe(0);
    expect(sandbox.store.runs.has(run.id)).toBe(false);
  });
});
