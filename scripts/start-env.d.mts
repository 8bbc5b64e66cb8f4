export function portalEnv(
  env: Record<string, string | undefined>,
  portalPort: string,
  mocksPort: string,
): Record<string, string | undefined>;
