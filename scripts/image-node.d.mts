export function imageNodeRelease(dockerfile?: string): string;
export function imageNodeBinary(projectRoot?: string): string;
export function runsImageNode(version?: string, release?: string): boolean;
export function continueOnImageNode(options?: {
  projectRoot?: string;
  release?: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}): Promise<void>;
