// The child processes of npm start and npm run stack. Each runs `node <script>` itself (a TypeScript source through
// tsx's loader, a compiled bundle with its source maps), not through npx: a signal then reaches the process that serves
// (and its close-with-grace), with no wrapper in between that might not pass it on. Stopping sends SIGTERM to every child and exits only once all are gone (or after `graceMs`), so
// nothing started here outlives the command and keeps its ports — also when npm, which started the command, is
// stopped instead (it does not pass the signal on). The children named in `stopLast` (the simulated providers) get
// theirs only once the others (the portals) have exited: a portal drains its work on SIGTERM (the mail it was sending,
// a payment it was confirming), and the providers it calls must still answer meanwhile.
import { spawn } from "node:child_process";
import net from "node:net";

/**
 * How node runs `script`: a .ts source through tsx's loader, a compiled .js bundle (as the image runs it) with its
 * source maps, so a stack trace names the source file either way.
 * @param {string} script
 */
export const scriptArgs = (script) => (script.endsWith(".ts") ? ["--import", "tsx", script] : ["--enable-source-maps", script]);

/**
 * @param {{ graceMs?: number, stopLast?: string[], onChildExit?: (name: string, code: number | null, signal: NodeJS.Signals | null) => void }} [options]
 */
export function createSupervisor({ graceMs = 15_000, stopLast = [], onChildExit } = {}) {
  /** @type {Map<string, import("node:child_process").ChildProcess>} */
  const children = new Map();
  let stopping = false;
  let exitCode = 0;

  const terminated = new WeakSet();
  const exitWhenAllGone = () => {
    if (!stopping) return;
    if (children.size === 0) process.exit(exitCode);
    // Once only the providers are left, they stop too.
    if ([...children.keys()].every((name) => stopLast.includes(name))) for (const child of children.values()) terminate(child);
  };
  /** One SIGTERM per child: a second one would cut short the grace period of a process already stopping. */
  const terminate = (child) => {
    if (child.signalCode === null && child.exitCode === null && !terminated.has(child)) {
      terminated.add(child);
      child.kill("SIGTERM");
    }
  };

  const supervisor = {
    get stopping() {
      return stopping;
    },
    /**
     * Starts `script` under `name` (a .ts source through tsx's loader, a compiled .js bundle as the image runs it), with
     * `nodeArgs` on node's command line (the portal's: scripts/portal-process.mjs); returns its pid.
     */
    start(name, script, env, nodeArgs = []) {
      // SUPERVISED_NODE_ARGS: more options for each child's node (e.g. "--cpu-prof --cpu-prof-dir=var/profiles", which
      // Node refuses in NODE_OPTIONS), to see where a load run's CPU goes.
      const extraArgs = (env?.SUPERVISED_NODE_ARGS ?? "").split(" ").filter(Boolean);
      // In a process group of its own: a Ctrl+C in the terminal signals the whole foreground group, and a child there got
      // its SIGINT at the same moment as the supervisor's SIGTERM — the providers stopped under the portal still draining
      // (its mail to the SMTP catcher answered 421), and the portal took the second signal as «exit now». The
      // supervisor relays the stop, once, in order.
      const child = spawn(process.execPath, [...nodeArgs, ...extraArgs, ...scriptArgs(script)], {
        stdio: "inherit",
        env,
        detached: true,
      });
      children.set(name, child);
      child.on("exit", (code, signal) => {
        children.delete(name);
        if (!stopping) onChildExit?.(name, code, signal);
        exitWhenAllGone();
      });
      return child.pid;
    },
    /** SIGTERM to every child (to those in `stopLast` once the others are gone); the command exits with `code` once they have all exited. */
    stop(code = 0) {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      for (const [name, child] of children) if (!stopLast.includes(name)) terminate(child);
      exitWhenAllGone();
      setTimeout(() => {
        for (const child of children.values()) child.kill("SIGKILL");
        process.exit(exitCode || 1);
      }, graceMs).unref();
    },
    /**
     * Stops on Ctrl+C (SIGINT), SIGTERM and a closed terminal (SIGHUP), after `beforeStop`. The children have process
     * groups of their own (see start()), so these reach them only through here.
     */
    stopOnSignals(beforeStop = () => {}) {
      for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"])
        process.on(signal, () => {
          if (stopping) return;
          beforeStop();
          supervisor.stop(0);
        });
    },
  };

  // `npm start` / `npm run stack`: npm does not pass a SIGTERM on to the script it runs, it just exits. Once whoever
  // started this command is gone, stop as if the signal had come here.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) supervisor.stop(0);
  }, 500).unref();

  return supervisor;
}

/**
 * Of `ports` ({ what: port }), the ones where something already answers on loopback (IPv4 or IPv6), as "what
 * (port)". Checked before starting anything: a second `npm start` would otherwise see the first one's portal answer
 * and say it is ready, while its own processes fail one by one.
 */
export async function portsInUse(ports) {
  const answers = (port, host) =>
    new Promise((resolve) => {
      const socket = net.connect({ port: Number(port), host });
      socket.setTimeout(1_000);
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("timeout", () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("error", () => resolve(false));
    });
  const taken = [];
  for (const [what, port] of Object.entries(ports)) {
    if ((await answers(port, "127.0.0.1")) || (await answers(port, "::1"))) taken.push(`${what} (${port})`);
  }
  return taken;
}
