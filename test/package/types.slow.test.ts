/**
 * A user's strict project type-checks with both packages, under TypeScript 5 and 7. The packed
 * tarballs of reduck-client (the slow suite's build, with its declarations) and
 * @reduck-client/sandbox (its prepack writes its declarations) are installed with npm into an
 * empty project beside TypeScript 5.9 and 7.0 (7 is what `npm install typescript` gives today)
 * and @types/node, no other @types; the installed `reduck scripts types` writes a typed-scripts
 * module against the installed sandbox; then each compiler runs `tsc --strict --noEmit` (no
 * skipLibCheck: every declaration the program reaches is checked) over code that imports all
 * three, for Node's own module resolution and for a bundler's. A file with a misspelt argument
 * fails under both, so the checks are seen to check.
 *
 * And a new user's first hour, under each compiler's own defaults: a project made as the README's
 * install block says (`npm init -y`, `npm pkg set type=module`, reduck-client and @types/node, no
 * other @types), with the README's library and typed-scripts snippets, type-checks with the
 * tsconfig that compiler's `tsc --init` writes (its `types: []` included) and with `tsc --strict`
 * on one file and no tsconfig (under TypeScript 5 with the two flags README.md gives for top-level
 * `await`); a typed-scripts module for scripts without files compiles alone;
 * and the library snippet, compiled, runs against the sandbox. Needs the registry (or npm's cache).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { temporaryFolder } from "../support/files.js";
import { npm, pathWithThisNode, run } from "./tools.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The compilers, pinned: the last 5.x, and the registry's `latest` when this was written. */
const COMPILERS = { "TypeScript 5": "typescript@5.9.3", "TypeScript 7": "typescript@7.0.2" } as const;
const TYPES_NODE = "@types/node@20.19.43";

let work: string;
let project: string;
let sandbox: ChildProcess | undefined;
/** REDUCK_API_URL and REDUCK_API_KEY of the installed sandbox, running for the whole file. */
let sandboxEnv: Record<string, string>;

/** Where one compiler is installed: a folder of its own beside the project (two `typescript` cannot share one node_modules). */
const compilerFolder = (name: keyof typeof COMPILERS) => path.join(work, name.replace(" ", "-"));
const tscOf = (name: keyof typeof COMPILERS) => path.join(compilerFolder(name), "node_modules", "typescript", "bin", "tsc");

/** Runs a compiler over one of the project's configurations: its exit code and what it printed. */
function tsc(name: keyof typeof COMPILERS, config: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tscOf(name), "-p", config], { cwd: project, env: { PATH: pathWithThisNode() } });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  work = temporaryFolder("reduck-types-");
  const tarballs = path.join(work, "tarballs");
  await mkdir(tarballs);
  // The client as the slow suite built it, with its declarations (prepack would build it again).
  await npm(["pack", "--ignore-scripts", "--pack-destination", tarballs], { cwd: process.env.REDUCK_TEST_BUILD ?? ROOT });
  // The sandbox with its prepack, which writes its declarations.
  await npm(["pack", "-w", "@reduck-client/sandbox", "--pack-destination", tarballs], { cwd: ROOT });
  const packed = (await readdir(tarballs)).sort();
  expect(packed).toEqual(["reduck-client-0.1.0.tgz", "reduck-client-sandbox-0.1.0.tgz"]);

  project = path.join(work, "project");
  await mkdir(project);
  await writeFile(path.join(project, "package.json"), JSON.stringify({ name: "my-project", private: true, type: "module" }));
  // vitest: the sandbox's optional peer, which its ./testing entry imports.
  // The project and each compiler in folders of their own, so installed side by side (npm's cache takes concurrent installs).
  await Promise.all([
    npm(["install", "--no-audit", "--no-fund", ...packed.map((name) => path.join(tarballs, name)), TYPES_NODE, "vitest@4.1.12"], { cwd: project }),
    ...Object.entries(COMPILERS).map(async ([name, spec]) => {
      const folder = compilerFolder(name as keyof typeof COMPILERS);
      await mkdir(folder);
      await writeFile(path.join(folder, "package.json"), JSON.stringify({ private: true }));
      await npm(["install", "--no-audit", "--no-fund", spec], { cwd: folder });
    }),
  ]);

  // The typed-scripts module, as a user makes it: the installed CLI against the installed sandbox.
  sandbox = spawn(
    process.execPath,
    [path.join(project, "node_modules", "@reduck-client", "sandbox", "bin", "reduck-sandbox.mjs"), "--port", "0", "--browser", "simulated"],
    {
      cwd: project,
      env: { PATH: pathWithThisNode(), HOME: work },
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  const started = sandbox;
  sandboxEnv = await new Promise<Record<string, string>>((resolve, reject) => {
    let printed = "";
    started.on("close", () => reject(new Error(`the sandbox exited: ${printed}`)));
    started.stdout!.on("data", (chunk) => {
      printed += chunk;
      const found = Object.fromEntries([...printed.matchAll(/^(REDUCK_API_URL|REDUCK_API_KEY)=(.+)$/gm)].map((m) => [m[1]!, m[2]!]));
      if (found.REDUCK_API_URL && found.REDUCK_API_KEY) resolve(found);
    });
  });
  await reduck(project, ["scripts", "types", "reduck/mail.google.com/send_email", "reduck/docusign.com/upload_document", "--out", "reduck-scripts.ts"]);

  await writeFile(path.join(project, "my-code.ts"), MY_CODE);
  await writeFile(path.join(project, "mistake.ts"), MISTAKE);
  const strict = { strict: true, noEmit: true, types: ["node"], target: "ES2022" };
  const config = (name: string, compilerOptions: Record<string, unknown>, files: string[]) =>
    writeFile(path.join(project, name), JSON.stringify({ compilerOptions: { ...strict, ...compilerOptions }, files }, null, 2));
  const node = { module: "nodenext", moduleResolution: "nodenext" };
  const bundler = { module: "preserve", moduleResolution: "bundler" };
  await config("tsconfig.bundler.json", bundler, ["my-code.ts"]);
  await config("tsconfig.mistake.json", node, ["my-code.ts", "mistake.ts"]);

  await firstHourProjects();
}, 900_000);

afterAll(() => {
  sandbox?.kill("SIGTERM");
});

/** The installed `reduck` CLI, run in `cwd` against the installed sandbox. */
const reduck = (cwd: string, args: string[]) =>
  run(process.execPath, [path.join(project, "node_modules", "reduck-client", "bin", "run.js"), ...args], {
    cwd,
    env: { PATH: pathWithThisNode(), HOME: work, ...sandboxEnv },
  });

/** The first TypeScript block after a README heading. */
function readmeSnippet(heading: string): string {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const at = readme.indexOf(`\n${heading}\n`);
  expect(at, heading).toBeGreaterThan(0);
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
  return block![1]!;
}

/**
 * Two new projects per compiler, made as the README's install block says: `npm init -y` (which
 * writes "type": "commonjs"), `npm pkg set type=module`, the packages (the first project's
 * node_modules, linked in: reduck-client, @reduck-client/sandbox and @types/node), the README's
 * library snippet as main.ts, its typed-scripts snippet beside the generated module, and the
 * sandbox's API. One gets that compiler's `tsc --init`; the other has no tsconfig (TypeScript 7
 * refuses files on the command line where one is found) and a module of scripts without files.
 * Both lie outside the first project, whose tsconfig would be found above them.
 */
async function firstHourProjects(): Promise<void> {
  // One compiler's projects beside the other's: each step waits on npm, the CLI or the compiler.
  await Promise.all((Object.keys(COMPILERS) as Array<keyof typeof COMPILERS>).map(firstHourProjectsOf));
}

async function firstHourProjectsOf(name: keyof typeof COMPILERS): Promise<void> {
  for (const dir of [firstHour(name), oneFile(name)]) {
    await mkdir(dir);
    await npm(["init", "-y"], { cwd: dir });
    expect(JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")).type).toBe("commonjs");
    await npm(["pkg", "set", "type=module"], { cwd: dir });
    await symlink(path.join(project, "node_modules"), path.join(dir, "node_modules"), "dir");
    await writeFile(path.join(dir, "main.ts"), readmeSnippet("### The library"));
    await writeFile(path.join(dir, "typed.ts"), readmeSnippet("### Typed scripts"));
    await writeFile(path.join(dir, "sandbox.ts"), SANDBOX_CODE);
    await reduck(dir, ["scripts", "types", "reduck/mail.google.com/send_email", "--out", "reduck-scripts.ts"]);
  }
  // A module of scripts without files: the only file of its program, so nothing else imports reduck-client.
  await reduck(oneFile(name), ["scripts", "types", "reduck/admin.atlassian.com/download_invoice", "--out", "no-files.ts"]);
  await run(process.execPath, [tscOf(name), "--init"], { cwd: firstHour(name), env: { PATH: pathWithThisNode() } });
}

const firstHour = (name: keyof typeof COMPILERS) => path.join(work, `first-hour-${name.replace(" ", "-")}`);
const oneFile = (name: keyof typeof COMPILERS) => path.join(work, `one-file-${name.replace(" ", "-")}`);

/** The sandbox's testing API as a user's file would use it. */
const SANDBOX_CODE = `import { startSandbox } from "@reduck-client/sandbox";
import { createReduckClient, getMe } from "reduck-client";

export async function me(): Promise<string | null | undefined> {
  const sandbox = await startSandbox({ browser: "simulated" });
  try {
    const { data } = await getMe({ client: createReduckClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.url }) });
    return data?.handle;
  } finally {
    await sandbox.close();
  }
}
`;

/** Runs a compiler in `cwd` with `args`: its exit code and what it printed. */
function tscIn(name: keyof typeof COMPILERS, cwd: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tscOf(name), ...args], { cwd, env: { PATH: pathWithThisNode() } });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** A user's code: the library, the typed module, the sandbox's entry (startSandbox, MSW) and its vitest harness. */
const MY_CODE = `import "./reduck-scripts.js";
import { createReduckClient, runScript, type ReduckClient } from "reduck-client";
import { createStore, nextRuns, receivedRuns, sandboxHandlers, sharedBrowserHost, startSandbox } from "@reduck-client/sandbox";
import { useSandboxInProcess } from "@reduck-client/sandbox/testing";
import { setupServer } from "msw/node";

export async function sendBanner(client: ReduckClient, file: string): Promise<boolean> {
  const { data, error } = await runScript({
    client,
    script: {
      handle: "reduck", host: "mail.google.com", slug: "send_email",
      args: { to: "me@example.com", subject: "Our new banner", attachmentName: "banner.png" },
      files: { attachment: { path: file } },
    },
  });
  if (error) throw new Error(error.error);
  const sent: boolean = data.result.sent;
  return sent;
}

export async function withSandbox(): Promise<number> {
  const sandbox = await startSandbox({ browser: "simulated" });
  try {
    sandbox.next({ held: 3 });
    await sendBanner(createReduckClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.url }), "banner.png");
    return sandbox.runs().length;
  } finally {
    await sandbox.close();
  }
}

export function withMsw(): string[] {
  const store = createStore({ browser: "simulated" });
  const server = setupServer(...sandboxHandlers(store));
  server.listen({ onUnhandledRequest: "error" });
  nextRuns(store, { failed: { errorType: "site_error", externalMessage: "The site is down." } });
  const client = createReduckClient({ apiKey: store.demo.apiKey });
  void client;
  sharedBrowserHost().allowLoopbackPort(8080);
  return receivedRuns(store).map((r) => r.script);
}

export const harness = () => useSandboxInProcess(createReduckClient, { fresh: true }).client;
`;

/** A misspelt argument of a typed script: must not compile. */
const MISTAKE = `import { createReduckClient, runScript } from "reduck-client";

await runScript({
  client: createReduckClient({ apiKey: "rk_example" }),
  script: { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "me@example.com", subjet: "Hello" } },
});
`;

/** A guard against a hang: TypeScript 5 took up to two minutes over this project on a loaded 2-core machine. */
const COMPILE_TIMEOUT = 600_000;

describe.concurrent.each(Object.keys(COMPILERS) as Array<keyof typeof COMPILERS>)("%s, tsc --strict --noEmit in a new project", (compiler) => {
  test("the installed compiler is the one pinned", async () => {
    const { stdout } = await run(process.execPath, [tscOf(compiler), "--version"]);
    expect(stdout.trim()).toBe(`Version ${COMPILERS[compiler].split("@")[1]}`);
  });

  // One compiler run over the user's code beside a file with a mistake serves two tests: every
  // error it reports must be the mistake's, so the user's code type-checks (and a check of
  // my-code.ts alone would only compile it again).
  let withMistake: Promise<{ code: number | null; output: string }> | undefined;
  const nodeResolution = () => (withMistake ??= tsc(compiler, "tsconfig.mistake.json"));

  test("code importing reduck-client, a generated typed-scripts module and @reduck-client/sandbox type-checks (Node's resolution)", {
    timeout: COMPILE_TIMEOUT,
  }, async () => {
    const checked = await nodeResolution();
    const errors = checked.output.split("\n").filter((line) => /error TS\d+/.test(line));
    expect(errors.length).toBeGreaterThan(0);
    expect(
      errors.filter((line) => !line.startsWith("mistake.ts(")),
      checked.output,
    ).toEqual([]);
  });

  test("and under a bundler's resolution", { timeout: COMPILE_TIMEOUT }, async () => {
    const checked = await tsc(compiler, "tsconfig.bundler.json");
    expect(checked.output).toBe("");
    expect(checked.code).toBe(0);
  });

  test("a misspelt argument of a typed script fails, in the user's file only", { timeout: COMPILE_TIMEOUT }, async () => {
    const checked = await nodeResolution();
    expect(checked.code).not.toBe(0);
    expect(checked.output).toContain("subjet");
    const files = [...checked.output.matchAll(/^(\S+?)\(\d+,\d+\): error/gm)].map((m) => m[1]);
    expect(new Set(files)).toEqual(new Set(["mistake.ts"]));
  });
});

describe.concurrent.each(Object.keys(COMPILERS) as Array<keyof typeof COMPILERS>)(
  "%s with its own defaults, in a project made as the README says",
  (compiler) => {
    test("tsc --init's tsconfig: the README's snippets, the generated module and the sandbox's API type-check", { timeout: COMPILE_TIMEOUT }, async () => {
      const tsconfig = await readFile(path.join(firstHour(compiler), "tsconfig.json"), "utf8");
      expect(tsconfig).toMatch(/^\s*"types": \[\],?$/m); // no @types package unless asked
      const checked = await tscIn(compiler, firstHour(compiler), ["-p", ".", "--noEmit"]);
      expect(checked.output).toBe("");
      expect(checked.code).toBe(0);
    });

    test("and with no tsconfig at all, skipLibCheck off: `tsc --strict` over one file", { timeout: COMPILE_TIMEOUT }, async () => {
      const dir = oneFile(compiler);
      // TypeScript 5's defaults without a tsconfig (module commonjs, target ES5) refuse top-level
      // await in any file: README.md says to add these two flags there, as a user would.
      const flags = compiler === "TypeScript 5" ? ["--module", "nodenext", "--target", "es2022"] : [];
      expect(readFileSync(path.join(ROOT, "README.md"), "utf8").replace(/\s+/g, " ")).toContain("TypeScript 5 also needs `--module nodenext --target es2022`");
      for (const one of ["main.ts", "typed.ts", "sandbox.ts"]) {
        const checked = await tscIn(compiler, dir, ["--strict", "--noEmit", ...flags, one]);
        expect(checked.output, one).toBe("");
        expect(checked.code, one).toBe(0);
      }
    });

    test("a generated module of scripts without files compiles alone (nothing else imports reduck-client)", { timeout: COMPILE_TIMEOUT }, async () => {
      const module = await readFile(path.join(oneFile(compiler), "no-files.ts"), "utf8");
      expect(module).toContain('declare module "reduck-client"');
      expect(module).not.toContain("FileSource");
      const checked = await tscIn(compiler, oneFile(compiler), ["--strict", "--noEmit", "no-files.ts"]);
      expect(checked.output).toBe("");
      expect(checked.code).toBe(0);
    });
  },
);

describe("the README's library snippet runs", () => {
  test("compiled by TypeScript 7 with tsc --init's settings, in the ES module project, against the sandbox", { timeout: COMPILE_TIMEOUT }, async () => {
    const dir = firstHour("TypeScript 7");
    const emitted = await tscIn("TypeScript 7", dir, ["-p", "."]);
    expect(emitted.output).toBe("");
    await writeFile(path.join(dir, "banner.png"), Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"));
    const { stdout } = await run(process.execPath, ["main.js"], { cwd: dir, env: { PATH: pathWithThisNode(), HOME: work, ...sandboxEnv } });
    expect(stdout).toContain("send_email");
    expect(stdout).toMatch(/sent: true/);
  });
});

describe("the sandbox in plain Node, as installed", () => {
  test("its entry and its ./testing entry load (./testing needs vitest, its optional peer)", { timeout: 300_000 }, async () => {
    const program = `const entry = await import("@reduck-client/sandbox");
const testing = await import("@reduck-client/sandbox/testing");
console.log(JSON.stringify({ entry: typeof entry.startSandbox, testing: typeof testing.useSandboxInProcess }));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", program], { cwd: project, env: { PATH: pathWithThisNode(), HOME: work } });
    expect(JSON.parse(stdout)).toEqual({ entry: "function", testing: "function" });
  });

  test("its types are declarations, not its sources", async () => {
    const pkg = JSON.parse(await readFile(path.join(project, "node_modules", "@reduck-client", "sandbox", "package.json"), "utf8")) as {
      exports: Record<string, { types?: string } | string>;
    };
    for (const [entry, target] of Object.entries(pkg.exports)) {
      if (typeof target === "string") continue;
      expect(target.types, entry).toMatch(/^\.\/dist\/.*\.d\.ts$/);
      await readFile(path.join(project, "node_modules", "@reduck-client", "sandbox", target.types!), "utf8");
    }
  });
});
