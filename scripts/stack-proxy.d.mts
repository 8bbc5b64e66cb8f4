export const CLIENT_IDLE_MS: number;
export const UPSTREAM_IDLE_MS: number;
export function startProxy(options: {
  port: number;
  host?: string;
  backends: Array<{ name: string; host: string; port: number }>;
  checkMs?: number;
  log?: (line: string) => void;
}): Promise<{ close(): Promise<void>; backends: Array<{ name: string; healthy: boolean }> }>;
