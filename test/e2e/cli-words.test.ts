/**
 * The CLI's words: lists as the API pages them, the service's
 * messages with the CLI's way out, suggestions for typos, parse errors as sentences, and help
 * that says what it does. The built CLI against the sandbox over loopback HTTP.
 */
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { useCliSandbox } from "../support/sandbox.js";

const sandbox = useCliSandbox({ home: "reduck-words-" });

describe("lists with --json are the API's page (§3)", () => {
  test("one page says whether there are more and how many in all; --all has every item and hasNextPage false", async () => {
    const page = JSON.parse((await runCli(["scripts", "list", "--json", "--page-size", "5"], { env: sandbox.env })).stdout);
    expect(Object.keys(page).sort()).toEqual(["data", "hasNextPage", "totalCount"]);
    expect(page.data).toHaveLength(5);
    expect(page.hasNextPage).toBe(true);
    const all = JSON.parse((await runCli(["scripts", "list", "--json", "--all"], { env: sandbox.env })).stdout);
    expect(all.data).toHaveLength(page.totalCount);
    expect(all).toMatchObject({ hasNextPage: false, totalCount: page.totalCount });
    // Each script with the address that names it, as the table's first column shows.
    expect(all.data.map((s: { address: string }) => s.address)).toContain("reduck/mail.google.com/send_email");
    for (const s of all.data) expect(s.address).toBe(`${s.author.handle}/${s.host}/${s.slug}`);

    for (const args of [
      ["runs", "list"],
      ["scripts", "versions", "list", "example.com/get_title"],
    ]) {
      const listed = JSON.parse((await runCli([...args, "--json", "--all"], { env: sandbox.env })).stdout);
      expect(listed, args.join(" ")).toMatchObject({ data: expect.any(Array), hasNextPage: false, totalCount: listed.data.length });
    }
  });
});

describe("the service's messages keep their words and gain the CLI's way out (§9)", () => {
  test("devices, browsers, the API URL and handles", async () => {
    const device = await runCli(
      ["run", "--device", "00000000-0000-4000-8000-00000000dead", "--script", "reduck/mail.google.com/send_email", "to=a@b.c", "subject=x"],
      { env: sandbox.env },
    );
    expect(device.code).toBe(1);
    expect(device.stderr).toContain("list yours with GET /api/devices. See yours with `reduck devices list`.");

    const managed = await runCli(["run", "--browser", "managed", "--script", "reduck/admin.atlassian.com/download_invoice", "id=1", "transaction_account=2"], {
      env: sandbox.env,
    });
    expect(managed.code).toBe(1);
    expect(managed.stderr).toContain('or run in your own browser (browser: "extension"). In the CLI: --browser extension.');

    const url = await runCli(["whoami", "--api-url", "ftp://reduck.example"], { env: sandbox.env });
    expect(url.code).toBe(2);
    expect(url.stderr).toBe("Error: baseUrl must use http or https, got ftp:. Set the API URL with --api-url or REDUCK_API_URL.\n");

    const handle = await runCli(["scripts", "list", "demo"], { env: sandbox.env });
    expect(handle.code).toBe(2);
    expect(handle.stderr).toContain("No such handle: demo. Did you mean @demo?");
    const transfer = await runCli(["scripts", "transfer", "example.com/get_title", "--to", "demo", "--yes"], { env: sandbox.env });
    expect(transfer.code).toBe(2);
    expect(transfer.stderr).toBe(
      "Error: transferring @demo/example.com/get_title to demo: No such handle: demo. Did you mean @demo? A person's handle starts with @.\n",
    );
  });
});

describe("typos (§11)", () => {
  test("scirpts and scrpts suggest scripts; rnus suggests runs, not run", async () => {
    for (const [typed, meant] of [
      ["scirpts", "scripts"],
      ["scrpts", "scripts"],
      ["rnus", "runs"],
      ["devcies", "devices"],
    ] as const) {
      const r = await runCli([typed], { env: sandbox.env });
      expect(r.code, typed).toBe(2);
      expect(r.stderr).toBe(`Error: "${typed}" is not a reduck command. Did you mean "reduck ${meant}"? Run "reduck --help" for the list.\n`);
    }
    expect((await runCli(["scirpts", "lst"], { env: sandbox.env })).stderr).toContain('Did you mean "reduck scripts list"?');
  });

  test("a mistyped flag suggests the real one", async () => {
    const r = await runCli(["scripts", "list", "--hots", "mail.google.com"], { env: sandbox.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("Error: unknown flag --hots: did you mean --host?\n");
    const secret = await runCli(["scripts", "list", "--apikey=rk_typed_secret"], { env: sandbox.env });
    expect(secret.stderr).toBe("Error: unknown flag --apikey: did you mean --api-key?\n");
    const run = await runCli(["run", "--sequental", "--script", "reduck/mail.google.com/send_email"], { env: sandbox.env });
    expect(run.stderr).toBe("Error: unknown flag --sequental: did you mean --sequential?\n");
  });

  test("a script slug that does not exist suggests the closest on that host; a mistyped argument its closest name", async () => {
    const r = await runCli(["scripts", "get", "reduck/mail.google.com/send_emial"], { env: sandbox.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Did you mean reduck/mail.google.com/send_email?");
    const run = await runCli(["run", "--script", "reduck/mail.google.com/sendemail", "to=a@b.c"], { env: sandbox.env });
    expect(run.stderr).toContain("Did you mean reduck/mail.google.com/send_email?");
    const arg = await runCli(["run", "--script", "reduck/mail.google.com/send_email", "to=a@b.c", "sbject=x"], { env: sandbox.env });
    expect(arg.code).toBe(2);
    expect(arg.stderr).toContain("unknown argument sbject (did you mean subject?)");
  });
});

describe("help and parse errors (§14)", () => {
  const commands = [
    "run",
    "whoami",
    "login",
    "logout",
    "mcp",
    "devices list",
    "scripts list",
    "scripts get",
    "scripts create",
    "scripts update",
    "scripts publish",
    "scripts unpublish",
    "scripts archive",
    "scripts restore",
    "scripts targets",
    "scripts transfer",
    "scripts versions list",
    "scripts versions get",
    "scripts versions create",
    "scripts versions update",
    "scripts versions delete",
    "scripts versions promote",
    "runs list",
    "runs get",
    "runs delete",
    "runs trace",
  ];

  test("every example in every command's help carries the $ prompt; every command takes --json as the root help says", async () => {
    const root = await runCli(["--help"], { env: sandbox.env });
    expect(root.stdout.replace(/\s+/g, " ")).toContain("Every command takes --json (exactly one JSON document on stdout) except help, autocomplete and mcp");
    for (const command of commands) {
      const help = (await runCli([...command.split(" "), "--help"], { env: sandbox.env })).stdout;
      const examples = help.slice(help.indexOf("EXAMPLES"));
      expect(examples, command).not.toBe("");
      // An example is a command (indented 2, or 4 under its description); wrapped lines go deeper.
      const lines = examples.split("\n").slice(1).filter(Boolean);
      const commandLines = lines.filter((l, i) => /^ {4}\S/.test(l) || (/^ {2}\S/.test(l) && !/^ {4}\S/.test(lines[i + 1] ?? "")));
      expect(commandLines.length, command).toBeGreaterThan(0);
      for (const line of commandLines) expect(line, `${command}: ${line}`).toMatch(/^ {2}( {2})?\$ /);
      expect(help, command).toMatch(/--json\s+Format output as json/);
    }
    // Some thirty CLI starts one after another: on a loaded machine that is more than the usual minute.
  }, 180_000);

  test("oclif's raw messages are sentences", async () => {
    const cases: Array<[string[], string]> = [
      [["scripts", "versions", "get", "example.com/get_title"], "Error: missing VERSION: the command is `reduck scripts versions get ADDRESS VERSION`\n"],
      [
        ["scripts", "create", "--host", "a.example", "--slug", "a", "--source", "x.js", "--description", "d"],
        "Error: missing required flag --side-effects: see `reduck scripts create --help`\n",
      ],
      [["scripts", "list", "--visibility", "secret"], 'Error: --visibility must be private or public (you gave "secret")\n'],
      [["scripts", "list", "--page-size", "0"], 'Error: --page-size must be a whole number of at least 1 (you gave "0")\n'],
      [["scripts", "list", "reduck", "extra"], "Error: unexpected argument extra: the command is `reduck scripts list [HANDLE]`\n"],
      [["scripts", "list", "--page", "1", "--all"], "Error: --page and --all cannot be used together\n"],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args, { env: sandbox.env });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toBe(message);
      expect(r.stderr).not.toMatch(/See more help|The following error|Missing \d+ required arg/);
    }
  });

  test("reduck run with arguments but no --script says arguments follow --script ADDRESS", async () => {
    const r = await runCli(["run", "to=me@x.com"], { env: sandbox.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'Error: "to=me@x.com" comes before any --script: arguments follow --script ADDRESS, e.g. reduck run --script reduck/mail.google.com/send_email to=me@x.com\n',
    );
  });
});
