import { spawn, type ChildProcess } from "node:child_process";

/**
 * What a command a test started writes (stdout and stderr together), and `ready`: settled once the output says
 * `marker`, rejected with the output if the command exits first or `what` is not ready within `ms`.
 */
export function watchOutput(
  child: ChildProcess,
  marker: string,
  what: string,
  ms = 150_000,
): { readonly text: string; ready: Promise<void> } {
  let text = "";
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} no quedó listo:\n${text}`)), ms);
    const read = (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes(marker)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", () => {
      clearTimeout(timer);
      reject(new Error(`${what} terminó antes de estar listo:\n${text}`));
    });
  });
  return {
    get text() {
      return text;
    },
    ready,
  };
}

/**
 * How long a compiled server may take to answer /readyz 200: it warms up first (server/ops/warm-up.ts: up to 12 s of
 * rounds, then the job engine's start), and on this 2-core machine, beside the other test files, that start took over
 * 20 s once (server-bundle's CI run of db3d025).
 */
export const READY_WITHIN_MS = 60_000;

/**
 * Starts `node [nodeArgs] file` in `cwd` and waits until `url` answers 200; rejects with what it wrote if it exits first
 * or does not answer within READY_WITHIN_MS. The child is pushed to `children` at once, so the caller's cleanup ends it
 * even when this rejects.
 */
export async function startUntilAnswering(
  options: { file: string; cwd: string; env: NodeJS.ProcessEnv; url: string; nodeArgs?: string[] },
  children: ChildProcess[],
): Promise<ChildProcess> {
  const { file, cwd, env, url, nodeArgs = [] } = options;
  const child = spawn(process.execPath, [...nodeArgs, file], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return child;
    if (child.exitCode !== null) throw new Error(`${file} terminó (código ${child.exitCode}):\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${file} no respondió 200 en ${url} en ${READY_WITHIN_MS / 1000} s:\n${output}`);
}
