/**
 * A stored OAuth sign-in in use: hands out an access token per base URL, refreshing one that
 * expires within a minute. Refreshes happen under the store's lock, re-reading the sign-in first:
 * refresh tokens rotate, so a second command refreshing with the spent one would be refused.
 */
import { discoverAuthorizationServer, discoverResource } from "./discovery.js";
import type { AuthFetch } from "./requests.js";
import { refreshGrant, storedToken } from "./tokens.js";
import { AuthError, type OAuthSignIn } from "./types.js";

export const REFRESH_MARGIN_MS = 60_000;

/** Where the sign-in is kept (the config file, for the CLI). */
export interface SignInStore {
  read(): Promise<OAuthSignIn | undefined>;
  /** Runs `work` while no other process changes the store. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** Writes the sign-in; called inside `exclusive`. */
  save(signIn: OAuthSignIn): Promise<void>;
}

export class OAuthSession {
  constructor(
    private readonly store: SignInStore,
    private readonly now: () => number = Date.now,
    /** What sends its requests (the CLI's fetch, through its proxy). */
    private readonly fetch?: AuthFetch,
  ) {}

  /** An access token for requests to `baseUrl` that is valid for at least another minute. */
  async accessToken(baseUrl: string): Promise<string> {
    const current = this.usable(await this.read(), baseUrl);
    if (current) return current;
    return this.store.exclusive(async () => {
      const signIn = await this.read();
      const fresh = this.usable(signIn, baseUrl);
      if (fresh) return fresh; // another command refreshed it meanwhile
      if (!signIn.refreshToken) throw new AuthError("your sign-in has expired: run `reduck login`", "expired");
      const resource = signIn.tokens[baseUrl]?.resource ?? (await this.resourceOf(baseUrl, signIn.issuer));
      const as = await discoverAuthorizationServer(signIn.issuer, this.fetch);
      const response = await refreshGrant(as, signIn.clientId, signIn.refreshToken, resource, this.fetch);
      if (response.refresh_token) signIn.refreshToken = response.refresh_token;
      signIn.tokens[baseUrl] = storedToken(resource, response, this.now());
      await this.store.save(signIn);
      return response.access_token;
    });
  }

  private async read(): Promise<OAuthSignIn> {
    const signIn = await this.store.read();
    if (!signIn) throw new AuthError("you are signed out: run `reduck login`", "expired");
    return signIn;
  }

  private usable(signIn: OAuthSignIn, baseUrl: string): string | undefined {
    const token = signIn.tokens[baseUrl];
    return token && Date.parse(token.expiresAt) - this.now() > REFRESH_MARGIN_MS ? token.accessToken : undefined;
  }

  /** A base URL the sign-in has no token for yet (REDUCK_MCP_URL changed since): ask it its resource. */
  private async resourceOf(baseUrl: string, issuer: string): Promise<string> {
    const found = await discoverResource(baseUrl, this.fetch);
    if (!found.authorizationServers.includes(issuer)) {
      throw new AuthError(`${baseUrl} trusts another authorization server than your sign-in (${issuer}): run \`reduck login\` for it`, "expired");
    }
    return found.resource;
  }
}
