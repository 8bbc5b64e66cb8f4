// The child processes of npm start and npm run stack. Each runs `node --import tsx <script>` itself, not through
// npx: a signal then reaches the process that serves (and its close-with-grace), with no wrapper in between that might
// not pass it on. Stopping sends SIGTERM to every child and exits only once all are gone (or after `graceMs`), so
// nothing started here outlives the command and keeps its ports — also when npm, which started the command, is
// stopped instead (it does not pass the signal on).
import { spawn } from "node:child_process";
import net from "node:net";

/**
 * @param {{ graceMs?: number, onChildExit?: (name: string, code: number | null, signal: NodeJS.Signals | null) => void }} [options]
 */
export function createSupervisor({ graceMs = 15_000, onChildExit } = {}) {
  /** @type {Map<string, import("node:child_process").ChildProcess>} */
  const children = new Map();
  let stopping = false;
  let exitCode = 0;

  const exitWhenAllGone = () => {
    if (stopping && children.size === 0) process.exit(exitCode);
  };

  const supervisor = {
    get stopping() {
      return stopping;
    },
    /**
     * Starts `script` (TypeScript, through tsx's loader) under `name`, with `nodeArgs` on node's command line (the
     * portal's: scripts/portal-process.mjs); returns its pid.
     */
    start(name, script, env, nodeArgs = []) {
      // SUPERVISED_NODE_ARGS: more options for each child's node (e.g. "--cpu-prof --cpu-prof-dir=var/profiles", which
      // Node refuses in NODE_OPTIONS), to see where a load run's CPU goes.
      const extraArgs = (env?.SUPERVISED_NODE_ARGS ?? "").split(" ").filter(Boolean);
      const child = spawn(process.execPath, [...nodeArgs, ...extraArgs, "--import", "tsx", script], { stdio: "inherit", env });
      children.set(name, child);
      child.on("exit", (code, signal) => {
        children.delete(name);
        if (!stopping) onChildExit?.(name, code, signal);
        exitWhenAllGone();
      });
      return child.pid;
    },
    /** SIGTERM to every child; the command exits with `code` once they have all exited. */
    stop(code = 0) {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      for (const child of children.values()) child.kill("SIGTERM");
      exitWhenAllGone();
      setTimeout(() => {
        for (const child of children.values()) child.kill("SIGKILL");
        process.exit(exitCode || 1);
      }, graceMs).unref();
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
