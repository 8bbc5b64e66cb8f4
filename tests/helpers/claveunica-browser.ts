// A browser for the ClaveÚnica mock over real HTTP: keeps each host's cookies, follows nothing by itself, so a test sees
// every redirect of the authorization code flow and can stop, replay or tamper with any step.

export interface BrowserStep {
  status: number;
  location: string | null;
  body: string;
  url: string;
}

export class CookieBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  private cookieHeader(url: URL): string {
    const cookies = this.jar.get(url.host);
    return cookies ? [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") : "";
  }

  private keep(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const cookies = this.jar.get(url.host) ?? new Map<string, string>();
      if (!value || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
      this.jar.set(url.host, cookies);
    }
  }

  async request(address: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<BrowserStep> {
    const url = new URL(address);
    const headers: Record<string, string> = { cookie: this.cookieHeader(url) };
    let body: string | undefined;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, { method: init.method ?? (init.form ? "POST" : "GET"), headers, body, redirect: "manual" });
    this.keep(url, response);
    const location = response.headers.get("location");
    return { status: response.status, location: location ? new URL(location, url).href : null, body: await response.text(), url: url.href };
  }

  /** Follows redirects from `address` until one leaves for `stopAt` (an origin + path prefix) or a page is shown. */
  async follow(address: string, stopAt?: string): Promise<BrowserStep> {
    let step = await this.request(address);
    for (let hops = 0; step.location && hops < 10; hops++) {
      if (stopAt && step.location.startsWith(stopAt)) return step;
      step = await this.request(step.location);
    }
    return step;
  }

  /** At the mock's login page: signs in with RUN and ClaveÚnica, and follows until the answer heads to `stopAt`. */
  async signInAtProvider(loginPage: BrowserStep, run: string, password: string, stopAt: string): Promise<BrowserStep> {
    const action = /<form method="post" action="([^"]+)"/.exec(loginPage.body)?.[1];
    if (!action) throw new Error(`No es la página de ingreso de ClaveÚnica: ${loginPage.body.slice(0, 200)}`);
    const posted = await this.request(new URL(action.replaceAll("&amp;", "&"), loginPage.url).href, { form: { run, password } });
    if (!posted.location) return posted;
    return posted.location.startsWith(stopAt) ? posted : this.follow(posted.location, stopAt);
  }

  async cancelAtProvider(loginPage: BrowserStep, stopAt: string): Promise<BrowserStep> {
    const action = /<form method="post" action="([^"]+\/cancelar)"/.exec(loginPage.body)?.[1];
    if (!action) throw new Error("No es la página de ingreso de ClaveÚnica");
    const posted = await this.request(new URL(action, loginPage.url).href, { form: {} });
    return posted.location && !posted.location.startsWith(stopAt) ? this.follow(posted.location, stopAt) : posted;
  }
}
