/**
 * `reduck login`'s OAuth flow: authorization code with PKCE (S256), `state` and resource
 * indicators, the browser sent back to a loopback listener. The code is exchanged for the API's
 * token; the refresh token then obtains the run host's, when the run host is another resource.
 */
import * as oauth from "oauth4webapi";
import { discoverAuthorizationServer, discoverResource, type ProtectedResource } from "./discovery.js";
import { listenForCallback } from "./loopback.js";
import { authFailure, requestOptions, type AuthFetch } from "./requests.js";
import { publicClient, refreshGrant, storedToken } from "./tokens.js";
import { AuthError, type OAuthSignIn } from "./types.js";

/**
 * What the CLI (and `reduck mcp`, which uses its sign-in) does, as scopes: the scripts, runs and
 * devices commands, `flock` (the app operations need `app:read` and `app:write`), `whoami`
 * (`profile`), and a refresh token (`offline_access`). Trimmed to those the authorization server
 * lists. A test holds it to the scopes of every operation the CLI's code calls.
 */
export const CLI_SCOPES = [
  "script:read",
  "script:write",
  "run:read",
  "run:write",
  "device:read",
  "connector:read",
  "app:read",
  "app:write",
  "profile",
  "offline_access",
];

/** The redirect URI registered: RFC 8252 lets a native app's loopback redirect use any port. */
export const REGISTERED_REDIRECT_URI = "http://127.0.0.1/callback";

export interface SignInOptions {
  apiUrl: string;
  runUrl: string;
  /** From --client-id or REDUCK_OAUTH_CLIENT_ID: used instead of registering. */
  clientId?: string;
  /** A client this CLI registered earlier with that authorization server. */
  rememberedClient(issuer: string): string | undefined;
  /** Shows the person the link (and opens the browser, unless told not to). */
  present(authorizationUrl: string): Promise<void>;
  /** How long to wait for the browser. */
  timeoutMs: number;
  /** What sends the requests (the CLI's fetch, through its proxy); Node's fetch without it. */
  fetch?: AuthFetch;
}

export interface SignInResult {
  signIn: OAuthSignIn;
  /** Set when a client was registered now, to be remembered for that issuer. */
  registeredClientId?: string;
}

export async function signInWithBrowser(options: SignInOptions): Promise<SignInResult> {
  const { apiUrl, runUrl, fetch } = options;
  const api = await discoverResource(apiUrl, fetch);
  const run = runUrl !== apiUrl ? await discoverResource(runUrl, fetch) : undefined;
  const issuer = api.authorizationServers[0]!;
  if (run && !run.authorizationServers.includes(issuer)) {
    throw new AuthError(
      `the run host ${runUrl} trusts another authorization server (${run.authorizationServers.join(", ")}) than the API (${issuer}): sign in with an API key, \`reduck login --with-api-key\``,
      "refused",
    );
  }
  const as = await discoverAuthorizationServer(issuer, fetch);
  if (!as.authorization_endpoint || !as.token_endpoint) {
    throw new AuthError(`the authorization server ${issuer} has no authorization or token endpoint in its metadata`, "refused");
  }
  const methods = as.code_challenge_methods_supported;
  if (Array.isArray(methods) && !methods.includes("S256")) {
    throw new AuthError(`the authorization server ${issuer} does not offer PKCE with S256, which reduck requires to sign in`, "refused");
  }

  let clientId = options.clientId ?? options.rememberedClient(issuer);
  let registeredClientId: string | undefined;
  if (!clientId) {
    clientId = registeredClientId = await register(as, fetch);
  }
  const client = publicClient(clientId);

  const listener = await listenForCallback();
  try {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint);
    const params = url.searchParams;
    params.set("response_type", "code");
    params.set("client_id", clientId);
    params.set("redirect_uri", listener.redirectUri);
    params.set("scope", scopesFor(as).join(" "));
    params.set("state", state);
    params.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    params.set("code_challenge_method", "S256");
    for (const resource of [api, run]) if (resource) params.append("resource", resource.resource);

    const waiting = listener.wait(state, options.timeoutMs);
    await options.present(url.href);
    const { url: back, finish } = await waiting;
    try {
      const signIn = await exchange(as, client, back, state, listener.redirectUri, verifier, api, run, fetch);
      finish({ ok: true, message: "Signed in to Reduck: you can close this tab." });
      return { signIn, registeredClientId };
    } catch (err) {
      const failure = authFailure(err, "completing the sign-in", issuer);
      finish({ ok: false, message: failure.message });
      throw failure;
    }
  } finally {
    listener.close();
  }
}

async function exchange(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  back: URL,
  state: string,
  redirectUri: string,
  verifier: string,
  api: ProtectedResource,
  run: ProtectedResource | undefined,
  fetch: AuthFetch | undefined,
): Promise<OAuthSignIn> {
  // Checks state, an error answer, and the issuer (RFC 9207) when the server says it sends one.
  const callback = oauth.validateAuthResponse(as, client, back, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), callback, redirectUri, verifier, {
    additionalParameters: { resource: api.resource },
    ...requestOptions(as.token_endpoint!, fetch),
  });
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  const signIn: OAuthSignIn = {
    issuer: as.issuer,
    clientId: client.client_id,
    ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
    ...(tokens.scope ? { scope: tokens.scope } : {}),
    tokens: { [api.baseUrl]: storedToken(api.resource, tokens) },
  };
  if (run) {
    if (!signIn.refreshToken) {
      throw new AuthError(`the authorization server gave no refresh token, so no token for the run host ${run.baseUrl} can be obtained`, "refused");
    }
    const runTokens = await refreshGrant(as, signIn.clientId, signIn.refreshToken, run.resource, fetch);
    if (runTokens.refresh_token) signIn.refreshToken = runTokens.refresh_token; // rotated: the old one is spent
    signIn.tokens[run.baseUrl] = storedToken(run.resource, runTokens);
  }
  return signIn;
}

/** CLI_SCOPES, less those the server says it does not support. */
function scopesFor(as: oauth.AuthorizationServer): string[] {
  const supported = as.scopes_supported;
  return Array.isArray(supported) ? CLI_SCOPES.filter((s) => supported.includes(s)) : CLI_SCOPES;
}

/** Registers this CLI as a public native client (RFC 7591). */
async function register(as: oauth.AuthorizationServer, fetch: AuthFetch | undefined): Promise<string> {
  if (!as.registration_endpoint) {
    throw new AuthError(
      `the authorization server ${as.issuer} does not register clients itself: pass the client id you were given with --client-id (or set REDUCK_OAUTH_CLIENT_ID)`,
      "refused",
    );
  }
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: "Reduck CLI",
        application_type: "native",
        redirect_uris: [REGISTERED_REDIRECT_URI],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      },
      requestOptions(as.registration_endpoint, fetch),
    );
    return (await oauth.processDynamicClientRegistrationResponse(response)).client_id;
  } catch (err) {
    throw authFailure(err, "registering reduck with the authorization server", as.issuer);
  }
}
