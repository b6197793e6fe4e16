/**
 * Run by v8-tuning.test.ts as `node --allow-natives-syntax --single-threaded-gc --import tsx
 * probe.ts [tuned]`: makes objects from one literal that survive young collections (as a burst
 * of slow requests does), round after round until a new object of that literal starts old or 60
 * rounds have passed, then prints how many of 100 objects made afterwards start young (V8's
 * %InYoungGeneration). With `tuned`, `teamchat serve`'s V8 settings are applied first. Without
 * them V8 pretenures the literal within a few rounds; the rounds are repeated because a full
 * collection in between may reset its decision.
 */
import { tuneV8ForServing } from '../../../packages/cli/src/v8-tuning.js';

if (process.argv[2] === 'tuned') tuneV8ForServing();
const inYoungGeneration = new Function('o', 'return %InYoungGeneration(o);') as (o: object) => boolean;
const make = (i: number) => ({ id: i, ids: [i, i + 1] });

let kept: object[] = [];
for (let round = 0; round < 60 && inYoungGeneration(make(round)); round++) {
  for (let i = 0; i < 100_000; i++) kept.push(make(i));
  if (kept.length > 400_000) kept = kept.slice(-200_000);
}
kept = [];
let young = 0;
for (let i = 0; i < 100; i++) if (inYoungGeneration(make(i))) young++;
console.log(JSON.stringify({ young }));
