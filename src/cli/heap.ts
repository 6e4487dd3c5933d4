// How far V8 lets the API's heap grow between full collections. V8 sets the next full GC at a
// multiple of what survived the last one, up to 4 × when the heap limit is large (as it is by
// default on a machine with a few GB of memory), so under load the old generation filled with
// promoted garbage — request objects that outlived two scavenges — to ~4 × the 25–40 MB that is
// live: the API's peak RSS under the bench was ~270 MB, of which ~170 MB old generation.
// At 2 × it peaked at ~168 MB (quick bench) for ~2.5 × as many full collections, each on a smaller
// heap: the same GC pause time in total and throughput within the bench's noise. 1.75 × (with the
// 8 MB semi-space below) peaks 6–9 MB lower, 133–139 MB against 142–145 (the quick bench's
// balance, lists and creates, two rounds alternated), for 16–30 full collections instead of 11 and
// GC pauses of 7.6–11 % of the process's CPU instead of 6.9–7.2 % (the process's own GC entries).
// 1.5 × cost the list, the route that allocates most, 6–11 % of its requests/s (more concurrent
// marking on the cores it shares); `node --heap-growing-percent=50 bin/hostcloud.js serve` still
// chooses it. `hostcloud serve` applies this one; the worker keeps V8's.
//
// The young generation is the other half of the peak: V8's default semi-space of 16 MB keeps two
// of them committed (32 MB) once a burst of allocation has grown it. At 8 MB the API peaked at
// 134–144 MB instead of 157–165 MB (quick bench, two rounds alternated), for twice as many
// scavenges, each half as long (~1.8–3 ms instead of ~3.4–4.5 ms: a shorter pause behind every
// request in flight). Their total time, read from the process's own GC entries, grew by ~1 % of
// its CPU on balance and ~2 % on the list. V8 sizes the young generation only when the heap is set
// up, so this one cannot be applied from inside: `npm start` passes it on node's command line
// (package.json), as the bench does; NODE_OPTIONS=--max-semi-space-size=8 does the same for a
// `hostcloud serve` started another way.
import v8 from 'node:v8';

/** The semi-space size, in MB, `npm start` gives node (V8's default on 64-bit: 16). */
export const SEMI_SPACE_MB = 8;

/** The growth factor of the old generation, as V8's flag states it: 1 + percent / 100. */
export const HEAP_GROWING_PERCENT = 75;

/**
 * Applies HEAP_GROWING_PERCENT unless the node command line sets its own. V8 reads the flag at
 * every full GC, so setting it at start-up does what the command-line flag does.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
