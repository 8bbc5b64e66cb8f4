// The environment and node options every portal process is started with, besides its configuration (the image's ENV, npm start and
// npm run stack; tests/api keep them in step). MALLOC_ARENA_MAX=2: glibc's default (up to 8 arenas per core) left
// the replicas of the soak of 29-11-2026 with 42 and 78 MB of malloc arenas (one of them took 16 MB more in a single
// step in its first minutes), against 24 and 30 MB, flat to the kB, with two (read by /proc/<pid>/smaps region;
// docs/rendimiento.md, «Soak»).
//
// MALLOC_TRIM_THRESHOLD_=131072: each time glibc unmaps a block larger than its thresholds (a buffer of a few MB,
// freed), it raises them on its own to that size (up to 32 MB; the trim threshold to twice it): from then on blocks
// that large come from an arena and that much freed memory stays at the top of one. In about one 30-min soak in five a
// replica's arena kept 8–10 MB more in one step (at the moment V8 installed an optimized compile) and the RSS slope
// missed. A fixed threshold (glibc's default, 128 kB, now not raised) hands it back: no step in three soaks of
// 3-12-2026, the arenas flat at 38–58 MB per replica (61 and 73 MB in the 90-min run without it; docs/rendimiento.md,
// «Soak»; tests/api/process-memory.test.ts).
export const portalProcessEnv = { MALLOC_ARENA_MAX: "2", MALLOC_TRIM_THRESHOLD_: "131072" };

// --no-memory-reducer: V8's memory reducer, meant for idle browser tabs, ran every few minutes under the soak's steady
// load a full collection that threw away compiled code (V8's code space 0.6–0.9 MB less at once) and handed 35–45 MB
// back to the system, which the replica took again within a minute while it recompiled that code: RSS jumps of
// 37–45 MB and a kept heap rising 1.5–2 MB after each. Without it (soak of 29-11-2026, 13:29 UTC) RSS moved within a
// few MB over the judged 20 min and the kept heap held (0.06 / 0.04 MB/min), at ≈ 30 MB more RSS per replica. A V8
// option, refused in NODE_OPTIONS: the image's CMD, npm start and npm run stack put it on node's command line.
//
// --max-semi-space-size=16 and --heap-growing-percent=10: on Node 24, the image's release, a replica's RSS never comes
// down — freed V8 pages stay resident — so each new peak of the heap was RSS kept for good. Two peaks made it: the young
// generation grew to 128 MB (semi-spaces of up to 64 MB; Node 20 stopped at 16), and the old space swung between ≈ 60 MB
// live and 90–120 MB before each full collection. With the image's other options the soak's replicas went 396 → 441 and
// 426 → 465 MB in its 20 judged minutes (2.4 and 1.8 MB/min, 30-11-2026 04:37 UTC); with these two, 256 → 259 and
// 250 → 252 (0.135 and 0.070 MB/min, 08:24 UTC): the young generation stays at 32 MB, the old space's reservation moves
// within 2.5 MB, and what still grows is V8's compiled code (docs/rendimiento.md, «Soak»).
//
// --no-flush-bytecode: V8 throws away the bytecode of a function that has not run for a few collections and compiles it
// again when it runs (a job every minute, a reminder once a day, a screen few open), each time in new pages of its
// trusted space. Heap snapshots of the soak of 30-11-2026 (11:02 UTC) showed what that left: ≈ 4 MB of code and
// bytecode no longer used, which only a collection that flushes code gave back, and the code spaces still growing
// 0.03–0.04 MB/min 30 minutes in. Without flushing, a process keeps what it compiled once (its code base is fixed), the
// code spaces flatten (0.006–0.018 MB/min, 12:11 UTC) and the kept heap is ≈ 5 MB higher for good.
export const portalNodeArgs = ["--no-memory-reducer", "--max-semi-space-size=16", "--heap-growing-percent=10", "--no-flush-bytecode"];
