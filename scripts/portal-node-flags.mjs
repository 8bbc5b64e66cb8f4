// The V8 options every portal process runs with (the image's CMD, npm start and npm run stack; tests/api keep them in
// step). The young generation is pinned at 2 × 16 MB, its size under load: left to itself V8 shrank it to a few MB
// whenever traffic paused and grew it back, and each of those moves showed in the process's RSS as a 15–30 MB step
// (soak of 29-11-2026: RSS minus V8's committed heap stayed within 1 MB all run while RSS itself jumped), hiding
// whether the memory kept by the process grew (issue 46 §2).
export const portalNodeFlags = ["--min-semi-space-size=16", "--max-semi-space-size=16"];
