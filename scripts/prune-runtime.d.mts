/** Types of scripts/prune-runtime.mjs for the tests that import it. */
export function folderBytes(dir: string): number;
export function runtimeClosure(appDir: string, roots: string[]): { kept: Set<string>; missing: string[] };
export function pruneNodeModules(appDir: string, roots: string[]): { kept: string[]; removed: string[]; before: number; after: number };
