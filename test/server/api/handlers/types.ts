// Types that tie each operation's implementation to openapi.json at compile time: its path params,
// query and body come from the generated `operations` types, and it may only return a status the
// operation declares, with that status's body type. The runtime self-check then covers what types
// cannot (formats, patterns, additionalProperties, and errors thrown as ApiError).
import type { operations } from "../../contract/openapi-types.js";

/**
 * The operations the description marks `x-reduck-handwritten` (POST /run and its batches): served
 * by the hand-written handlers of run/, not through the table of Implementations
 * (package-contents.test.ts holds this list to the description).
 */
export const HANDWRITTEN_OPERATIONS = ["getBatch", "runScript"] as const;

/** The operations served through the table of Implementations. */
type OperationId = Exclude<keyof operations, (typeof HANDWRITTEN_OPERATIONS)[number]>;
import type { Caller } from "../auth.js";
import type { DescribedOperationId } from "../../contract/openapi.js";
import type { SandboxStore } from "../../store/store.js";

type Op<K extends DescribedOperationId> = operations[K];

type JsonBody<R> = R extends { content: { "application/json": infer B } } ? B : undefined;

type Responses<K extends DescribedOperationId> = Op<K>["responses"];

/** A reply an implementation may give: a declared status with its declared body (none for 204). */
export type Reply<K extends DescribedOperationId> = {
  [S in keyof Responses<K> & number]: { status: S; body: JsonBody<Responses<K>[S]> };
}[keyof Responses<K> & number];

type Params<K extends DescribedOperationId> = Op<K>["parameters"];

export type PathParams<K extends DescribedOperationId> = Params<K> extends { path: infer P } ? P : Record<string, never>;
export type QueryParams<K extends DescribedOperationId> =
  Params<K> extends { query?: infer Q } ? ([Q] extends [never] ? Record<string, never> : NonNullable<Q>) : Record<string, never>;
export type RequestBody<K extends DescribedOperationId> = Op<K>["requestBody"] extends { content: { "application/json": infer B } } | undefined ? B : undefined;

/** What an implementation gets: already authenticated and validated (query coerced to its types). */
export interface OperationContext<K extends DescribedOperationId> {
  store: SandboxStore;
  /** null only for operations that allow anonymous callers. */
  caller: Caller | null;
  path: PathParams<K>;
  query: QueryParams<K>;
  /**
   * The validated JSON body. A multipart request (POST /run with file parts) is left unread: the
   * implementation reads `request` itself, so large uploads are streamed rather than parsed here.
   */
  body: RequestBody<K>;
  request: Request;
}

export type Implementation<K extends DescribedOperationId> = (context: OperationContext<K>) => Reply<K> | Promise<Reply<K>>;

/** Every generated operation must be implemented: a missing one fails to compile. */
export type Implementations = { [K in OperationId]: Implementation<K> };

/**
 * Operations the client writes by hand (`x-reduck-handwritten` in openapi.json). None goes through
 * this table today: runScript (POST /run) reads its own streamed body and is served by
 * run/handler.ts, registered in routing.ts's HANDWRITTEN_HANDLERS. Its replies are still typed with
 * Reply<"runScript"> and checked with validateResponse.
 */
export type HandwrittenImplementations = { [K in Exclude<DescribedOperationId, OperationId>]?: Implementation<K> };
