// The environment every portal process is started with, besides its configuration (the image's ENV, npm start and
// npm run stack; tests/api keep them in step). MALLOC_ARENA_MAX=2: glibc's default (up to 8 arenas per core) left
// the replicas of the soak of 29-11-2026 with 42 and 78 MB of malloc arenas (one of them took 16 MB more in a single
// step in its first minutes), against 24 and 30 MB, flat to the kB, with two (read by /proc/<pid>/smaps region;
// docs/rendimiento.md, «Soak»).
export const portalProcessEnv = { MALLOC_ARENA_MAX: "2" };
