// The config file holding sign-ins: damaged files reported and never overwritten, atomic writes
// that keep every other entry, a warning when other users can read it, and the lock.
import { mkdir, readdir, readFile, stat, utimes, writeFile, chmod, rm } from "node:fs/promises";
import { afterEach, describe, expect, test, vi } from "vitest";
import { configFile, readConfig, updateConfig, withConfigLock } from "../../src/cli/shell/config.js";
import { CliError } from "../../src/cli/shell/errors.js";
import { runCli } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";

async function freshDir() {
  const dir = temporaryFolder("reduck-config-test-");
  const env = { REDUCK_CONFIG_DIR: dir } as NodeJS.ProcessEnv;
  return { dir, env, file: configFile(env) };
}

afterEach(() => vi.restoreAllMocks());

describe("a damaged config file", () => {
  test("is reported with its path and the fix, and never overwritten", async () => {
    const { env, file } = await freshDir();
    await writeFile(file, '{"credentials": {"https://reduck.ai": {"apiKey": "rk_keep"', { mode: 0o600 });
    const error = await readConfig(env).catch((e) => e);
    expect(error).toBeInstanceOf(CliError);
    expect(error.message).toContain(`${file} is damaged: it is not valid JSON`);
    expect(error.message).toContain(`mv "${file}" "${file}.bak"`);
    await expect(updateConfig((c) => void (c.apiUrl = "http://elsewhere"), env)).rejects.toThrow(/is damaged/);
    expect(await readFile(file, "utf8")).toBe('{"credentials": {"https://reduck.ai": {"apiKey": "rk_keep"');
  });

  test("JSON of the wrong shape is damaged too", async () => {
    const { env, file } = await freshDir();
    await writeFile(file, JSON.stringify({ credentials: { "https://reduck.ai": { apiKey: 42 } } }), { mode: 0o600 });
    await expect(readConfig(env)).rejects.toThrow(`${file} is damaged: the entry for https://reduck.ai holds neither an API key nor an OAuth sign-in`);
    await writeFile(file, "[]", { mode: 0o600 });
    await expect(readConfig(env)).rejects.toThrow("it is not a JSON object");
  });

  test("a file that cannot be read says so", async () => {
    const { env, file } = await freshDir();
    await mkdir(file); // a folder where the file should be
    await expect(readConfig(env)).rejects.toThrow(`could not read ${file} (EISDIR)`);
  });

  test("the CLI stops at it instead of signing in over it or sending a command elsewhere", async () => {
    const { dir, file } = await freshDir();
    await writeFile(file, "{oops", { mode: 0o600 });
    const env = { REDUCK_CONFIG_DIR: dir, HOME: dir };
    const login = await runCli(["login", "--with-api-key"], { env, input: "rk_new\n" });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain(`Error: ${file} is damaged`);
    expect(await readFile(file, "utf8")).toBe("{oops");
    const whoami = await runCli(["whoami"], { env: { ...env, REDUCK_API_KEY: "rk_x" } });
    expect(whoami.code).toBe(1);
    expect(whoami.stderr).toContain(`${file} is damaged`);
  });
});

describe("writing", () => {
  test("keeps every other entry, unknown ones included, readable only by the owner, with no temporary file left", async () => {
    const { dir, env, file } = await freshDir();
    await writeFile(file, JSON.stringify({ credentials: { "https://other.example": { apiKey: "rk_other" } }, fromLaterVersion: { x: 1 } }), { mode: 0o600 });
    await updateConfig((c) => {
      c.credentials = { ...c.credentials, "https://reduck.ai": { apiKey: "rk_new" } };
    }, env);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
      credentials: { "https://other.example": { apiKey: "rk_other" }, "https://reduck.ai": { apiKey: "rk_new" } },
      fromLaterVersion: { x: 1 },
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(["config.json"]);
  });

  test("an old file open to others is replaced by one that is not", async () => {
    const { env, file } = await freshDir();
    await writeFile(file, "{}");
    await chmod(file, 0o644);
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await updateConfig((c) => void (c.apiUrl = "http://127.0.0.1:4010"), env);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  test("removing the last entry removes the file", async () => {
    const { env, file } = await freshDir();
    await updateConfig((c) => void (c.credentials = { "https://reduck.ai": { apiKey: "rk" } }), env);
    await updateConfig((c) => void delete c.credentials!["https://reduck.ai"], env);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });
});

test("a file other users can read is warned about, with the fix", async () => {
  const { env, file } = await freshDir();
  await writeFile(file, "{}");
  await chmod(file, 0o644);
  const written: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (written.push(String(chunk)), true));
  await readConfig(env);
  expect(written.join("")).toBe(`Warning: ${file} holds your credentials and other users can read or change it (mode 0644): run \`chmod 600 "${file}"\`\n`);
});

test("a folder other users can write is warned about, with the fix, when the file is read and when it is written", async () => {
  // Whoever can replace config.json can point the next command, and its key, at a server of their own.
  const { dir, env, file } = await freshDir();
  await writeFile(file, "{}", { mode: 0o600 });
  await chmod(dir, 0o777);
  const written: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (written.push(String(chunk)), true));
  await readConfig(env);
  expect(written.join("")).toBe(
    `Warning: ${dir} holds your credentials and other users can add, replace or remove files in it (mode 0777): run \`chmod 700 "${dir}"\`\n`,
  );

  // A login into an open folder that holds no file yet is warned about too.
  const fresh = await freshDir();
  await chmod(fresh.dir, 0o775);
  written.length = 0;
  await updateConfig((c) => void (c.apiUrl = "http://127.0.0.1:4010"), fresh.env);
  expect(written.join("")).toContain(`Warning: ${fresh.dir} holds your credentials and other users can add, replace or remove files in it (mode 0775)`);
});

test("a folder only its owner can write (group and others may look in) is not warned about", async () => {
  const { dir, env, file } = await freshDir();
  await writeFile(file, "{}", { mode: 0o600 });
  await chmod(dir, 0o755);
  const written: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (written.push(String(chunk)), true));
  await readConfig(env);
  expect(written).toEqual([]);
});

describe("the lock", () => {
  test("a second change waits for the first and sees what it wrote", async () => {
    const { env, file } = await freshDir();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = withConfigLock(async () => {
      entered();
      await held;
      await writeFile(file, JSON.stringify({ apiUrl: "http://first" }), { mode: 0o600 }); // as the CLI writes it: no mode warning
    }, env);
    await inside;
    const second = updateConfig((c) => c.apiUrl, env);
    release();
    await first;
    expect(await second).toBe("http://first");
  });

  test("a lock left by a process that died is taken over", async () => {
    const { env, file } = await freshDir();
    await writeFile(`${file}.lock`, "");
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, old, old);
    await updateConfig((c) => void (c.apiUrl = "http://after"), env);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ apiUrl: "http://after" });
    await expect(stat(`${file}.lock`)).rejects.toThrow(/ENOENT/);
    await rm(file);
  });
});
