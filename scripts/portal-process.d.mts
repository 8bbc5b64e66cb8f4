export const portalProcessEnv: Record<string, string>;
