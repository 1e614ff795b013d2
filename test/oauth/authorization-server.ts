/**
 * A real OAuth 2 authorization server for the tests: oidc-provider (certified OpenID Connect
 * server), on loopback, configured the way the hosted service's is described: PKCE required,
 * resource indicators issuing JWT access tokens for the sandbox's two resources (the API at its
 * origin, the run host at `<origin>/mcp`), refresh tokens, dynamic registration, revocation, and
 * the development login and consent pages (any login name; the password is not checked).
 */
import type { AddressInfo } from "node:net";
import { createServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import Provider, { errors } from "oidc-provider";
import { ALL_SCOPES } from "@reduck-client/sandbox/internal";

/** Every scope the hosted service knows (the sandbox's list), as resource scopes of its tokens. */
export const SERVICE_SCOPES: string[] = ALL_SCOPES.filter((s) => s !== "openid" && s !== "offline_access");

export interface AuthorizationServerOptions {
  /** Resource indicators it issues tokens for (the sandbox's origin and `<origin>/mcp`). */
  resources: string[];
  /** Access-token lifetime in seconds. Default 3600. */
  accessTokenTtl?: number;
  /** Serve https with this certificate (PEM) instead of http. */
  tls?: { cert: string; key: string };
  /** The host name in its issuer URL, when not 127.0.0.1 (one only a test proxy resolves, say). */
  name?: string;
}

export interface TestAuthorizationServer {
  issuer: string;
  /** Signs a JWT with this server's own key: for tokens it would never issue (expired, unknown subject). */
  sign(claims: Record<string, unknown>, options?: { expiresIn?: number }): Promise<string>;
  close(): Promise<void>;
}

/**
 * Builds the provider without its two "quick start development-only" warnings (the in-memory
 * store and the development login pages): a test server uses both on purpose, and the warnings,
 * printed at every start, are noise in the test output. Any other warning still shows.
 */
function withoutQuickStartWarnings<T>(make: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].includes("oidc-provider WARNING: a quick start development-only ")) return;
    warn(...args);
  };
  try {
    return make();
  } finally {
    console.warn = warn;
  }
}

export async function startAuthorizationServer(options: AuthorizationServerOptions): Promise<TestAuthorizationServer> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "ES256", use: "sig" };
  const ttl = options.accessTokenTtl ?? 3600;

  // The issuer URL must be known before the provider exists: listen first, then attach it.
  const server = options.tls ? createHttpsServer(options.tls) : createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `${options.tls ? "https" : "http"}://${options.name ?? "127.0.0.1"}:${(server.address() as AddressInfo).port}`;

  const provider = withoutQuickStartWarnings(
    () =>
      new Provider(issuer, {
        jwks: { keys: [jwk] },
        cookies: { keys: ["reduck-test-cookie-key"] },
        scopes: ["openid", "offline_access", ...SERVICE_SCOPES],
        pkce: { required: () => true },
        // Its one key is an EC key: registered clients default to it instead of RS256.
        clientDefaults: { id_token_signed_response_alg: "ES256", grant_types: ["authorization_code"], response_types: ["code"] },
        features: {
          devInteractions: { enabled: true },
          registration: { enabled: true },
          revocation: { enabled: true },
          resourceIndicators: {
            enabled: true,
            // The token request names the resource; with one granted resource it may be left out.
            useGrantedResource: () => true,
            getResourceServerInfo: (_ctx, indicator) => {
              if (!options.resources.includes(indicator)) throw new errors.InvalidTarget(`unknown resource ${indicator}`);
              return {
                scope: SERVICE_SCOPES.join(" "),
                audience: indicator,
                accessTokenTTL: ttl,
                accessTokenFormat: "jwt",
                jwt: { sign: { alg: "ES256" } },
              };
            },
          },
        },
        // A native public client gets refresh tokens without `prompt=consent` (which needs `openid`).
        issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
        ttl: { RefreshToken: 86_400, Grant: 86_400, Session: 3600, Interaction: 600, AccessToken: ttl },
        findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
      }),
  );
  provider.on("server_error", (_ctx, error) => console.error("authorization server:", error));
  server.on("request", provider.callback());

  return {
    issuer,
    sign: async (claims, { expiresIn = ttl } = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, iat: now, exp: now + expiresIn, ...claims })
        .setProtectedHeader({ alg: "ES256", kid: jwk.kid, typ: "at+jwt" })
        .sign(privateKey);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
