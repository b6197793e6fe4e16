/**
 * Run by v8-tuning.test.ts as `node --allow-natives-syntax --import tsx probe.ts [tuned]`: makes
 * objects from one literal that survive young collections (as a burst of slow requests does),
 * then prints how many of 100 objects made afterwards from that literal start young (V8's
 * %InYoungGeneration). With `tuned`, `teamchat serve`'s V8 settings are applied first.
 */
import { tuneV8ForServing } from '../../../packages/cli/src/v8-tuning.js';

if (process.argv[2] === 'tuned') tuneV8ForServing();
const inYoungGeneration = new Function('o', 'return %InYoungGeneration(o);') as (o: object) => boolean;
const make = (i: number) => ({ id: i, ids: [i, i + 1] });

let kept: object[] = [];
for (let round = 0; round < 20; round++) {
  for (let i = 0; i < 100_000; i++) kept.push(make(i));
  if (kept.length > 400_000) kept = kept.slice(-200_000);
}
kept = [];
let young = 0;
for (let i = 0; i < 100; i++) if (inYoungGeneration(make(i))) young++;
console.log(JSON.stringify({ young }));
