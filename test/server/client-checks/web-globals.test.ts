/**
 * The web globals a script body gets (URL, URLSearchParams, atob, btoa, TextEncoder, TextDecoder)
 * are made inside the body's context; each is held here against Node's own implementation, the
 * witness no one of us wrote.
 */
import vm from "node:vm";
import { describe, expect, test } from "vitest";
import { createScript, runScript } from "reduck-client";
import { insideScript } from "../runtime/isolation/build.js";
import type { InsideScript } from "../runtime/isolation/inside/index.js";
import { useSandboxWithClient } from "./sandbox-harness.js";

/** A context like the body's: no code from strings, the globals made by the very script text the worker evaluates. */
function scriptRealm() {
  const context = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } });
  (vm.runInContext(insideScript(), context) as InsideScript).webGlobals();
  return (code: string) => vm.runInContext(code, context) as unknown;
}

const realm = scriptRealm();
/** Runs `fn(arg)` in the script realm, handing JSON in and out. */
const inRealm = (fn: string, arg: unknown) => JSON.parse(realm(`JSON.stringify((${fn})(${JSON.stringify(arg)}))`) as string);

const URLS: Array<[string, string?]> = [
  ["https://admin.atlassian.com/gateway/api/billing/invoices/inv_42/download?transactionAccount=acct_9"],
  ["HTTPS://User:Pa ss@Example.COM:443/a/./b/../c d/é?q=1 2&x=é#frag ment"],
  ["http://example.com:8080"],
  ["http://127.1/"],
  ["http://0x7f.1/"],
  ["http://0177.0.0.1/"],
  ["http://4294967295/"],
  ["http://1.2.3.4.5.x/"],
  ["https://mail.google.com/mail/u/0/#inbox?compose=new"],
  ["file:///home/me/Desktop/reduck/a b.pdf"],
  ["mailto:me@example.com?subject=Hi there"],
  ["data:text/plain,hello world"],
  ["../up/there?x#y", "https://h.example/a/b/c"],
  ["/root", "https://h.example/a/b?q#f"],
  ["?only", "https://h.example/a/b?q#f"],
  ["#only", "https://h.example/a/b?q#f"],
  ["//other.example/p", "https://h.example/a"],
  ["", "https://h.example/a?q#f"],
  ["sub/file.pdf", "https://h.example/dir/"],
  ["https://h.example/%2e%2E/x"],
  ["http://[::1]:4010/api"],
  ["https://h.example/a\\b"],
];

describe("URL", () => {
  test.each(URLS)("%s (base %s) reads as Node reads it", (input, base) => {
    const ours = inRealm(
      "([input, base]) => { const u = new URL(input, base ?? undefined); return [u.href, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin, [...u.searchParams]]; }",
      [input, base],
    );
    const u = new URL(input, base);
    expect(ours).toEqual([u.href, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin, [...u.searchParams]]);
  });

  test.each([["no scheme"], ["https://"], ["http://a b/"], ["http://h:99999/"], ["http://[bad/"], ["http://1.2.3.256/"], ["http://09.1/"]])(
    "%s is refused as Node refuses it",
    (input) => {
      expect(URL.canParse(input)).toBe(false);
      expect(inRealm("(input) => URL.canParse(input)", input)).toBe(false);
      expect(realm(`try { new URL(${JSON.stringify(input)}); "parsed" } catch (e) { e instanceof TypeError ? "TypeError" : "other" }`)).toBe("TypeError");
    },
  );

  test("setters and searchParams write back into the URL", () => {
    const script = `(() => {
      const u = new URL("https://h.example/p?a=1#f");
      u.searchParams.append("b", "x y");
      const afterAppend = u.href;
      u.search = "?c=é";
      const params = [...u.searchParams];
      u.hash = "top"; u.pathname = "/new path";
      return [afterAppend, params, u.href, String(u), JSON.stringify({ u })];
    })()`;
    const ours = realm(`JSON.stringify(${script})`) as string;
    const u = new URL("https://h.example/p?a=1#f");
    u.searchParams.append("b", "x y");
    const afterAppend = u.href;
    u.search = "?c=é";
    const params = [...u.searchParams];
    u.hash = "top";
    u.pathname = "/new path";
    expect(JSON.parse(ours)).toEqual([afterAppend, params, u.href, String(u), JSON.stringify({ u })]);
  });
});

describe("URLSearchParams", () => {
  const cases: unknown[] = [
    "?a=1&b=2&a=3",
    "q=a+b%20c&e=%C3%A9&bad=%zz&=empty&flag",
    { transactionAccount: "acct 9", x: "!'()~*" },
    [
      ["k", "v"],
      ["k", "w"],
    ],
  ];
  test.each(cases)("%j serialises, reads and sorts as Node's", (init) => {
    const fn = `(init) => { const p = new URLSearchParams(init); const s = p.toString(); const got = [p.get("a"), p.getAll("k"), p.has("q"), p.size];
      p.set("a", "z"); p.delete("b"); p.append("m", "ü"); p.sort(); return [s, got, p.toString(), [...p.keys()], [...p.values()]]; }`;
    const p = new URLSearchParams(init as string);
    const s = p.toString();
    const got = [p.get("a"), p.getAll("k"), p.has("q"), p.size];
    p.set("a", "z");
    p.delete("b");
    p.append("m", "ü");
    p.sort();
    expect(inRealm(fn, init)).toEqual([s, got, p.toString(), [...p.keys()], [...p.values()]]);
  });
});

describe("base64 and text", () => {
  test.each(["", "a", "ab", "abc", "hello, world", "\u00ff\u0000\u0080"])("btoa/atob of %j agree with Node's", (text) => {
    expect(inRealm("(t) => [btoa(t), atob(btoa(t))]", text)).toEqual([btoa(text), atob(btoa(text))]);
  });

  test("atob accepts what Node accepts and refuses what it refuses", () => {
    for (const input of ["aGk=", "aGk", " aG k= ", "a", "a===", "*"]) {
      let node: string;
      try {
        node = atob(input);
      } catch {
        node = "refused";
      }
      expect(inRealm("(t) => { try { return atob(t); } catch (e) { return 'refused'; } }", input), input).toBe(node);
    }
    expect(inRealm("() => { try { btoa('€'); } catch (e) { return e.name; } }", null)).toBe("InvalidCharacterError");
  });

  test.each(["", "plain", "é€😀", "\ud800 lone", "\ufeffbom"])("TextEncoder/TextDecoder round-trip %j as Node's do", (text) => {
    const bytes = Array.from(new TextEncoder().encode(text));
    expect(inRealm("(t) => Array.from(new TextEncoder().encode(t))", text)).toEqual(bytes);
    expect(inRealm("(b) => new TextDecoder().decode(new Uint8Array(b))", bytes)).toBe(new TextDecoder().decode(new Uint8Array(bytes)));
  });

  test("invalid UTF-8 decodes to replacement characters, or throws when fatal, as Node's", () => {
    for (const bytes of [[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0x61, 0xc0, 0xaf, 0x62]]) {
      expect(inRealm("(b) => new TextDecoder().decode(new Uint8Array(b))", bytes), JSON.stringify(bytes)).toBe(new TextDecoder().decode(new Uint8Array(bytes)));
    }
    expect(
      inRealm("() => { try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([255])); } catch (e) { return e instanceof TypeError; } }", null),
    ).toBe(true);
  });

  test("nothing of the server's realm comes with them", () => {
    for (const name of ["URL", "URLSearchParams", "atob", "btoa", "TextEncoder", "TextDecoder"]) {
      expect(realm(`(() => { try { return ${name}.constructor.constructor("return typeof process")(); } catch (e) { return e.name; } })()`)).toBe("EvalError");
    }
  });
});

describe("the script text they come in", () => {
  test("leaves no global of its own, and keeps the platform's names", () => {
    expect(inRealm("() => typeof reduckInside", null)).toBe("undefined");
    const names = ["URL", "URLSearchParams", "atob", "btoa", "TextEncoder", "TextDecoder"];
    expect(inRealm("(names) => names.map((name) => globalThis[name].name)", names)).toEqual(names);
    // The rest of the text (timers, crypto), once a run's side is set up in it.
    const context = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } });
    (vm.runInContext(insideScript(), context) as InsideScript).inside(
      () => true,
      () => "",
      () => "",
      1024,
      "1 KiB",
    );
    expect(vm.runInContext("[setTimeout.name, clearTimeout.name, typeof crypto.randomUUID].join()", context)).toBe("setTimeout,clearTimeout,function");
  });

  test("is strict: its functions show no caller to climb", () => {
    for (const name of ["URL", "atob", "TextDecoder"]) {
      expect(realm(`(() => { try { return ${name}.caller; } catch (e) { return e.name; } })()`)).toBe("TypeError");
    }
  });
});

describe("in a run", () => {
  const sandbox = useSandboxWithClient();

  test("a script body uses them", async () => {
    const { client } = sandbox;
    const created = await createScript({
      client,
      path: { handle: "@demo" },
      body: {
        host: "example.com",
        slug: "web_globals",
        description: "uses the web globals",
        side_effects: "none",
        input_schema: { type: "object" },
        output_schema: { type: "object" },
        content: `const u = new URL("/p?x=1", "https://example.com/a");
u.searchParams.set("y", "é");
return { href: u.href, b64: btoa("hi"), bytes: new TextEncoder().encode("é").length, text: new TextDecoder().decode(new TextEncoder().encode("ok")) };`,
      },
    });
    expect(created.error).toBeUndefined();
    const run = await runScript({ client, browser: "extension", script: { handle: "@demo", host: "example.com", slug: "web_globals" } });
    expect(run.error).toBeUndefined();
    expect(run.data?.result).toEqual({ href: "https://example.com/p?x=1&y=%C3%A9", b64: "aGk=", bytes: 2, text: "ok" });
  });
});
