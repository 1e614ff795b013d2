/**
 * Types that turn an openapi-typescript `operations[...]` entry into the flat
 * `{ client, path?, query?, body? }` options and `{ data, error, response }` results
 * every generated function uses.
 */
import type { CallSettingsOptions } from "./wire/call-settings.js";
import type { ReduckClient } from "./client.js";
import type { ReduckError } from "./errors.js";

type Params<Op> = Op extends { parameters: infer P } ? P : never;
type ParamSlot<Op, K extends string> = Params<Op> extends infer P ? (K extends keyof P ? P[K] : never) : never;

/**
 * One named option: absent when the operation has none, optional when every field in it
 * is optional, required otherwise.
 */
type Slot<T, Name extends string> = [NonNullable<T>] extends [never]
  ? { [K in Name]?: never }
  : undefined extends T
    ? { [K in Name]?: NonNullable<T> }
    : // biome-ignore lint/complexity/noBannedTypes: `{} extends T` asks whether T has only optional keys, which only the empty type can ask
      {} extends T
      ? { [K in Name]?: T }
      : { [K in Name]: T };

/** The JSON body, or never for an operation that takes none (so `body` is then a type error). */
type JsonBody<Op> = Op extends { requestBody?: infer B }
  ? [NonNullable<B>] extends [never]
    ? never
    : NonNullable<B> extends { content: { "application/json": infer J } }
      ? undefined extends B
        ? J | undefined
        : J
      : never
  : never;

/**
 * Options every call accepts besides its parameters: `timeoutMs`, `maxRetries` and `onRetry`
 * are this call's own, in place of the client's.
 */
export interface CallOptions extends CallSettingsOptions {
  client: ReduckClient;
  /** Cancels the request; the call then returns an `aborted` error instead of throwing. */
  signal?: AbortSignal;
  /** Extra headers for this request only. */
  headers?: Record<string, string>;
}

export type OperationOptions<Op> = CallOptions & Slot<ParamSlot<Op, "path">, "path"> & Slot<ParamSlot<Op, "query">, "query"> & Slot<JsonBody<Op>, "body">;

type Responses<Op> = Op extends { responses: infer R } ? R : never;
type SuccessStatus = 200 | 201 | 202 | 204;
type JsonOf<R> = R extends { content: { "application/json": infer J } } ? J : undefined;

/** The JSON a successful call answers with (`undefined` for 204). */
export type SuccessData<Op> = JsonOf<Responses<Op>[Extract<keyof Responses<Op>, SuccessStatus>]>;

/** The item type of a list operation's page. */
export type ItemOf<Op> = SuccessData<Op> extends { data: Array<infer T> } ? T : never;

export type OperationResult<T> = { data: T; error: undefined; response: Response } | { data: undefined; error: ReduckError; response: Response | undefined };

export type ListResult<T> =
  | { data: T[]; hasNextPage: boolean; totalCount: number | undefined; error: undefined; response: Response }
  | { data: undefined; hasNextPage: false; totalCount: undefined; error: ReduckError; response: Response | undefined };
