// At most a few password checks (argon2, the costly part of a login) at once per client address in this instance;
// the others wait their turn. The throttle counts only checked wrong guesses, so without this a burst of thousands
// sent at once from one address would all be checked before the first was counted (issue 42, point 8).

interface Line {
  running: number;
  waiting: Array<() => void>;
}

const CHECKS_PER_ADDRESS = 4;
/** Past this many waiting, an address is sending faster than anyone types: the attempt is refused. */
const MAX_WAITING_PER_ADDRESS = 200;

export interface ChecksInFlight {
  /** Runs `work` when the address has a free slot; null (work not run) when too many already wait. */
  run<T>(address: string, work: () => Promise<T>): Promise<T | null>;
}

export function checksInFlight(perAddress = CHECKS_PER_ADDRESS, maxWaiting = MAX_WAITING_PER_ADDRESS): ChecksInFlight {
  const lines = new Map<string, Line>();
  return {
    async run(address, work) {
      let line = lines.get(address);
      if (!line) lines.set(address, (line = { running: 0, waiting: [] }));
      if (line.running >= perAddress) {
        if (line.waiting.length >= maxWaiting) return null;
        await new Promise<void>((resolve) => line.waiting.push(resolve));
      } else line.running += 1;
      try {
        return await work();
      } finally {
        // The slot passes straight to the next in line; the line goes away with its last attempt.
        const next = line.waiting.shift();
        if (next) next();
        else if ((line.running -= 1) === 0) lines.delete(address);
      }
    },
  };
}
