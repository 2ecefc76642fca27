import {setFlagsFromString} from 'node:v8';

/*
 * V8 starts a thread's young generation (the nursery where new objects are made) at 1 MB per semi-space and
 * doubles it, up to 16 MB, each time the bytes that survived its scavenges since it last grew add up to its
 * size. A large log's load makes garbage a parsed line at a time, and the little that survives adds up over
 * thousands of scavenges, so the nursery always ends at 16 MB: 32 MB resident from then on, in every thread
 * that loads, for objects that nearly all die with their line. Kept at its first size it is scavenged more
 * often, but a scavenge costs what survives it, which here is almost nothing (docs/performance.md has the
 * figures: the same load times, peak memory 20-60 MB lower on the largest logs).
 *
 * The growth factor is the one setting of the nursery that V8 reads as it goes rather than once at start,
 * so it is the one a program can still change for itself (the others need node's command line, which a
 * user's `perscope` does not pass). It applies to the whole process, workers included. A later Node that
 * ignored it would only leave the nursery growing as before; the test beside this file says when that is so.
 */
export function keepYoungGenerationSmall(): void {
	setFlagsFromString('--semi-space-growth-factor=1');
}
