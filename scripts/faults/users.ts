import { setTimeout as sleep } from "node:timers/promises";
import { rutCheckDigit } from "../../server/contract/rut.ts";
import { signIn } from "../support/sign-in.ts";

// The users of a fault run: virtual users that log in once and keep their token, think 1–5 s between requests, in the
// issue's mix (70 % patients, 20 % staff, 10 % anonymous). Every answer is recorded, so a scenario can say what users
// got while the fault was on, and every write the portal answered 2xx is remembered, to be looked for in the database.

export interface Outcome {
  at: number;
  user: "patient" | "staff" | "anonymous";
  kind: "read" | "write";
  name: string;
  status: number; // 0 = no answer (connection refused, reset, timeout)
  ms: number;
  message?: string;
}

export interface CreatedUser {
  rut: string;
  email: string;
  status: number;
}

export interface LoadRun {
  outcomes: Outcome[];
  /** Users staff asked to create, with the status the portal answered. */
  created: CreatedUser[];
  stop(): Promise<void>;
}

const patientBodies = Array.from({ length: 24 }, (_, i) => String(17_000_000 + i * 104_729));
export const patientAccounts = [
  { rut: "12.345.678-5", password: "Paciente2026" },
  ...patientBodies.map((body) => ({ rut: `${body}-${rutCheckDigit(body)}`, password: "Paciente2026" })),
];
// Staff VUs share one session of the admin: an executive may not create users in every clinic (a 403 would not be the
// fault's), and the second factor's code is accepted once per 30-second step.
const staffAccount = { rut: "11.111.111-1", password: "Admin2026" };

let nextRut = 40_000_000 + Math.floor(Math.random() * 1_000_000) * 10;

export function startLoad(
  baseUrl: string,
  users: number,
  options: {
    thinkMs?: [number, number];
    timeoutMs?: number;
    /** How many of `users` are patients and staff (the rest anonymous); the 70 % / 20 % by default. */
    mix?: { patients: number; staff: number };
  } = {},
): LoadRun {
  const [thinkMin, thinkMax] = options.thinkMs ?? [1_000, 5_000];
  const timeoutMs = options.timeoutMs ?? 10_000;
  const outcomes: Outcome[] = [];
  const created: CreatedUser[] = [];
  let running = true;

  async function call(
    user: Outcome["user"],
    kind: Outcome["kind"],
    name: string,
    path: string,
    init: RequestInit & { token?: string } = {},
  ): Promise<{ status: number; body: unknown }> {
    const started = performance.now();
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.body) headers["content-type"] = "application/json";
    let status = 0;
    let body: unknown = null;
    let message: string | undefined;
    try {
      const response = await fetch(`${baseUrl}${path}`, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) });
      status = response.status;
      const text = await response.text();
      try {
        body = JSON.parse(text);
        message = (body as { message?: string }).message;
      } catch {
        body = text;
      }
    } catch (error) {
      message = unansweredReason(error);
    }
    outcomes.push({ at: Date.now(), user, kind, name, status, ms: performance.now() - started, message });
    return { status, body };
  }

  const think = () => sleep(thinkMin + Math.random() * (thinkMax - thinkMin));
  const api = (path: string) => `/api/rcr/v1${path}`;

  async function login(account: { rut: string; password: string }): Promise<string | null> {
    for (let attempt = 0; attempt < 20 && running; attempt++) {
      const { status, body } = await call("patient", "read", "ingreso", api("/auth/new-login"), {
        method: "POST",
        body: JSON.stringify(account),
      });
      if (status === 200) return (body as { payload: { accessToken: string } }).payload.accessToken;
      await think();
    }
    return null;
  }

  let staffSession: Promise<string | null> | undefined;
  async function signInStaff(): Promise<string | null> {
    for (let attempt = 0; attempt < 20 && running; attempt++) {
      const started = performance.now();
      try {
        const token = await signIn(baseUrl, staffAccount, "staff");
        outcomes.push({
          at: Date.now(),
          user: "staff",
          kind: "read",
          name: "ingreso personal",
          status: 200,
          ms: performance.now() - started,
        });
        return token;
      } catch (error) {
        outcomes.push({
          at: Date.now(),
          user: "staff",
          kind: "read",
          name: "ingreso personal",
          status: 0,
          ms: performance.now() - started,
          message: (error as Error).message,
        });
        await think();
      }
    }
    return null;
  }

  async function patient(index: number) {
    const account = patientAccounts[index % patientAccounts.length]!;
    const token = await login(account);
    if (!token) return;
    const rut = account.rut;
    const steps: Array<[string, string]> = [
      ["cuentas", api(`/files/accounts/${rut}?page=1&limit=10&clinic=hcs-rcr`)],
      ["laboratorio", api("/orders?clinic=hcs-rcr")],
      // The lab mock numbers a patient's orders after the RUT's body: 12345678 → 1234567801.
      ["orden de laboratorio", api(`/orders/${rut.replace(/\./g, "").split("-")[0]}01?clinic=hcs-rcr`)],
      ["imagenología", api("/orders-imaging?clinic=hcs-rcr")],
      ["mi cuenta", api("/auth/me")],
    ];
    for (let i = 0; running; i++) {
      await think();
      if (!running) break;
      const [name, path] = steps[i % steps.length]!;
      await call("patient", "read", name, path, { token });
    }
  }

  async function staff() {
    const token = await (staffSession ??= signInStaff());
    if (!token) return;
    for (let i = 0; running; i++) {
      await think();
      if (!running) break;
      switch (i % 4) {
        case 0:
          await call("staff", "read", "búsqueda por RUT", api("/admin/filter/users?clinic=hcs-rcr&param=1700"), { token });
          break;
        case 1:
          await call("staff", "read", "búsqueda por nombre", api("/admin/filter/users?clinic=hcs-rcr&param=gonz"), { token });
          break;
        case 2:
          await call("staff", "read", "búsqueda de cuentas", api("/files/filter/users?clinic=hcs-rcr&param=9"), { token });
          break;
        default: {
          nextRut += 1;
          const body = String(nextRut);
          const rut = `${body}-${rutCheckDigit(body)}`;
          const email = `carga.${body}@correo.cl`;
          const { status } = await call("staff", "write", "crear usuario", api("/admin?clinic=hcs-rcr"), {
            method: "POST",
            token,
            body: JSON.stringify({ rut, email, roleType: 2 }),
          });
          created.push({ rut, email, status });
        }
      }
    }
  }

  async function anonymous(index: number) {
    const account = patientAccounts[index % patientAccounts.length]!;
    for (let i = 0; running; i++) {
      await think();
      if (!running) break;
      if (i % 3 === 0) await call("anonymous", "read", "página de ingreso", "/login");
      else if (i % 3 === 1)
        await call("anonymous", "read", "ingreso (anónimo)", api("/auth/new-login"), { method: "POST", body: JSON.stringify(account) });
      else
        await call("anonymous", "read", "recuperación", api("/auth/request-reset-password-rut"), {
          method: "POST",
          body: JSON.stringify({ rut: "99.999.999-9", rcrLink: "http://clinicasur.localhost:4200/recover-password" }),
        });
    }
  }

  const tasks: Promise<void>[] = [];
  const patients = options.mix?.patients ?? Math.round(users * 0.7);
  const staffUsers = options.mix?.staff ?? Math.round(users * 0.2);
  for (let i = 0; i < users; i++) {
    // Ramp up over 10 s: a hundred logins (argon2id) in the same instant would be a fault of their own.
    const delay = (i / users) * 10_000;
    const run = i < patients ? patient : i < patients + staffUsers ? staff : anonymous;
    tasks.push(sleep(delay).then(() => run(i)));
  }
  return {
    outcomes,
    created,
    async stop() {
      running = false;
      await Promise.all(tasks);
    },
  };
}

/** What a run counts as failed: no answer (refused, reset, timed out) or a 5xx. */
export const isFailure = (outcome: Outcome): boolean => outcome.status === 0 || outcome.status >= 500;

/** Summary of the outcomes within [from, to). */
export function summarize(outcomes: Outcome[], from = 0, to = Number.POSITIVE_INFINITY) {
  const inWindow = outcomes.filter((outcome) => outcome.at >= from && outcome.at < to);
  const percentile = (values: number[], p: number) => {
    if (!values.length) return 0;
    const sorted = [...values].sort((x, y) => x - y);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  };
  return {
    requests: inWindow.length,
    failures: inWindow.filter(isFailure).length,
    p95ms: Math.round(
      percentile(
        inWindow.map((outcome) => outcome.ms),
        95,
      ),
    ),
    // A loop, not Math.max(...): an hour's requests are more arguments than the stack holds.
    maxMs: Math.round(inWindow.reduce((max, outcome) => Math.max(max, outcome.ms), 0)),
  };
}

/**
 * Why a request got no answer, as fetch tells it: its error and the socket error under it ("TypeError: fetch failed
 * (UND_ERR_SOCKET: other side closed)"), so a report can tell a timeout from a connection the other side closed.
 */
export function unansweredReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as (Error & { code?: string }) | undefined;
  const under = cause instanceof Error ? ` (${cause.code ?? cause.name}: ${cause.message})` : "";
  return `${error.name}: ${error.message}${under}`;
}
