/**
 * What a person does in the browser after `reduck login` prints its link: open it, type a login
 * name on the authorization server's sign-in page, approve on its consent page, and land on the
 * CLI's loopback callback. Done over plain HTTP: each page's form is read and submitted as a
 * browser would, cookies kept per server.
 */

export interface SignInResult {
  /** Where the authorization server finally sent the browser (the CLI's redirect URI, with code and state). */
  callbackUrl: string;
  /** The CLI's answer at that address. */
  status: number;
  page: string;
}

/**
 * Follows `authorizationUrl` through the login and consent pages as `login`, then opens the
 * callback it ends on.
 *
 * `fetch` is the browser's way to the network (one through a test proxy, for names only it resolves).
 *
 * @example
 * const { page } = await signInInBrowser(urlPrintedByTheCli, "demo");
 */
export async function signInInBrowser(
  authorizationUrl: string,
  login: string,
  { consent = true, fetch = globalThis.fetch }: { consent?: boolean; fetch?: typeof globalThis.fetch } = {},
): Promise<SignInResult> {
  const cookies = new Map<string, string>();
  const origin = new URL(authorizationUrl).origin;
  let url = authorizationUrl;
  let method = "GET";
  let body: URLSearchParams | undefined;

  for (let step = 0; step < 20; step++) {
    if (new URL(url).origin !== origin) {
      // Left the authorization server: this is the redirect to the CLI's listener.
      const response = await fetch(url);
      return { callbackUrl: url, status: response.status, page: await response.text() };
    }
    const response = await fetch(url, {
      method,
      body,
      redirect: "manual",
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    const location = response.headers.get("location");
    if (location) {
      url = new URL(location, url).href;
      method = "GET";
      body = undefined;
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`the authorization server answered ${response.status}: ${text(html)}`);
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
    if (!form) throw new Error(`no form on the page at ${url}: ${text(html)}`);
    const fields = new URLSearchParams();
    for (const input of form[2]!.matchAll(/<input[^>]*>/gi)) {
      const name = /name="([^"]+)"/.exec(input[0])?.[1];
      if (name) fields.set(name, /value="([^"]*)"/.exec(input[0])?.[1] ?? "");
    }
    const prompt = fields.get("prompt");
    if (prompt === "login") {
      fields.set("login", login);
      fields.set("password", "any password");
    } else if (prompt === "consent" && !consent) {
      const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
      if (!abort) throw new Error("no way to decline on the consent page");
      url = new URL(abort, url).href;
      method = "GET";
      body = undefined;
      continue;
    }
    url = new URL(decode(form[1]!), url).href;
    method = "POST";
    body = fields;
  }
  throw new Error("the sign-in went round in circles");
}

function decode(s: string): string {
  return s
    .replace(/&amp;/g, "&")
    .replace(/&#x2F;/gi, "/")
    .replace(/&#x3D;/gi, "=");
}

function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 300);
}
