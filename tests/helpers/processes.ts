import type { ChildProcess } from "node:child_process";

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
