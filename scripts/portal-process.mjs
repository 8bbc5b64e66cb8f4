// How every portal process is started (the image's CMD and ENV, npm start and npm run stack; tests/api keep them in
// step), so its resident memory follows what it keeps (issue 46 §2). Soak of 29-11-2026, with /proc/<pid>/smaps and
// /metrics read together every 10–20 s: RSS outside V8's heap and C's allocator stayed flat; RSS moved with
// - V8's young generation: left to itself V8 shrank it to 1–4 MB whenever traffic paused and grew it back to 32 MB,
//   each move a 15–30 MB step in RSS. Its size is fixed at 2 × 16 MB, its size under load (from-space may still be
//   released in a pause: a 16-MB step);
// - glibc's malloc arenas: with its default (up to 8 per core) one replica's arenas grew 61 → 78 MB in 20 minutes, in
//   15-MB steps; with MALLOC_ARENA_MAX=2 they stayed at 24–30 MB, to the kB, in both replicas.
export const portalNodeFlags = ["--min-semi-space-size=16", "--max-semi-space-size=16"];
export const portalProcessEnv = { MALLOC_ARENA_MAX: "2" };
