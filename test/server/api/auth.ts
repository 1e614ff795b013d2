// Who is calling. Mirrors the hosted service: an API key acts as its account with every right; an
// OAuth token must be issued for this API and carry the operation's scope.
//
// Two kinds of token: opaque ones from the store (for tests that need no authorization server;
// audiences https://reduck.ai and https://mcp.reduck.ai), and JWT access tokens signed by an
// authorization server this server was told to trust (`trustAuthorizationServer`, the sandbox's
// `--oauth-issuer`). For those, this server is a real protected resource: the API is its own
// origin, the run host is `<origin>/mcp`, each described at /.well-known/oauth-protected-resource.
import { createRemoteJWKSet, customFetch, decodeJwt, errors as jose, jwtVerify, type JWTPayload } from "jose";
import { API_AUDIENCE, MCP_AUDIENCE, type TokenRecord } from "../store/records.js";
import type { SandboxStore } from "../store/store.js";
import { ApiError } from "./errors.js";

export type Caller = { userId: string; via: "apiKey" } | { userId: string; via: "oauth"; scopes: readonly string[] };

export interface AuthRequirement {
  /** Bearer scope the operation needs (from openapi.json's `security`). */
  scope: string;
  /** The operation serves callers without credentials (a reduced view). */
  anonymous: boolean;
  /**
   * Token audiences accepted (default: this API's only). POST /run passes both: it is served by
   * the run host, which is also the MCP host, so a token issued for either resource may run scripts
   * as long as it carries `run:write`. For JWTs the two stand for this server's own resources.
   */
  audiences?: readonly string[];
}

export const NOT_AUTHENTICATED = "Not authenticated: send an API key in X-API-Key or an OAuth bearer token";

/**
 * Identifies the caller of a request, or throws a 401/403 ApiError. Returns null for a request with
 * no credential at all when the operation allows anonymous callers. A credential that is present but
 * wrong is refused even there: silently downgrading it to anonymous would hide the mistake.
 *
 * @example
 * const caller = await authenticate(request, store, { scope: "run:read", anonymous: false });
 */
export async function authenticate(request: Request, store: SandboxStore, requirement: AuthRequirement): Promise<Caller | null> {
  const apiKey = request.headers.get("x-api-key");
  const authorization = request.headers.get("authorization");

  if (apiKey !== null) {
    const userId = store.userIdForApiKey(apiKey.trim());
    if (!userId) throw new ApiError(401, "Invalid API key");
    return { userId, via: "apiKey" };
  }

  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) {
      throw new ApiError(401, "Unsupported Authorization header: send `Authorization: Bearer <token>` or an API key in X-API-Key");
    }
    const opaque = store.tokenInfo(match[1]!);
    if (opaque) return opaqueCaller(opaque, requirement);
    if (isJwt(match[1]!)) return jwtCaller(match[1]!, request, store, requirement);
    throw new ApiError(401, "Invalid or expired access token");
  }

  if (requirement.anonymous) return null;
  throw new ApiError(401, NOT_AUTHENTICATED);
}

function opaqueCaller(token: TokenRecord, requirement: AuthRequirement): Caller {
  const audiences = requirement.audiences ?? [API_AUDIENCE];
  if (!audiences.includes(token.audience)) throw wrongAudience([token.audience], API_AUDIENCE, MCP_AUDIENCE);
  return withScope(token.userId, token.scopes, requirement.scope);
}

function withScope(userId: string, scopes: readonly string[], needed: string): Caller {
  if (!scopes.includes(needed)) {
    throw new ApiError(403, `This access token lacks the "${needed}" scope this operation needs: request a token that includes it`);
  }
  return { userId, via: "oauth", scopes };
}

function wrongAudience(audiences: readonly string[], api: string, mcp: string): ApiError {
  if (audiences.includes(mcp)) {
    return new ApiError(401, `This access token was issued for the Reduck MCP server (${mcp}), not this API: request a token with resource ${api}`);
  }
  return new ApiError(401, `This access token was issued for ${audiences.join(", ") || "no audience"}, not this API: request a token with resource ${api}`);
}

// ---- JWT access tokens from a trusted authorization server -------------------------------------

interface TrustedIssuer {
  issuer: string;
  jwks: ReturnType<typeof createRemoteJWKSet>;
}

const trusted = new WeakMap<SandboxStore, TrustedIssuer>();

/** This server's two resources for a request: the API (its origin) and the run host (`<origin>/mcp`). */
export function resourcesOf(request: Request): { api: string; runHost: string } {
  const origin = new URL(request.url).origin;
  return { api: origin, runHost: `${origin}/mcp` };
}

/** The issuer whose JWTs the server over `store` accepts, if one was trusted. */
export function trustedIssuer(store: SandboxStore): string | undefined {
  return trusted.get(store)?.issuer;
}

/**
 * Reads an authorization server's metadata (RFC 8414, else OpenID discovery) and its JWKS; from
 * then on the server over `store` accepts JWT access tokens that server signed. `fetch` reaches it
 * (one through a test proxy, for an issuer whose name only that proxy resolves).
 *
 * @example
 * await trustAuthorizationServer(store, "http://127.0.0.1:4020");
 */
export async function trustAuthorizationServer(
  store: SandboxStore,
  issuer: string,
  { fetch = globalThis.fetch }: { fetch?: typeof globalThis.fetch } = {},
): Promise<void> {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const candidates = [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}${path}/.well-known/openid-configuration`];
  let metadata: { issuer?: unknown; jwks_uri?: unknown } | undefined;
  for (const candidate of candidates) {
    const response = await fetch(candidate, { signal: AbortSignal.timeout(10_000) });
    if (response.ok) {
      metadata = (await response.json()) as typeof metadata;
      break;
    }
    await response.body?.cancel();
  }
  if (!metadata) throw new Error(`${issuer} publishes no authorization server metadata (tried ${candidates.join(" and ")})`);
  if (metadata.issuer !== issuer) throw new Error(`${issuer}'s metadata names another issuer (${String(metadata.issuer)})`);
  if (typeof metadata.jwks_uri !== "string") throw new Error(`${issuer}'s metadata has no jwks_uri`);
  const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri), { [customFetch]: fetch });
  await jwks.reload(); // read the keys now: an unreachable JWKS is a start-up error, not a 401 later
  trusted.set(store, { issuer, jwks });
}

function isJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

async function jwtCaller(token: string, request: Request, store: SandboxStore, requirement: AuthRequirement): Promise<Caller> {
  const trust = trusted.get(store);
  let claims: JWTPayload;
  try {
    claims = decodeJwt(token);
  } catch {
    throw new ApiError(401, "Invalid or expired access token");
  }
  if (!trust) {
    throw new ApiError(401, "This server trusts no authorization server, so it cannot check this JWT: start the sandbox with --oauth-issuer URL");
  }
  if (claims.iss !== trust.issuer) {
    throw new ApiError(
      401,
      `This access token was issued by ${claims.iss ?? "an unnamed issuer"}, not by the authorization server this API trusts (${trust.issuer})`,
    );
  }
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, trust.jwks, { issuer: trust.issuer, requiredClaims: ["exp", "sub", "aud"] }));
  } catch (error) {
    if (error instanceof jose.JWTExpired) throw new ApiError(401, "This access token has expired: refresh it, or sign in again");
    if (error instanceof jose.JWSSignatureVerificationFailed || error instanceof jose.JWKSNoMatchingKey) {
      throw new ApiError(401, `This access token's signature does not verify with ${trust.issuer}'s keys: it was altered, or not issued there`);
    }
    throw new ApiError(401, `This access token is not valid: ${(error as Error).message}`);
  }

  const { api, runHost } = resourcesOf(request);
  const accepted = (requirement.audiences ?? [API_AUDIENCE]).map((role) => (role === MCP_AUDIENCE ? runHost : api));
  const audiences = typeof payload.aud === "string" ? [payload.aud] : (payload.aud ?? []);
  if (!audiences.some((a) => accepted.includes(a))) throw wrongAudience(audiences, api, runHost);

  const user = store.userBySubject(String(payload.sub));
  if (!user) {
    throw new ApiError(
      401,
      `This access token's subject "${payload.sub}" is not an account on this server (a subject is an account's first username: demo for the demo account, whatever handle it answers to)`,
    );
  }
  const scopes = typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : [];
  return withScope(user.id, scopes, requirement.scope);
}

/**
 * RFC 6750 / RFC 9728: a 401 tells the client where this resource's metadata is, so it can find
 * the authorization server to get a token from. Returns the response, with the header on a 401.
 */
export function withChallenge(request: Request, response: Response): Response {
  if (response.status !== 401) return response;
  const url = new URL(request.url);
  const runHost = url.pathname === "/mcp" || url.pathname.startsWith("/mcp/");
  const metadata = `${url.origin}/.well-known/oauth-protected-resource${runHost ? "/mcp" : ""}`;
  const invalid = request.headers.has("authorization") ? ', error="invalid_token"' : "";
  response.headers.set("WWW-Authenticate", `Bearer resource_metadata="${metadata}"${invalid}`);
  return response;
}
