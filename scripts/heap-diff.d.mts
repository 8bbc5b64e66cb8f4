export interface HeapComparison {
  byType: Array<{ type: string; before: number; after: number }>;
  growth: Array<{ kind: string; count: number; bytes: number }>;
  holders: Array<{ kind: string; chains: Array<[chain: string, count: number]> }>;
}

export function compareHeapSnapshots(
  beforeFile: string,
  afterFile: string,
  options?: { top?: number; retainersOf?: number },
): HeapComparison;
