/**
 * Typed scripts: the registry a generated module (`reduck scripts types`) fills by declaration
 * merging, and the types the run functions read from it. Types only: nothing here exists at run
 * time. An address the registry does not hold keeps the loose types (`Record<string, unknown>`
 * args, `unknown` result), unless the registry is strict (ReduckScriptsConfig): then it is a
 * type error.
 */
import type { FileSource } from "./files.js";

/**
 * Scripts whose contracts a generated module registered, by address (`handle/host/slug`). Empty
 * in the library; `reduck scripts types` writes a module that adds to it:
 *
 * @example
 * ```ts
 * declare module "reduck-client" {
 *   interface ReduckScripts {
 *     "reduck/mail.google.com/send_email": { args: SendEmailArgs; files: SendEmailFiles; result: SendEmailResult };
 *   }
 * }
 * ```
 */
export interface ReduckScripts {}

/**
 * How typed scripts behave, set once by declaration merging (`reduck scripts types --strict`
 * writes it into the module). `strict: true`: an address no module registered is a type error
 * in `runScript`, `runMany`, `waitForRun` and `scriptAt`, so a misspelt slug, a missing handle
 * or an object whose strings widened to `string` is caught; every script run must be registered.
 *
 * @example
 * ```ts
 * declare module "reduck-client" {
 *   interface ReduckScriptsConfig {
 *     strict: true;
 *   }
 * }
 * ```
 */
export interface ReduckScriptsConfig {}

/** Whether the registry is strict (ReduckScriptsConfig). */
export type StrictScripts = ReduckScriptsConfig extends { strict: true } ? true : false;

/**
 * The addresses a generated module registered.
 *
 * @example
 * ```ts
 * const address: RegisteredScript = "reduck/mail.google.com/send_email";
 * ```
 */
export type RegisteredScript = keyof ReduckScripts & string;

/** An object with no properties: `Empty extends X` when X's properties are all optional. */
type Empty = Record<never, never>;

/** Not distributive, and `never` (no address) is loose too. */
type Part<K, P extends "args" | "files" | "result", Loose> = [K] extends [never]
  ? Loose
  : [K] extends [RegisteredScript]
    ? ReduckScripts[K & RegisteredScript] extends { [Q in P]: infer V }
      ? V
      : Loose
    : Loose;

/**
 * A script's arguments: its registered args type, else `Record<string, unknown>`.
 *
 * @example
 * ```ts
 * const args: ScriptArgs<"reduck/mail.google.com/send_email"> = { to: "me@example.com", subject: "Hi" };
 * ```
 */
export type ScriptArgs<K> = Part<K, "args", Record<string, unknown>>;
/**
 * A script's file inputs: its registered files type, else any input name.
 *
 * @example
 * ```ts
 * const files: ScriptFiles<"reduck/mail.google.com/send_email"> = { attachment: { path: "./banner.png" } };
 * ```
 */
export type ScriptFiles<K> = Part<K, "files", Record<string, FileSource>>;
/**
 * What a script returns: its registered result type, else `unknown`.
 *
 * @example
 * ```ts
 * function report(result: ScriptResultOf<"reduck/mail.google.com/send_email">) { console.log(result.sent); }
 * ```
 */
export type ScriptResultOf<K> = Part<K, "result", unknown>;

/** `handle/host/slug`; without a handle (your own script) nothing is looked up. */
export type AddressOf<H extends string, Ho extends string, S extends string> = string extends H ? never : `${H}/${Ho}/${S}`;

/** An address a call may name: any, or in a strict registry only a registered one. */
export type ScriptAddressFor = StrictScripts extends true ? RegisteredScript : string;

/** Whether an address is registered (never, no address, is not). */
type IsRegistered<A> = [A] extends [never] ? false : A extends RegisteredScript ? true : false;

/** The handles, hosts under handle H, and slugs under H/Ho of the registered addresses. */
type RegisteredHandle = RegisteredPart<0>;
type HostsOf<H extends string> = RegisteredScript extends infer K ? (K extends `${H}/${infer Ho}/${string}` ? Ho : never) : never;
type SlugsOf<H extends string, Ho extends string> = RegisteredScript extends infer K ? (K extends `${H}/${Ho}/${infer S}` ? S : never) : never;

/**
 * A script that is not registered, in a strict registry: the first part that matches no
 * registered address (handle, then host, then slug) must be one of those that do, so the error
 * lands on that part and lists what would be right. A part that widened to `string` is refused too.
 */
type RegisteredScriptToRun<H extends string, Ho extends string, S extends string> = {
  handle: string extends H ? RegisteredHandle : H extends RegisteredHandle ? H : RegisteredHandle;
  host: string extends H ? Ho : H extends RegisteredHandle ? (Ho extends HostsOf<H> ? Ho : HostsOf<H>) : Ho;
  slug: string extends H ? S : H extends RegisteredHandle ? (Ho extends HostsOf<H> ? (S extends SlugsOf<H, Ho> ? S : SlugsOf<H, Ho>) : S) : S;
  version_id?: string;
  args?: Record<string, unknown>;
  files?: Record<string, FileSource>;
};

/** `args` (required when the script has a required input) and `files`, typed by the registry. */
type Inputs<K> = [K] extends [never]
  ? { args?: Record<string, unknown>; files?: Record<string, FileSource> }
  : [K] extends [RegisteredScript]
    ? (Empty extends ScriptArgs<K> ? { args?: ScriptArgs<K> } : { args: ScriptArgs<K> }) &
        (Empty extends ScriptFiles<K> ? { files?: ScriptFiles<K> } : { files: ScriptFiles<K> })
    : { args?: Record<string, unknown>; files?: Record<string, FileSource> };

/**
 * One script to run. Its args, files and result are typed when its address
 * (`handle/host/slug`, so give the handle) is registered in ReduckScripts.
 *
 * @example
 * ```ts
 * const script: TypedScriptToRun<"reduck", "mail.google.com", "send_email"> = { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "me@example.com", subject: "Hi" } };
 * ```
 */
export type TypedScriptToRun<H extends string = string, Ho extends string = string, S extends string = string> = StrictScripts extends true
  ? IsRegistered<AddressOf<H, Ho, S>> extends true
    ? LooseScriptToRun<H, Ho, S>
    : RegisteredScriptToRun<H, Ho, S>
  : LooseScriptToRun<H, Ho, S>;

type LooseScriptToRun<H extends string, Ho extends string, S extends string> = {
  host: Ho;
  slug: S;
  /** `@username`, a project handle, or `reduck` for the official catalogue. Omitted: your own (and untyped). */
  handle?: H;
  version_id?: string;
} & Inputs<AddressOf<H, Ho, S>>;

/** The address of a step as written (`const`), or never. */
type StepAddress<X> = X extends { host: infer Ho extends string; slug: infer S extends string }
  ? AddressOf<X extends { handle: infer H extends string } ? H : string, Ho, S>
  : never;

/** Names given that the registered type lacks, each a property whose name says so. */
type Unknown<Given, Known, What extends string> = {
  [P in Exclude<keyof Given, keyof Known>]: { [M in `${P & string} is not ${What}`]: never };
};

/** The check of one of `scripts` (written as a `const` tuple): its registered inputs, or anything (in a strict registry, an error). */
type StepCheck<X> = [StepAddress<X>] extends [never]
  ? StrictScripts extends true
    ? { handle: RegisteredHandle }
    : unknown
  : StepAddress<X> extends infer K extends RegisteredScript
    ? {
        handle?: string;
        host: string;
        slug: string;
        version_id?: string;
        args?: ScriptArgs<K> & (X extends { args: infer G } ? Unknown<G, ScriptArgs<K>, `an input of ${K}`> : unknown);
        files?: ScriptFiles<K> & (X extends { files: infer G } ? Unknown<G, ScriptFiles<K>, `a file input of ${K}`> : unknown);
      } & (Empty extends ScriptArgs<K> ? unknown : { args: unknown }) &
        (Empty extends ScriptFiles<K> ? unknown : { files: unknown })
    : StrictScripts extends true
      ? { [M in `${StepAddress<X> & string} is not a registered script`]: never }
      : unknown;

/** The handles, hosts or slugs of the registered addresses. */
type RegisteredPart<N extends 0 | 1 | 2> = RegisteredScript extends infer K ? (K extends `${infer H}/${infer Ho}/${infer S}` ? [H, Ho, S][N] : never) : never;

/** A part of a step's address: a registered one (kept literal), or any string unless the registry is strict. */
// `string & {}` keeps the registered literals apart from plain strings.
type StepPart<N extends 0 | 1 | 2> = StrictScripts extends true ? RegisteredPart<N> : RegisteredPart<N> | (string & Empty);

/**
 * One of `scripts` as runScript takes it. A registered handle, host or slug keeps its literal
 * type when written in the call (so the step's address can be looked up); any other is a string.
 *
 * @example
 * ```ts
 * const step: StepToRun = { handle: "reduck", host: "slack.com", slug: "upload_file", args: { channel: "#general", content: "notes" } };
 * ```
 */
export interface StepToRun {
  handle?: StepPart<0>;
  host: StepPart<1>;
  slug: StepPart<2>;
  args?: Record<string, unknown>;
  files?: Record<string, FileSource>;
  version_id?: string;
}

/** Each of `scripts` checked against its own registered contract. */
export type CheckedSteps<T extends readonly unknown[]> = { [I in keyof T]: StepCheck<T[I]> };

/** What each of `scripts` returns, step by step (`unknown` for an unregistered one). */
export type StepResults<T extends readonly unknown[]> = { -readonly [I in keyof T]: ScriptResultOf<StepAddress<T[I]>> };
