export const portalNodeFlags: string[];
export const portalProcessEnv: Record<string, string>;
